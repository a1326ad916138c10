import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fileCommand } from '../../../src/commands/files/file.js';
import { mkfifoCommand } from '../../../src/commands/files/mkfifo.js';
import { treeCommand } from '../../../src/commands/files/tree.js';
import { oracleTable } from '../text/support/oracle-table.js';
import { runText as runRaw } from '../text/support/run-text.js';

/** tree draws with UTF-8 box characters: read its output as UTF-8. */
async function runText(...args: Parameters<typeof runRaw>) {
  const r = await runRaw(...args);
  return { ...r, stdout: new TextDecoder().decode(r.stdoutBytes) };
}

const png = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 16, 0, 0, 0,
  32, 8, 6, 0, 0, 0, 1, 2, 3, 4,
]);
const jpg = Uint8Array.from([
  0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0,
]);
const jpg2 = Uint8Array.from([
  0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 2, 1, 0, 0x48, 0, 0x48, 0, 0, 0xff, 0xc0, 0,
  0x11, 8, 0, 0x20, 0, 0x10, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1,
]);
const elf = new Uint8Array(64);
elf.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0], 0);
elf.set([3, 0, 0x3e, 0], 16);
const elf32 = new Uint8Array(52);
elf32.set([0x7f, 0x45, 0x4c, 0x46, 1, 1, 1, 0], 0);
elf32.set([1, 0, 0x28, 0], 16);

const samples = {
  files: {
    't.txt': 'hello\n',
    'u.txt': 'caf\xe9 \u20ac\n',
    'nn.txt': 'no newline',
    'crlf.txt': 'a\r\nb\r\n',
    'latin.txt': Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
    'bin.dat': Uint8Array.from({ length: 300 }, (_, i) => (i * 131 + 7) & 0xff),
    empty: '',
    's.sh': '#!/bin/sh\necho hi\n',
    'b.sh': '#!/bin/bash\n',
    'p.py': '#!/usr/bin/env python3\nprint(1)\n',
    'n.js': '#!/usr/bin/env node\n',
    'j.json': '{"a": [1, 2]}\n',
    'arr.json': '[1, 2, {"x": null}]',
    'i.png': png,
    'i.jpg': jpg,
    'j2.jpg': jpg2,
    'g.gz': gzipSync(Buffer.from('x\n')),
    'long.txt': `${'x'.repeat(400)}\n`,
    'x.xml': '<?xml version="1.0"?>\n<a/>\n',
    'h.html': '<!DOCTYPE html>\n<html></html>\n',
    'gif.gif': 'GIF89a\x10\x00\x20\x00',
    'doc.pdf': '%PDF-1.7\n',
  },
  dirs: ['d'],
  symlinks: { lt: 't.txt', lb: 'nowhere' },
  modes: { 's.sh': 0o755, 'p.py': 0o755 },
};

oracleTable(fileCommand, [
  { argv: ['file', ...Object.keys(samples.files), 'd', 'lt', 'lb'], ...samples },
  { argv: ['file', '-b', 't.txt', 'u.txt'], ...samples },
  { argv: ['file', '-i', 't.txt', 'u.txt', 'bin.dat', 'd', 'empty', 'lt', 'latin.txt'], ...samples },
  { argv: ['file', '--mime-type', 'j.json', 'i.png', 'g.gz', 's.sh'], ...samples },
  { argv: ['file', '-L', 'lt', 'lb'], ...samples },
  { argv: ['file', 'nonexist'] },
  { argv: ['file', '-N', 't.txt', 'u.txt'], ...samples },
  { argv: ['file', '-F', ' =>', 't.txt'], ...samples },
  { argv: ['file'] },
]);

describe('file: what the real one says about binaries', () => {
  it('names an ELF file by class, byte order, type and machine', async () => {
    const r = await runText(fileCommand, ['file', 'a.so', 'b.o'], { files: { 'a.so': elf, 'b.o': elf32 } });
    expect(r.stdout).toBe(
      'a.so: ELF 64-bit LSB shared object, x86-64, version 1 (SYSV)\nb.o:  ELF 32-bit LSB relocatable, ARM, version 1 (SYSV)\n',
    );
  });
});

