import { execFileSync } from 'node:child_process';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { gunzipCommand, gzipCommand, zcatCommand } from '../../../src/commands/archive/gzip.js';
import type { CommandSpec } from '../../../src/commands/command.js';
import { runStandalone } from '../../../src/commands/standalone.js';
import { ByteBudget, createMemoryFilesystem } from '../../../src/vfs/index.js';
import type { Outcome } from '../support/gnu-oracle.js';
import { oracleTable } from '../text/support/oracle-table.js';

const commands = new Map<string, CommandSpec>([
  ['gzip', gzipCommand],
  ['gunzip', gunzipCommand],
  ['zcat', zcatCommand],
]);

/** Real gzip's bytes for `data` (no name, no time: deterministic). */
const gnuGzip = (data: string | Uint8Array, level = '-6'): Uint8Array =>
  execFileSync('gzip', ['-c', '-n', level], { input: data });

/**
 * Compressed output may differ in its deflate bytes (zlib's, not GNU gzip's own deflate): compare
 * what it decompresses to and what its header says, and mask the sizes and digests of `.gz` files
 * in a tree (the case's follow-up commands decompress them).
 */
function normalize(o: Outcome): Outcome {
  const out = Buffer.from(o.stdout, 'latin1');
  let stdout = o.stdout;
  if (out.length >= 10 && out[0] === 0x1f && out[1] === 0x8b) {
    const flags = out[3] as number;
    const name = (flags & 8) !== 0 ? out.subarray(10, out.indexOf(0, 10)).toString('latin1') : '';
    const header = `[gzip flags=${flags} mtime=${out.readUInt32LE(4)} xfl=${out[8]} os=${out[9]} name=${name}]`;
    stdout = `${header}${gunzipSync(out).toString('latin1')}`;
  }
  const tree = o.tree?.replace(/^(\S+\.gz f \d+) \d+ [0-9a-f]+/gm, '$1 <packed>');
  return { ...o, stdout, ...(tree === undefined ? {} : { tree }) };
}

const hello = 'hello\n';
const lines = Array.from({ length: 2000 }, (_, i) => `line ${i} ${'x'.repeat(i % 37)}\n`).join('');
const binary = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256);
const packed = {
  'a.gz': gnuGzip(hello),
  'lines.gz': gnuGzip(lines, '-9'),
  'bin.gz': gnuGzip(binary, '-1'),
  'two.gz': Buffer.concat([gnuGzip('one\n'), gnuGzip('two\n')]),
  'garbage.gz': Buffer.concat([gnuGzip(hello), Buffer.from('junk')]),
  'cut.gz': gnuGzip(lines).subarray(0, 200),
  'short.gz': gnuGzip(hello).subarray(0, 20),
  'plain.gz': 'not gzip at all\n',
  'empty.gz': '',
  'crc.gz': (() => {
    const b = Buffer.from(gnuGzip(hello));
    b[b.length - 8] = (b[b.length - 8] as number) ^ 0xff;
    return b;
  })(),
  'method.gz': (() => {
    const b = Buffer.from(gnuGzip(hello));
    b[2] = 9;
    return b;
  })(),
};
const plain = { a: hello, lines, bin: binary, e: '' };
const times = { mtimes: { a: 981173106, lines: 981173106, bin: 981173106, e: 981173106 } };

