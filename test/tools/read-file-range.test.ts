/**
 * read_file by range past the whole-file limit, on the real process context: the numbered lines
 * must be exactly what the whole-file reader shows for the same file (the oracle), whatever the
 * line endings, the last line, multi-byte characters across chunk boundaries or very long lines.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RANGE_CHUNK_BYTES } from '../../src/tools/read-file-range.js';
import { openWorkspace, text, type Workspace } from './process-fixture.js';

const numbered = (result: string) => result.split('\n\n')[0]!;
const notes = (result: string) => result.split('\n\n').slice(1).join('\n\n');

describe('read_file by range over the whole-file limit (process context)', () => {
  let ranged: Workspace;
  let whole: Workspace;
  beforeAll(async () => {
    ranged = await openWorkspace({ tools: { files: { maxFileBytes: 100, maxUnrangedBytes: 50 } } });
    whole = await openWorkspace();
  });
  afterAll(async () => {
    await Promise.all([ranged.dispose(), whole.dispose()]);
  });

  async function both(name: string, content: string | Buffer, args: Record<string, unknown>) {
    writeFileSync(join(ranged.hostDir, name), content);
    writeFileSync(join(whole.hostDir, name), content);
    const a = await ranged.call('read_file', { path: name, ...args });
    const b = await whole.call('read_file', { path: name, ...args });
    return {
      ranged: text(a),
      whole: text(b),
      rangedError: a.isError === true,
      wholeError: b.isError === true,
    };
  }

  const lines = Array.from({ length: 300 }, (_, i) => `line ${i + 1} ${'x'.repeat(i % 7)}`);
  const cases: [string, string | Buffer, Record<string, unknown>][] = [
    ['middle', `${lines.join('\n')}\n`, { offset: 120, limit: 15 }],
    ['first lines', `${lines.join('\n')}\n`, { limit: 3 }],
    ['to the end', `${lines.join('\n')}\n`, { offset: 290, limit: 50 }],
    ['exactly the last lines', `${lines.join('\n')}\n`, { offset: 291, limit: 10 }],
    ['no final newline', lines.join('\n'), { offset: 295, limit: 10 }],
    ['CRLF', `${lines.join('\r\n')}\r\n`, { offset: 10, limit: 5 }],
    ['empty lines', `${'\n'.repeat(200)}end\n`, { offset: 199, limit: 5 }],
    ['a long line', `short\n${'é'.repeat(5000)}\nafter\n`, { offset: 2, limit: 2 }],
  ];
  for (const [name, content, args] of cases) {
    it(`${name}: the same lines as the whole-file reader`, async () => {
      const r = await both(`${name.replaceAll(' ', '-')}.txt`, content, args);
      expect(r.rangedError).toBe(false);
      expect(numbered(r.ranged)).toBe(numbered(r.whole));
    });
  }

  it('says where to continue, and that it reached the end', async () => {
    const middle = await both('n1.txt', `${lines.join('\n')}\n`, { offset: 120, limit: 15 });
    expect(notes(middle.ranged)).toMatch(
      /^\[Showing lines 120–134 of a [\d.]+ KiB file, read by range\. Continue with offset=135\.\]$/,
    );
    const end = await both('n2.txt', `${lines.join('\n')}\n`, { offset: 291, limit: 10 });
    expect(notes(end.ranged)).toBe('[Showing lines 291–300 of 300: the end of the file.]');
    const open = await both('n3.txt', lines.join('\n'), { offset: 299, limit: 10 });
    expect(notes(open.ranged)).toBe(
      '[Showing lines 299–300 of 300: the end of the file.]\n[The file does not end with a newline.]',
    );
    const crlf = await both('n4.txt', `${lines.join('\r\n')}\r\n`, { offset: 10, limit: 5 });
    expect(notes(crlf.ranged)).toMatch(
      /\[The file has CRLF line endings; the \\r characters are not shown\.\]/,
    );
  });

  it('an offset past the end names the line count, as the whole-file reader does', async () => {
    const r = await both('past.txt', 'a\nb\nc', { offset: 9, limit: 1 });
    expect(r.rangedError).toBe(true);
    expect(r.ranged.replace(ranged.dir, '<ws>')).toBe(r.whole.replace(whole.dir, '<ws>'));
    expect(r.ranged).toMatch(/which has 3 lines/);
  });

  it('multi-byte characters across a chunk boundary and a line longer than a chunk', async () => {
    // 'ä' (2 bytes) makes the chunk boundary fall inside a character; one line spans 3 chunks.
    // The second line is longer than a line is kept whole (1 MiB): it is cut with the bytes it had left.
    const body = `${'ä'.repeat(RANGE_CHUNK_BYTES / 2 + 1)}\n${'z'.repeat(RANGE_CHUNK_BYTES * 5)}\ntail ä\n`;
    const r = await both('chunks.txt', body, { offset: 1, limit: 3 });
    const shown = numbered(r.ranged).split('\n');
    expect(shown[0]).toBe(numbered(r.whole).split('\n')[0]);
    expect(shown[1]).toBe(
      `     2\t${'z'.repeat(2000)}… [${(RANGE_CHUNK_BYTES * 5 - 2000).toLocaleString('en-US')} more bytes on this line]`,
    );
    expect(shown[2]).toBe('     3\ttail ä');
  });

  it('refuses a read without a range, pointing at offset and limit', async () => {
    writeFileSync(join(ranged.hostDir, 'big.txt'), `${lines.join('\n')}\n`);
    const result = await ranged.call('read_file', { path: 'big.txt' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(
      /above the 100 B limit for reading a whole file\. Read a range with offset and limit, e\.g\. \{"path":"big\.txt","offset":1,"limit":500\}/,
    );
  });

  it('refuses a binary file, as the whole-file reader does', async () => {
    const r = await both('bin.dat', Buffer.concat([Buffer.from('abc\0def\n'), Buffer.alloc(300, 65)]), {
      offset: 1,
      limit: 1,
    });
    expect(r.rangedError).toBe(true);
    expect(r.ranged).toMatch(/NUL byte/);
  });
});
