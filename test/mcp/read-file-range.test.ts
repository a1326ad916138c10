import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BerthMcp, startBerthMcp, textOf } from './support/berth-mcp-client.js';

describe('read_file by range beyond the whole-file limit (SDK client, sandboxed process context)', () => {
  let mcp: BerthMcp;
  const LINES = 400_000; // 45 bytes a line: 18 MB, over the 16 MiB whole-file limit
  const line = (n: number) => `row ${String(n).padStart(8, '0')} ${'y'.repeat(31)}`;
  beforeAll(async () => {
    mcp = await startBerthMcp();
    writeFileSync(
      join(mcp.root, 'huge.log'),
      Array.from({ length: LINES }, (_, i) => `${line(i + 1)}\n`).join(''),
    );
  });
  afterAll(() => mcp?.close());

  it('reads lines deep in the file and says where to continue', async () => {
    const result = await mcp.call('read_file', { path: 'huge.log', offset: 350_000, limit: 3 });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe(
      [350_000, 350_001, 350_002].map((n) => `${String(n).padStart(6, ' ')}\t${line(n)}`).join('\n') +
        '\n\n[Showing lines 350000–350002 of a 17.2 MiB file, read by range. Continue with offset=350003.]',
    );
  });

  it('reads the last lines and says it reached the end; past the end names the line count', async () => {
    const end = await mcp.call('read_file', { path: 'huge.log', offset: LINES - 1, limit: 10 });
    expect(textOf(end)).toMatch(/\[Showing lines 399999–400000 of 400,000: the end of the file\.\]$/);
    const past = await mcp.call('read_file', { path: 'huge.log', offset: LINES + 5, limit: 1 });
    expect(past.isError).toBe(true);
    expect(textOf(past)).toMatch(/which has 400,000 lines/);
  });

  it('without a range, refuses with a call that works', async () => {
    const result = await mcp.call('read_file', { path: 'huge.log' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /above the 16\.0 MiB limit for reading a whole file\. Read a range with offset and limit, e\.g\. \{"path":"huge\.log","offset":1,"limit":500\}/,
    );
  });
});