oracleTable(
  gzipCommand,
  [
    { argv: ['gzip'], stdin: hello },
    { argv: ['gzip', '-c', 'a'], files: plain, ...times },
    { argv: ['gzip', '-c', '-n', 'a'], files: plain, ...times },
    { argv: ['gzip', '-c', '-9', 'lines'], files: plain, ...times },
    { argv: ['gzip', '-c', '-1', 'bin'], files: plain, ...times },
    { argv: ['gzip', '--best', '-c', 'e'], files: plain, ...times },
    {
      argv: ['gzip', 'a'],
      files: plain,
      ...times,
      captureTree: 'with-times',
      followUp: [['gzip', '-dc', 'a.gz']],
    },
    {
      argv: ['gzip', '-k', 'a', 'lines', 'bin'],
      files: plain,
      ...times,
      modes: { a: 0o600 },
      captureTree: 'with-times',
      followUp: [['gzip', '-dc', 'a.gz', 'lines.gz', 'bin.gz']],
    },
    {
      argv: ['gzip', '-S', '.z', 'a'],
      files: plain,
      ...times,
      captureTree: true,
      followUp: [['gzip', '-d', '-S', '.z', 'a.z']],
    },
    { argv: ['gzip', '-r', 'd'], files: { 'd/x': hello, 'd/e/y': lines }, captureTree: true },
    { argv: ['gzip', '-v', '-k', 'a'], files: plain, ...times },
    { argv: ['gzip', 'a'], files: { ...plain, 'a.gz': 'old' }, captureTree: true },
    {
      argv: ['gzip', '-f', 'a'],
      files: { ...plain, 'a.gz': 'old' },
      captureTree: true,
      followUp: [['gzip', '-dc', 'a.gz']],
    },
    { argv: ['gzip', 'a.gz'], files: packed, captureTree: true },
    { argv: ['gzip', 'missing', 'a'], files: plain, captureTree: true },
    { argv: ['gzip', 'd'], dirs: ['d'] },
    { argv: ['gzip', 'l'], files: plain, symlinks: { l: 'a' } },
    { argv: ['gzip', '-q', 'missing'] },
    { argv: ['gzip', '-Q'] },
    { argv: ['gzip', '--bogus'] },
    { argv: ['gzip', '--vers'], known: 'the version text names berth after gzip 1.12' },
    // Decompression.
    { argv: ['gzip', '-d'], stdin: packed['a.gz'] },
    { argv: ['gzip', '-dc', 'a.gz', 'lines.gz', 'bin.gz', 'two.gz'], files: packed },
    { argv: ['gzip', '-d', 'a.gz'], files: packed, mtimes: { 'a.gz': 981173106 }, captureTree: 'with-times' },
    { argv: ['gzip', '-d', 'a'], files: packed, captureTree: true },
    { argv: ['gzip', '-dk', 'lines.gz'], files: packed, captureTree: true },
    { argv: ['gzip', '-d', 'plain'], files: { plain: 'x' } },
    { argv: ['gzip', '-dc', 'garbage.gz'], files: packed },
    { argv: ['gzip', '-dc', 'cut.gz'], files: packed },
    { argv: ['gzip', '-dc', 'short.gz'], files: packed },
    { argv: ['gzip', '-dc', 'plain.gz'], files: packed },
    { argv: ['gzip', '-dc', 'empty.gz'], files: packed },
    { argv: ['gzip', '-dc', 'crc.gz'], files: packed },
    { argv: ['gzip', '-dc', 'method.gz'], files: packed },
    { argv: ['gzip', '-d', 'plain.gz', 'a.gz'], files: packed, captureTree: true },
    { argv: ['gzip', '-dcf', 'plain.gz'], files: packed },
    { argv: ['gzip', '-d'], stdin: 'not gzip' },
    { argv: ['gzip', '-t', 'a.gz', 'two.gz'], files: packed },
    { argv: ['gzip', '-tv', 'a.gz'], files: packed },
    { argv: ['gzip', '-t', 'cut.gz'], files: packed },
    { argv: ['gzip', '-l', 'a.gz'], files: packed },
    { argv: ['gzip', '-l', 'a.gz', 'lines.gz', 'bin.gz'], files: packed },
    { argv: ['gzip', '-l'], stdin: packed['lines.gz'] },
    { argv: ['gzip', '-l', 'plain.gz'], files: packed },
  ],
  commands,
  normalize,
);

oracleTable(
  gunzipCommand,
  [
    { argv: ['gunzip', 'a.gz'], files: packed, captureTree: true },
    { argv: ['gunzip', '-c', 'lines.gz'], files: packed },
    { argv: ['gunzip'], stdin: packed['two.gz'] },
    { argv: ['gunzip', 'x.tgz'], files: { 'x.tgz': packed['a.gz'] }, captureTree: true },
    { argv: ['gunzip', 'zz'], files: { zz: 'x' } },
    { argv: ['gunzip', 'cut.gz'], files: packed, captureTree: true },
    { argv: ['gunzip', '-Q'] },
  ],
  commands,
  normalize,
);

oracleTable(
  zcatCommand,
  [
    { argv: ['zcat', 'a.gz', 'two.gz'], files: packed },
    { argv: ['zcat'], stdin: packed['bin.gz'] },
    { argv: ['zcat', '-f', 'plain.gz'], files: packed },
    { argv: ['zcat', 'missing.gz'] },
    { argv: ['zcat', 'plain.gz'], files: packed },
    { argv: ['zcat', '--bogus'] },
  ],
  commands,
  normalize,
);

describe('gzip bounds', () => {
  test('a decompression bomb written to a file stops at the byte budget, with ENOSPC and no partial output', async () => {
    // 64 MiB of zeros packs into about 64 KiB; the filesystem may hold 1 MiB.
    const bomb = gzipSync(new Uint8Array(64 * 1024 * 1024), { level: 9 });
    const budget = new ByteBudget({ maxBytes: 1024 * 1024 });
    const fs = createMemoryFilesystem({ budget });
    await fs.writeFile('/bomb.gz', bomb);
    const r = await runStandalone(gzipCommand.run, { argv: ['gzip', '-d', 'bomb.gz'], fs, cwd: '/' });
    expect(r.status).toBe(1);
    expect(Buffer.from(r.stderr).toString()).toBe('gzip: bomb: No space left on device\n');
    await expect(fs.stat('/bomb')).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await fs.stat('/bomb.gz')).size).toBe(bomb.length);
    expect(budget.usage().bytes).toBeLessThan(1024 * 1024);
  });

  test('a decompression bomb to a reader that stops reading holds memory to a pipe, not the content', async () => {
    const bomb = gzipSync(new Uint8Array(256 * 1024 * 1024), { level: 9 });
    const fs = createMemoryFilesystem();
    await fs.writeFile('/bomb.gz', bomb);
    const before = process.memoryUsage().rss;
    // The collecting writer's cap stands in for a reader that went away after 1 MiB.
    const r = await runStandalone(zcatCommand.run, {
      argv: ['zcat', 'bomb.gz'],
      fs,
      cwd: '/',
      maxOutputBytes: 1024 * 1024,
    });
    expect(r.status).toBe(141);
    expect(r.stdout.length).toBeLessThanOrEqual(1024 * 1024);
    expect(process.memoryUsage().rss - before).toBeLessThan(128 * 1024 * 1024);
  });
});
