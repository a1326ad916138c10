/** grep's streaming and bounds: early exit, endless input, huge lines, budgets, line blocks. */
import { describe, expect, it } from 'vitest';
import { readerFromBytes } from '../../../src/commands/byte-io.js';
import type { ByteReader } from '../../../src/commands/command.js';
import { fnmatch } from '../../../src/commands/fnmatch.js';
import { grepCommands } from '../../../src/commands/grep/index.js';
import { LineBlockReader } from '../../../src/commands/line-blocks.js';
import { runStandalone } from '../../../src/commands/standalone.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';

const grep = (grepCommands[0] as (typeof grepCommands)[number]).run;
const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

/** An input that never ends (`yes | grep -q y`); counts what was read. */
function endless(line: string): ByteReader & { reads: number } {
  const chunk = enc(line.repeat(1000));
  const r = {
    reads: 0,
    read: async () => {
      r.reads += 1;
      return chunk;
    },
    unread: () => {},
    data: async () => undefined,
    close: () => {},
  };
  return r;
}

describe('grep streaming', () => {
  it('-q and -m stop reading an endless input', async () => {
    const input = endless('yes\n');
    const q = await runStandalone(grep, {
      argv: ['grep', '-q', 'y'],
      fs: createMemoryFilesystem(),
      stdin: input,
    });
    expect(q.status).toBe(0);
    expect(input.reads).toBeLessThan(5);
    const m = await runStandalone(grep, {
      argv: ['grep', '-m', '3', 'y'],
      fs: createMemoryFilesystem(),
      stdin: endless('yes\n'),
    });
    expect(dec(m.stdout)).toBe('yes\nyes\nyes\n');
  });

  it('finds a match at the end of a line longer than any chunk', async () => {
    const line = `${'a'.repeat(3_000_000)}needle`;
    const r = await runStandalone(grep, {
      argv: ['grep', '-c', 'needle$'],
      fs: createMemoryFilesystem(),
      stdin: enc(`x\n${line}\ny\n`),
    });
    expect(dec(r.stdout)).toBe('1\n');
  });

  it('reports a back-reference pattern past its budget as trouble, never hangs', async () => {
    const started = performance.now();
    const r = await runStandalone(grep, {
      argv: ['grep', '\\(a*\\)*\\1\\(b\\|c\\)'],
      fs: createMemoryFilesystem(),
      stdin: enc(`${'a'.repeat(60)}d\n`),
    });
    expect(r.status).toBe(2);
    expect(dec(r.stderr)).toMatch(/^grep: regular expression too complex/);
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it('stops at the next block when the signal fires', async () => {
    const controller = new AbortController();
    const input = endless('no\n');
    const pending = runStandalone(grep, {
      argv: ['grep', 'y'],
      fs: createMemoryFilesystem(),
      stdin: input,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    const r = await pending;
    expect(r.status).toBe(1);
    expect(input.reads).toBeGreaterThan(0);
  });
});

describe('LineBlockReader', () => {
  it('yields whole lines only, across chunk boundaries, and the unterminated tail last', async () => {
    const chunks = ['ab', 'c\nde', 'f\ng', 'h'].map(enc);
    const reader = new LineBlockReader(readerFromBytes(chunks));
    const blocks: [string, boolean][] = [];
    for (let b = await reader.next(); b !== null; b = await reader.next())
      blocks.push([dec(b.bytes), b.terminated]);
    expect(blocks).toEqual([
      ['abc\n', true],
      ['def\n', true],
      ['gh', false],
    ]);
  });

  it('hands a carried line on its own, then the other whole lines of the chunk without copying them', async () => {
    const second = enc('ne\ntwo\nthree\nfo');
    const chunks = [enc('o'), second, enc('ur\n')];
    const reader = new LineBlockReader(readerFromBytes(chunks));
    const blocks: Uint8Array[] = [];
    for (let b = await reader.next(); b !== null; b = await reader.next()) blocks.push(b.bytes);
    expect(blocks.map(dec)).toEqual(['one\n', 'two\nthree\n', 'four\n']);
    // The middle block is a view of the chunk that was read, not a copy of it.
    expect((blocks[1] as Uint8Array).buffer).toBe(second.buffer);
  });

  it('fails clearly past the longest line it may hold', async () => {
    const reader = new LineBlockReader(readerFromBytes([enc('x'.repeat(100))]), { maxLineBytes: 10 });
    await expect(reader.next()).rejects.toThrow('exceeds the memory limit');
  });
});

describe('fnmatch', () => {
  it('matches as fnmatch(3) without flags', () => {
    expect(fnmatch('*.txt', 'a.txt')).toBe(true);
    expect(fnmatch('*.txt', '.hidden.txt')).toBe(true);
    expect(fnmatch('a?c', 'abc')).toBe(true);
    expect(fnmatch('[!a]*', 'abc')).toBe(false);
    expect(fnmatch('[[:digit:]]x', '7x')).toBe(true);
    expect(fnmatch('a\\*', 'a*')).toBe(true);
    expect(fnmatch('a\\*', 'ab')).toBe(false);
    expect(fnmatch('x[', 'x[')).toBe(true);
    expect(fnmatch('*a*a*a*a*a*b', 'a'.repeat(200))).toBe(false);
  });
});
