import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BerthMcp, startBerthMcp, textOf } from './support/berth-mcp-client.js';

describe('grep through berth mcp (SDK client, ripgrep in the sandbox)', () => {
  let mcp: BerthMcp;
  beforeAll(async () => {
    mcp = await startBerthMcp();
    // Matches on every fourth line: never adjacent.
    writeFileSync(
      join(mcp.root, 'spread.txt'),
      Array.from({ length: 40 }, (_, i) => (i % 4 === 0 ? `hit ${i + 1}` : `miss ${i + 1}`)).join('\n'),
    );
    // 19,999 matching lines of 120 bytes: 2.4 MB, over the context's 1 MiB capture.
    writeFileSync(
      join(mcp.root, 'big.txt'),
      Array.from({ length: 19_999 }, (_, i) => `row ${String(i).padStart(6, '0')} ${'y'.repeat(108)}\n`).join(
        '',
      ),
    );
  });
  afterAll(() => mcp?.close());

  it('is contained like the other file tools', async () => {
    const grep = await mcp.call('grep', { pattern: 'root', path: '/etc/passwd' });
    const read = await mcp.call('read_file', { path: '/etc/passwd' });
    expect(grep.isError).toBe(true);
    expect(textOf(grep)).not.toMatch(/root:x:0/);
    expect(textOf(grep)).toBe(textOf(read));
    const up = await mcp.call('grep', { pattern: 'root', path: '..', output_mode: 'content' });
    expect(up.isError).toBe(true);
    expect(textOf(up)).toMatch(/outside the workspace root/);
  });

  it('content mode without context lines has no separators, and head_limit counts matches', async () => {
    const result = textOf(
      await mcp.call('grep', { pattern: '^hit', path: 'spread.txt', output_mode: 'content', head_limit: 6 }),
    );
    const lines = result.split('\n');
    expect(lines[0]).toBe('10 matching lines in 1 file:');
    expect(lines).not.toContain('--');
    expect(lines.filter((line) => /spread\.txt:\d+:hit/.test(line))).toHaveLength(6);
    expect(result).toContain('[Showing the first 6 of 10 matching lines; continue with offset 6.');
  });

  it('with context lines, groups are separated by -- as ripgrep separates them', async () => {
    const result = textOf(
      await mcp.call('grep', {
        pattern: '^hit',
        path: 'spread.txt',
        output_mode: 'content',
        context_lines: 1,
        head_limit: 3,
      }),
    );
    const body = result.split('\n').slice(1, -1);
    expect(body.map((line) => line.replace(/^.*spread\.txt/, ''))).toEqual([
      ':1:hit 1',
      '-2-miss 2',
      '--',
      '-4-miss 4',
      ':5:hit 5',
      '-6-miss 6',
      '--',
      '-8-miss 8',
      ':9:hit 9',
      '-10-miss 10',
    ]);
  });

  it('the summary counts every match when ripgrep prints more than the context captures', async () => {
    for (const output_mode of ['content', 'count'] as const) {
      const result = textOf(await mcp.call('grep', { pattern: '^row', path: 'big.txt', output_mode }));
      expect(result.split('\n')[0], output_mode).toBe('19,999 matching lines in 1 file:');
    }
  });

  it('before and after separately, and offset pages through the matches', async () => {
    const result = textOf(
      await mcp.call('grep', {
        pattern: '^hit',
        path: 'spread.txt',
        output_mode: 'content',
        before: 1,
        after: 0,
        head_limit: 2,
        offset: 1,
      }),
    );
    const body = result.split('\n').slice(1, -1);
    expect(body.map((line) => line.replace(/^.*spread\.txt/, ''))).toEqual([
      '-4-miss 4',
      ':5:hit 5',
      '--',
      '-8-miss 8',
      ':9:hit 9',
    ]);
    expect(result).toContain('[Showing 2–3 of 10 matching lines; continue with offset 3.');
    const files = textOf(
      await mcp.call('grep', {
        pattern: 'hit|row',
        output_mode: 'files_with_matches',
        head_limit: 1,
        offset: 1,
      }),
    );
    expect(files).toMatch(/^2 files with matches:\n.*spread\.txt\n\[Showing 2–2 of 2 paths\./);
  });
});