oracleTable(mkfifoCommand, [
  { argv: ['mkfifo'] },
  { argv: ['mkfifo', '-m', 'bogus', 'p'] },
  { argv: ['mkfifo', 'p'], known: 'the virtual filesystems have no named pipes' },
]);

const treeFiles = {
  files: {
    'a.txt': 'a',
    'b/c.txt': 'cc',
    'b/d/e.md': 'eee',
    'b/d/f.txt': '',
    '.hidden/x': '',
    'z.sh': '#!/bin/sh\n',
    'node_modules/m/index.js': '',
    'v/f10': '',
    'v/f9': '',
  },
  symlinks: { 'b/up': '..', 'b/to-a': '../a.txt', 'b/gone': 'nonexist' },
  modes: { 'z.sh': 0o755 },
  mtimes: { 'a.txt': 3000, 'z.sh': 1000, b: 2000, v: 500, node_modules: 4000 },
};

oracleTable(treeCommand, [
  { argv: ['tree'], ...treeFiles },
  { argv: ['tree', '-a'], ...treeFiles },
  { argv: ['tree', '-L', '1'], ...treeFiles },
  { argv: ['tree', '-d'], ...treeFiles },
  { argv: ['tree', '-F', '--noreport'], ...treeFiles },
  { argv: ['tree', '-f', '-I', '*.md', 'b'], ...treeFiles },
  { argv: ['tree', '-P', '*.txt', '--charset', 'ascii'], ...treeFiles },
  {
    argv: ['tree', '-s', 'b'],
    ...treeFiles,
    known: "a directory's size is the virtual filesystem's, not ext4's 4096",
  },
  {
    argv: ['tree', '-s', 'b/d'],
    ...treeFiles,
    known: "a directory's size is the virtual filesystem's, not ext4's 4096",
  },
  { argv: ['tree', '-r', '--dirsfirst'], ...treeFiles },
  { argv: ['tree', 'nope'], ...treeFiles },
  { argv: ['tree', '-L', '0'], ...treeFiles },
  { argv: ['tree', '-L', 'x'], ...treeFiles },
  { argv: ['tree', '--bogus'], ...treeFiles },
  { argv: ['tree', '-y'], ...treeFiles },
  { argv: ['tree', '-L'], ...treeFiles },
  { argv: ['tree', '--charset'], ...treeFiles },
  { argv: ['tree', '-L', '1', '-I', 'node_modules|*.sh'], ...treeFiles },
  { argv: ['tree', '-d', '-a', '--noreport', 'b'], ...treeFiles },
  { argv: ['tree', '-p', 'b', 'v'], ...treeFiles },
  { argv: ['tree', '-l', '-L', '2', 'b'], ...treeFiles },
  { argv: ['tree', '-F', 'b'], ...treeFiles },
  { argv: ['tree', '-v', 'v'], ...treeFiles },
  { argv: ['tree', '-t', '-L', '1'], ...treeFiles },
  { argv: ['tree', '-i', '-f', 'b'], ...treeFiles },
  {
    argv: ['tree', '-h', 'b/d'],
    ...treeFiles,
    known: "a directory's size is the virtual filesystem's, not ext4's 4096",
  },
  { argv: ['tree', 'a.txt'], ...treeFiles },
  { argv: ['tree', 'b', 'v'], ...treeFiles },
  { argv: ['tree', 'caf\xe9'], files: { 'caf\xe9/new\tline': '' } },
  { argv: ['tree', '--help'] },
]);

describe('tree over the virtual filesystem', () => {
  it('writes a name that is not UTF-8 with octal escapes, as tree 2.1 does', async () => {
    const r = await runText(treeCommand, ['tree', '--noreport'], { files: { 'a\udcffb': '' } });
    expect([r.status, r.stdout]).toEqual([0, '.\n└── a\\377b\n']);
  });
});
