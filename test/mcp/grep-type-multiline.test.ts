import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BerthMcp, startBerthMcp, textOf } from './support/berth-mcp-client.js';

describe('grep type and multiline (SDK client, sandboxed process context, ripgrep)', () => {
  let mcp: BerthMcp;
  beforeAll(async () => {
    mcp = await startBerthMcp();
    mkdirSync(join(mcp.root, 'src'));
    writeFileSync(join(mcp.root, 'src/app.ts'), 'export function run(\n  a: number,\n) {\n  return a;\n}\n');
    writeFileSync(join(mcp.root, 'src/app.py'), 'def run(\n    a,\n):\n    return a\n');
    writeFileSync(join(mcp.root, 'README.md'), 'run the app\n');
  });
  afterAll(() => mcp?.close());

  it('type selects ripgrep file types and refuses an unknown one with a did-you-mean', async () => {
    const ts = await mcp.call('grep', { pattern: 'run', type: 'ts' });
    expect(textOf(ts)).toBe(`1 file with matches:\n${mcp.root}/src/app.ts`);
    const md = await mcp.call('grep', { pattern: 'run', type: 'md' });
    expect(textOf(md)).toBe(`1 file with matches:\n${mcp.root}/README.md`);
    const bad = await mcp.call('grep', { pattern: 'run', type: 'python' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^type "python" is not a known file type \(did you mean "py"\?\)/);
  });

  it('multiline matches across lines, shows every line of the match, and is refused otherwise', async () => {
    const args = { pattern: 'run\\(\\n.*?\\)', output_mode: 'content', type: 'ts' };
    const refused = await mcp.call('grep', args);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/Pass multiline: true/);
    const found = await mcp.call('grep', { ...args, multiline: true });
    expect(found.isError).toBeFalsy();
    expect(textOf(found)).toBe(
      `3 matching lines in 1 file:\n${mcp.root}/src/app.ts:1:export function run(\n${mcp.root}/src/app.ts:2:  a: number,\n${mcp.root}/src/app.ts:3:) {`,
    );
    const count = await mcp.call('grep', { pattern: '\\(\\n', multiline: true, output_mode: 'count' });
    expect(textOf(count)).toBe(
      `2 matching lines in 2 files:\n${mcp.root}/src/app.py:1\n${mcp.root}/src/app.ts:1`,
    );
  });

  it('multiline must be a boolean', async () => {
    const bad = await mcp.call('grep', { pattern: 'x', multiline: 'yes' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/multiline/);
  });
});
