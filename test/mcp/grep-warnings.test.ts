import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BerthMcp, startBerthMcp, textOf } from './support/berth-mcp-client.js';

describe("grep's ripgrep warnings note is bounded (SDK client, sandboxed process context)", () => {
  let mcp: BerthMcp;
  const locked: string[] = [];
  beforeAll(async () => {
    mcp = await startBerthMcp();
    writeFileSync(join(mcp.root, 'readable.txt'), 'needle\n');
    // Twenty unreadable directories with long names: one long warning line from ripgrep each.
    for (let i = 0; i < 20; i++) {
      const dir = join(mcp.root, `${String(i).padStart(2, '0')}-${'d'.repeat(240)}`);
      mkdirSync(dir);
      writeFileSync(join(dir, 'x.txt'), 'needle\n');
      chmodSync(dir, 0o000);
      locked.push(dir);
    }
  });
  afterAll(async () => {
    for (const dir of locked) chmodSync(dir, 0o700);
    await mcp?.close();
  });

  it('shows the first five warnings, each cut, and how many more there were', async () => {
    const result = await mcp.call('grep', { pattern: 'needle' });
    expect(result.isError).toBeFalsy();
    const text = textOf(result);
    expect(text).toContain(`${mcp.root}/readable.txt`);
    const note = text.split('\n').find((line) => line.startsWith('[ripgrep warnings: '));
    expect(note, text).toBeDefined();
    expect(note).toMatch(/Permission denied/);
    expect(note).toMatch(/ \| … and 15 more\]$/);
    expect(note!.split(' | ')).toHaveLength(6);
    expect(note!.length).toBeLessThan(5 * 340 + 100);
  });
});
