/**
 * read_file, write_file, edit_file, glob and list_dir end to end against the real process context,
 * and against the virtual context over a copy-on-write view of the same kind of directory.
 */

import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, openWorkspace, text, type Workspace } from './process-fixture.js';

/** A valid 1×1 RGBA PNG, built byte by byte. */
function tinyPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0, 255]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe.each(BACKENDS)('%s context', (backend) => {
  describe('read_file', () => {
    let w: Workspace;
    beforeAll(async () => {
      w = await openWorkspace({
        backend,
        tools: { files: { maxUnrangedBytes: 4096, maxFileBytes: 1 << 20, maxLineChars: 50 } },
      });
      writeFileSync(
        `${w.hostDir}/ten.txt`,
        `${Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n')}\n`,
      );
    });
    afterAll(async () => {
      await w.dispose();
    });

    it('numbers lines cat -n style', async () => {
      const result = await w.call('read_file', { path: 'ten.txt' });
      expect(result.isError).toBeUndefined();
      expect(text(result)).toBe(
        Array.from({ length: 10 }, (_, i) => `${String(i + 1).padStart(6)}\tline ${i + 1}`).join('\n'),
      );
    });

    it('reads a range and says where to continue', async () => {
      expect(text(await w.call('read_file', { path: `${w.dir}/ten.txt`, offset: 3, limit: 2 }))).toBe(
        '     3\tline 3\n     4\tline 4\n\n[Showing lines 3–4 of 10. Continue with offset=5.]',
      );
      expect(text(await w.call('read_file', { path: 'ten.txt', offset: 9 }))).toBe(
        '     9\tline 9\n    10\tline 10\n\n[Showing lines 9–10 of 10: the end of the file.]',
      );
    });

    it('refuses an offset past the end', async () => {
      const result = await w.call('read_file', { path: 'ten.txt', offset: 11 });
      expect(result.isError).toBe(true);
      expect(text(result)).toBe(
        `offset 11 is past the end of ${w.dir}/ten.txt, which has 10 lines. Use an offset from 1 to 10.`,
      );
    });

    it('says so for an empty file, CRLF endings, a missing final newline and long lines', async () => {
      writeFileSync(`${w.hostDir}/empty.txt`, '');
      expect(text(await w.call('read_file', { path: 'empty.txt' }))).toBe(
        `${w.dir}/empty.txt is empty (0 bytes).`,
      );
      writeFileSync(`${w.hostDir}/crlf.txt`, `a\r\nb\r\n${'x'.repeat(80)}`);
      expect(text(await w.call('read_file', { path: 'crlf.txt' }))).toBe(
        `     1\ta\n     2\tb\n     3\t${'x'.repeat(50)}… [30 more characters on this line]\n\n` +
          '[The file has CRLF line endings; the \\r characters are not shown.]\n[The file does not end with a newline.]',
      );
    });

    it('explains a missing file with similar names, a directory, and a special file', async () => {
      const missing = await w.call('read_file', { path: 'ten.md' });
      expect(missing.isError).toBe(true);
      expect(text(missing)).toBe(
        `No such file: ${w.dir}/ten.md. Similar names in ${w.dir}: ten.txt. Check the path with list_dir or glob.`,
      );
      mkdirSync(`${w.hostDir}/adir`);
      expect(text(await w.call('read_file', { path: 'adir' }))).toContain(
        'is a directory, not a file. Use list_dir or glob',
      );
      execFileSync('mkfifo', [`${w.hostDir}/fifo`]);
      const fifo = await w.call('read_file', { path: 'fifo' });
      expect(fifo.isError).toBe(true);
      expect(text(fifo)).toContain('is not a regular file (other)');
      expect(text(await w.call('read_file', { path: 'nodir/x.txt' }))).toContain('No such file');
    });

    it('refuses a large file without a range (with its line count) and reads it with one', async () => {
      writeFileSync(
        `${w.hostDir}/big.txt`,
        `${Array.from({ length: 2000 }, (_, i) => `row ${i}`).join('\n')}\n`,
      );
      const refused = await w.call('read_file', { path: 'big.txt' });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toBe(
        `${w.dir}/big.txt is 16.5 KiB (2,000 lines), above the 4.0 KiB limit for reading without a range. ` +
          'Read a range with offset and limit, e.g. {"path":"big.txt","offset":1,"limit":500}, or search it with grep.',
      );
      expect(text(await w.call('read_file', { path: 'big.txt', offset: 1000, limit: 1 }))).toContain(
        '  1000\trow 999',
      );
    });

    it('a huge file: read by range where the context can, refused from its size alone where it cannot', async () => {
      execFileSync('truncate', ['-s', '3G', `${w.hostDir}/huge.bin`]);
      const result = await w.call('read_file', { path: 'huge.bin', offset: 1, limit: 10 });
      expect(result.isError).toBe(true);
      expect(text(result)).toBe(
        typeof w.context.readFileRange === 'function'
          ? // One chunk read: a sparse file is all NUL bytes.
            `${w.dir}/huge.bin is a binary file (3.0 GiB; it contains a NUL byte at offset 0). read_file shows text and images (PNG, JPEG, GIF, WebP) only. Inspect it with bash instead, e.g. \`file ${w.dir}/huge.bin\` or \`xxd ${w.dir}/huge.bin | head -n 20\`.`
          : `${w.dir}/huge.bin is 3.0 GiB, above the 1.0 MiB limit for reading a whole file. This workspace cannot read part of a file (its context has no readFileRange), so offset/limit cannot help: read a range with bash, e.g. \`sed -n '1,10p' ${w.dir}/huge.bin\`, or search it with grep.`,
      );
    });

    it('refuses binary files and invalid UTF-8 with advice', async () => {
      writeFileSync(`${w.hostDir}/prog.bin`, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]));
      const binary = await w.call('read_file', { path: 'prog.bin' });
      expect(binary.isError).toBe(true);
      expect(text(binary)).toBe(
        `${w.dir}/prog.bin is a binary file (7 B; it contains a NUL byte at offset 4). read_file shows text and images (PNG, JPEG, GIF, WebP) only. ` +
          `Inspect it with bash instead, e.g. \`file ${w.dir}/prog.bin\` or \`xxd ${w.dir}/prog.bin | head -n 20\`.`,
      );
      // Invalid UTF-8 with control bytes is binary; without them it is legacy text (below).
      writeFileSync(`${w.hostDir}/junk.dat`, Buffer.from([0x63, 0x01, 0x66, 0xe9, 0x0a]));
      expect(text(await w.call('read_file', { path: 'junk.dat' }))).toContain('it is not valid UTF-8 text');
      writeFileSync(`${w.hostDir}/latin1.txt`, Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
      const latin1 = await w.call('read_file', { path: 'latin1.txt' });
      expect(latin1.isError).toBeFalsy();
      expect(text(latin1)).toMatch(/^ {5}1\tcafé\n\[.*latin1\.txt is not UTF-8: it was decoded as Latin-1/);
      const edit = await w.call('edit_file', { path: 'latin1.txt', old_string: 'caf', new_string: 'CAF' });
      expect(edit.isError).toBe(true);
      expect(text(edit)).toContain('it is not valid UTF-8 text');
    });

    it('returns an image as image content', async () => {
      const png = tinyPng();
      writeFileSync(`${w.hostDir}/dot.png`, png);
      writeFileSync(`${w.hostDir}/dot-without-extension`, png);
      for (const path of ['dot.png', 'dot-without-extension']) {
        const result = await w.call('read_file', { path });
        expect(result.isError).toBeUndefined();
        expect(result.content).toEqual([
          { type: 'text', text: `Image ${w.dir}/${path} (image/png, ${png.length} B):` },
          { type: 'image', data: png.toString('base64'), mimeType: 'image/png' },
        ]);
      }
    });

    it('refuses an image over the image limit', async () => {
      const small = await openWorkspace({ backend, tools: { files: { maxImageBytes: 10 } } });
      try {
        writeFileSync(`${small.hostDir}/dot.png`, tinyPng());
        const result = await small.call('read_file', { path: 'dot.png' });
        expect(result.isError).toBe(true);
        expect(text(result)).toContain('image, above the 10 B image limit');
      } finally {
        await small.dispose();
      }
    });

    it('passes containment refusals through with their code', async () => {
      const jailed = await openWorkspace({ backend, contained: true });
      try {
        const result = await jailed.call('read_file', { path: '/etc/hostname' });
        expect(result.isError).toBe(true);
        expect(text(result)).toContain('outside the workspace root');
        const write = await jailed.call('write_file', { path: '../escape.txt', content: 'x' });
        expect(write.isError).toBe(true);
        expect(text(write)).toContain('[E_CONTAINMENT]');
        // (The virtual shell's own brace expansion: seq is not among its commands yet.)
        const lines = backend === 'virtual' ? "printf '%s\\n' {1..100000}" : 'seq 1 100000';
        const shown = text(await jailed.call('bash', { command: lines }));
        if (backend === 'process') {
          // bash's saved copy of cut output is the context's own file: readable, though outside the root.
          expect(shown).not.toMatch(/berth-output-|could not be saved/);
          const saved = /saved to (\/\S+\.txt);/.exec(shown)?.[1];
          expect(saved, shown).toBeDefined();
          expect(text(await jailed.call('read_file', { path: saved, offset: 1, limit: 1 }))).toMatch(
            /^ {5}1\t1/,
          );
        } else {
          // No keepOutput: the copy would land outside the root, so the result says it could not be saved.
          const made = /(\/tmp\/berth-output-[0-9a-f]+)/.exec(shown)?.[1];
          if (made !== undefined) rmSync(made, { recursive: true, force: true });
          expect(shown).toContain('The full text could not be saved (');
          expect(shown).toMatch(/outside the workspace root|mkdir: command not found/);
        }
      } finally {
        await jailed.dispose();
      }
    });
  });

  describe('write_file and edit_file', () => {
    let w: Workspace;
    beforeAll(async () => {
      w = await openWorkspace({ backend });
    });
    afterAll(async () => {
      await w.dispose();
    });

    it('creates files with parent directories, then overwrites them', async () => {
      expect(text(await w.call('write_file', { path: 'deep/er/new.txt', content: 'héllo\nworld\n' }))).toBe(
        `Created ${w.dir}/deep/er/new.txt (13 B, 2 lines).`,
      );
      expect((await w.readBack('deep/er/new.txt')).toString('utf8')).toBe('héllo\nworld\n');
      expect(text(await w.call('write_file', { path: 'deep/er/new.txt', content: '' }))).toBe(
        `Overwrote ${w.dir}/deep/er/new.txt (was 13 B; now 0 B, 0 lines).`,
      );
      expect((await w.readBack('deep/er/new.txt')).toString('utf8')).toBe('');
    });

    it('fails clearly when the target is a directory', async () => {
      mkdirSync(`${w.hostDir}/isdir`);
      const result = await w.call('write_file', { path: 'isdir', content: 'x' });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(
        /isdir is a directory, not a file\..*Give the path of a file inside it\.$/,
      );
    });

    it('edits exactly one occurrence and keeps every other byte', async () => {
      const original = Buffer.concat([
        Buffer.from('\uFEFF', 'utf8'),
        Buffer.from('const a = 1;\r\nconst b = "ünï";\r\nend'),
      ]);
      writeFileSync(`${w.hostDir}/code.ts`, original);
      const result = await w.call('edit_file', {
        path: 'code.ts',
        old_string: 'const b = "ünï";',
        new_string: 'const b = $&;',
      });
      expect(result.isError).toBeUndefined();
      expect(text(result)).toBe(
        `Edited ${w.dir}/code.ts: replaced 1 occurrence (at line 2).\n     1\t\uFEFFconst a = 1;\n     2\tconst b = $&;\n     3\tend`,
      );
      expect(await w.readBack('code.ts')).toEqual(
        Buffer.concat([Buffer.from('\uFEFF', 'utf8'), Buffer.from('const a = 1;\r\nconst b = $&;\r\nend')]),
      );
    });

    it('matches LF text in a CRLF file and keeps CRLF', async () => {
      writeFileSync(`${w.hostDir}/crlf.txt`, 'one\r\ntwo\r\nthree\r\n');
      const result = await w.call('edit_file', {
        path: 'crlf.txt',
        old_string: 'one\ntwo',
        new_string: '1\n2',
      });
      expect(text(result)).toContain('The file uses CRLF line endings; they were kept.');
      expect((await w.readBack('crlf.txt')).toString('utf8')).toBe('1\r\n2\r\nthree\r\n');
    });

    it('refuses ambiguous and missing text with line numbers, leaving the file untouched', async () => {
      writeFileSync(`${w.hostDir}/dup.txt`, 'x = 1\ny = 2\nx = 1\n');
      const ambiguous = await w.call('edit_file', {
        path: 'dup.txt',
        old_string: 'x = 1',
        new_string: 'x = 3',
      });
      expect(ambiguous.isError).toBe(true);
      expect(text(ambiguous)).toContain('old_string occurs 2 times in');
      expect(text(ambiguous)).toContain('(at lines 1, 3)');
      const missing = await w.call('edit_file', {
        path: 'dup.txt',
        old_string: '  y = 2\n  z = 9',
        new_string: '',
      });
      expect(missing.isError).toBe(true);
      expect(text(missing)).toContain('Its first line "y = 2" appears (ignoring indentation) at line 2');
      expect((await w.readBack('dup.txt')).toString('utf8')).toBe('x = 1\ny = 2\nx = 1\n');
      const all = await w.call('edit_file', {
        path: 'dup.txt',
        old_string: 'x = 1',
        new_string: 'x = 3',
        replace_all: true,
      });
      expect(text(all)).toContain('replaced 2 occurrences (at lines 1, 3)');
      expect((await w.readBack('dup.txt')).toString('utf8')).toBe('x = 3\ny = 2\nx = 3\n');
    });

    it('refuses to edit a file that is not valid UTF-8, and a missing file', async () => {
      const bytes = Buffer.from([0x61, 0xff, 0x0a]);
      writeFileSync(`${w.hostDir}/bad.txt`, bytes);
      const result = await w.call('edit_file', { path: 'bad.txt', old_string: 'a', new_string: 'b' });
      expect(result.isError).toBe(true);
      expect(text(result)).toContain('not valid UTF-8');
      expect(await w.readBack('bad.txt')).toEqual(bytes);
      expect(
        text(await w.call('edit_file', { path: 'nope.txt', old_string: 'a', new_string: 'b' })),
      ).toContain('No such file');
    });

    it('reports a write the filesystem refuses', async () => {
      writeFileSync(`${w.hostDir}/ro.txt`, 'abc');
      chmodSync(`${w.hostDir}/ro.txt`, 0o444);
      mkdirSync(`${w.hostDir}/rodir`);
      chmodSync(`${w.hostDir}/rodir`, 0o555);
      // Root ignores permission bits, and so does the virtual context (it stores modes, never
      // enforces them): never a throw, a clear result.
      const result = await w.call('write_file', { path: 'rodir/x.txt', content: 'x' });
      if (process.getuid?.() === 0 || backend === 'virtual') expect(result.isError).toBeUndefined();
      else expect(text(result)).toMatch(/write_file failed: .*/);
    });
  });

  describe('glob and list_dir', () => {
    let w: Workspace;
    beforeAll(async () => {
      w = await openWorkspace({ backend });
      mkdirSync(`${w.hostDir}/src/lib`, { recursive: true });
      writeFileSync(`${w.hostDir}/src/a.ts`, 'a');
      writeFileSync(`${w.hostDir}/src/lib/b.ts`, 'bb');
      writeFileSync(`${w.hostDir}/src/lib/c.js`, 'c');
      writeFileSync(`${w.hostDir}/.env`, 'secret');
      symlinkSync('src/a.ts', `${w.hostDir}/link.ts`);
    });
    afterAll(async () => {
      await w.dispose();
    });

    it('glob finds files by pattern, relative to path', async () => {
      const all = text(await w.call('glob', { pattern: '**/*.ts', path: 'src' }));
      expect(all.split('\n').slice(1).sort()).toEqual([`${w.dir}/src/a.ts`, `${w.dir}/src/lib/b.ts`]);
      expect(all).toMatch(/^2 files match .*src\/\*\*\/\*\.ts/);
      expect(text(await w.call('glob', { pattern: 'src/**/*.{js,ts}' })).split('\n')).toHaveLength(4);
      expect(text(await w.call('glob', { pattern: '**/*.py' }))).toBe(`No files match ${w.dir}/**/*.py.`);
    });

    it('glob refuses a pattern without a wildcard and an absolute pattern with path', async () => {
      const plain = await w.call('glob', { pattern: 'src/a.ts' });
      expect(plain.isError).toBe(true);
      expect(text(plain)).toContain('has no wildcard');
      const both = await w.call('glob', { pattern: `${w.dir}/*.ts`, path: 'src' });
      expect(both.isError).toBe(true);
    });

    it('list_dir shows directories first, sizes, symlinks and hidden entries', async () => {
      expect(text(await w.call('list_dir', {}))).toBe(
        `${w.dir}: 1 directory, 2 other entries\nsrc/\n.env  6 B\nlink.ts@`,
      );
      expect(text(await w.call('list_dir', { path: 'src/lib' }))).toBe(
        `${w.dir}/src/lib: 0 directories, 2 other entries\nb.ts  2 B\nc.js  1 B`,
      );
    });

    it('list_dir refuses patterns and explains missing directories', async () => {
      expect(text(await w.call('list_dir', { path: 'src/*' }))).toContain('Use glob for patterns');
      const missing = await w.call('list_dir', { path: 'nope' });
      expect(missing.isError).toBe(true);
      expect(text(missing)).toContain('[E_NOT_FOUND]');
    });
  });
});
