import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { encodeGnuHeader, tarDataPadding, tarEnd } from '../../../src/archive/tar-codec.js';
import { gunzipCommand, gzipCommand } from '../../../src/commands/archive/gzip.js';
import { tarCommand } from '../../../src/commands/archive/tar.js';
import type { CommandSpec } from '../../../src/commands/command.js';
import { runStandalone } from '../../../src/commands/standalone.js';
import { ByteBudget, createMemoryFilesystem } from '../../../src/vfs/index.js';
import type { Outcome } from '../support/gnu-oracle.js';
import { oracleTable } from '../text/support/oracle-table.js';

const commands = new Map<string, CommandSpec>([
  ['tar', tarCommand],
  ['gzip', gzipCommand],
  ['gunzip', gunzipCommand],
]);

const T = 981173106;

/** Archives made by the real GNU tar, so that extraction and listing read GNU's own bytes. */
function gnuArchives(): Record<string, Uint8Array> {
  const dir = mkdtempSync(join(tmpdir(), 'berth-tar-fixture-'));
  try {
    mkdirSync(join(dir, 'd/sub'), { recursive: true });
    writeFileSync(join(dir, 'd/f.txt'), 'text\n');
    writeFileSync(join(dir, 'd/sub/g'), 'deeper\n'.repeat(300));
    writeFileSync(join(dir, `d/${'long-name-'.repeat(12)}`), 'long\n');
    symlinkSync('f.txt', join(dir, 'd/link'));
    for (const p of ['d/f.txt', 'd/sub/g', `d/${'long-name-'.repeat(12)}`, 'd/sub', 'd'])
      utimesSync(join(dir, p), T, T);
    const tar = (...args: string[]): Uint8Array => execFileSync('tar', args, { cwd: dir });
    return {
      'fx.tar': tar('cf', '-', '--sort=name', 'd'),
      'fx.tgz': gzipSync(tar('cf', '-', '--sort=name', 'd')),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const enc = (s: string): Uint8Array => Buffer.from(s, 'latin1');
const owner = { uid: 0, gid: 0, uname: 'root', gname: 'root', mode: 0o644, mtimeMs: T * 1000 };

/** An archive from members, each a file with data or a link. */
function archive(
  members: readonly { name: string; data?: string; symlink?: string; hardlink?: string }[],
): Uint8Array {
  const parts: Uint8Array[] = [];
  let size = 0;
  for (const m of members) {
    const data = enc(m.data ?? '');
    const type = m.symlink !== undefined ? 'symlink' : m.hardlink !== undefined ? 'hardlink' : 'file';
    const head = encodeGnuHeader({
      name: m.name,
      type,
      size: data.length,
      linkName: m.symlink ?? m.hardlink,
      ...owner,
      mode: type === 'symlink' ? 0o777 : 0o644,
    });
    const pieces = type === 'file' ? [head, data, tarDataPadding(data.length)] : [head];
    for (const p of pieces) {
      parts.push(p);
      size += p.length;
    }
  }
  parts.push(tarEnd(size));
  return Buffer.concat(parts);
}

const fixtures = gnuArchives();
const hostile = {
  'evil.tar': archive([
    { name: '../escape', data: 'out\n' },
    { name: '/abs', data: 'abs\n' },
    { name: 'up', symlink: '../..' },
    { name: 'up/through', data: 'through\n' },
    { name: 'root', symlink: '/' },
    { name: 'ok', data: 'fine\n' },
    { name: 'hard', hardlink: 'ok' },
  ]),
  'cut.tar': archive([{ name: 'big', data: 'x'.repeat(5000) }]).subarray(0, 2048),
  'junk.tar': 'this is not an archive at all'.repeat(40),
};
const tree = {
  files: { 'd/a': 'alpha\n', 'd/b/c': 'gamma\n'.repeat(100), 'd/e': '', top: 'top\n' },
  symlinks: { 'd/ln': 'a' },
  mtimes: { 'd/a': T, 'd/b/c': T, 'd/e': T, 'd/b': T, 'd/ln': T, d: T, top: T },
};

/** A gzip'd archive's bytes differ (zlib's deflate): compare what it holds. */
function normalize(o: Outcome): Outcome {
  const out = Buffer.from(o.stdout, 'latin1');
  const stdout =
    out.length > 2 && out[0] === 0x1f && out[1] === 0x8b
      ? `[gzip]${gunzipSync(out).toString('latin1')}`
      : o.stdout;
  const t = o.tree?.replace(/^(\S+\.tgz f \d+) \d+ [0-9a-f]+/gm, '$1 <packed>');
  return { ...o, stdout, ...(t === undefined ? {} : { tree: t }) };
}

oracleTable(
  tarCommand,
  [
    // Create: the archive's bytes are GNU's (the gnu format, 10 KiB records).
    {
      argv: ['tar', 'cf', 'a.tar', '--sort=name', 'd', 'top'],
      ...tree,
      captureTree: true,
      followUp: [['tar', 'tvf', 'a.tar']],
    },
    { argv: ['tar', '-cf', '-', '--sort=name', 'd'], ...tree },
    { argv: ['tar', '-cvf', '-', '--sort=name', 'd'], ...tree },
    { argv: ['tar', 'cvvf', 'a.tar', '--sort=name', 'd'], ...tree },
    {
      argv: ['tar', 'czf', 'a.tgz', '--sort=name', 'd'],
      ...tree,
      captureTree: true,
      followUp: [
        ['tar', 'tvzf', 'a.tgz'],
        ['tar', 'xOf', 'a.tgz', 'd/a'],
      ],
    },
    { argv: ['tar', '-C', 'd', '-cf', '-', '--sort=name', '.'], ...tree },
    { argv: ['tar', 'cf', '-', '--sort=name', '--exclude=*.c', '--exclude=b', 'd'], ...tree },
    { argv: ['tar', 'chf', '-', 'd/ln'], ...tree },
    { argv: ['tar', 'cf', '-', '--no-recursion', 'd'], ...tree },
    { argv: ['tar', 'cf', 'a.tar', 'missing', 'top'], ...tree, followUp: [['tar', 'tf', 'a.tar']] },
    { argv: ['tar', 'cf', '-', '/work/nothing'] },
    {
      // (the tree is not compared: the archive holds `./`, whose time is when the archive was made)
      argv: ['tar', 'cf', 'out.tar', '--sort=name', '.'],
      ...tree,
      followUp: [['tar', 'tf', 'out.tar']],
    },
    { argv: ['tar', 'xf', 'fx.tar'], files: { ...fixtures, d: 'a file in the way' }, captureTree: true },
    { argv: ['tar', 'tf', 'fx.tar', '-v', '--exclude=d/sub'], files: fixtures },
    { argv: ['tar', 'cf', 'e.tar'] },
    {
      argv: ['tar', 'cf', '-', 'd'],
      files: { 'd/x': 'x\n' },
      dirs: [],
      mtimes: { 'd/x': T, d: T },
      modes: { 'd/x': 0o4755 },
    },
    // List.
    { argv: ['tar', 'tf', 'fx.tar'], files: fixtures },
    { argv: ['tar', 'tvf', 'fx.tar'], files: fixtures },
    { argv: ['tar', '-tvf', 'fx.tar', '--numeric-owner'], files: fixtures },
    { argv: ['tar', 'tf', 'fx.tar', 'd/sub'], files: fixtures },
    { argv: ['tar', 'tf', 'fx.tar', 'nope', 'd/f.txt'], files: fixtures },
    { argv: ['tar', 'tf', 'fx.tar', '--wildcards', '*.txt'], files: fixtures },
    { argv: ['tar', 'tzf', 'fx.tgz'], files: fixtures },
    { argv: ['tar', 'tf', 'fx.tgz'], files: fixtures },
    { argv: ['tar', 'tf', '-'], stdin: fixtures['fx.tgz'] },
    { argv: ['tar', 'tzf', '-'], stdin: fixtures['fx.tgz'] },
    { argv: ['tar', 't'], stdin: fixtures['fx.tar'] },
    { argv: ['tar', 'tf', 'junk.tar'], files: hostile },
    { argv: ['tar', 'tf', 'cut.tar'], files: hostile },
    { argv: ['tar', 'tf', 'missing.tar'] },
    { argv: ['tar', 'tf', 'd'], dirs: ['d'] },
    // Extract.
    { argv: ['tar', 'xf', 'fx.tar'], files: fixtures, captureTree: 'with-times' },
    {
      argv: ['tar', 'xvf', 'fx.tar', '-C', 'out'],
      files: fixtures,
      dirs: ['out'],
      captureTree: 'with-times',
    },
    { argv: ['tar', 'xzf', 'fx.tgz', '--strip-components=1'], files: fixtures, captureTree: true },
    { argv: ['tar', 'xf', 'fx.tgz', '--strip-components', '2'], files: fixtures, captureTree: true },
    {
      argv: ['tar', 'xf', 'fx.tar', '--exclude=*.txt', '--exclude', 'sub'],
      files: fixtures,
      captureTree: true,
    },
    { argv: ['tar', 'xf', 'fx.tar', 'd/sub'], files: fixtures, captureTree: true },
    { argv: ['tar', 'xOf', 'fx.tar', 'd/f.txt', 'd/sub/g'], files: fixtures },
    { argv: ['tar', '-x', '-m', '-f', 'fx.tar'], files: fixtures, captureTree: true },
    { argv: ['tar', 'xf', '-'], stdin: fixtures['fx.tar'], captureTree: true },
    {
      argv: ['tar', 'xkf', 'fx.tar', 'd/f.txt'],
      files: { ...fixtures, 'd/f.txt': 'mine\n' },
      captureTree: true,
    },
    {
      argv: ['tar', 'xf', 'fx.tar', '--skip-old-files', 'd/f.txt'],
      files: { ...fixtures, 'd/f.txt': 'mine\n' },
      captureTree: true,
    },
    {
      argv: ['tar', 'xf', 'fx.tar', 'd/f.txt'],
      files: { ...fixtures, 'd/f.txt': 'mine\n' },
      captureTree: true,
    },
    { argv: ['tar', 'xf', 'fx.tar', '-C', 'missing'], files: fixtures },
    // -C is positional: each applies to the names after it, relative to the one before it.
    {
      argv: ['tar', 'cf', 'a.tar', 'top', '-C', 'd', 'a', 'b', '-C', '../other', 'o'],
      ...tree,
      files: { ...tree.files, 'other/o': 'o\n' },
      mtimes: { ...tree.mtimes, 'other/o': T },
      followUp: [['tar', 'tvf', 'a.tar']],
    },
    { argv: ['tar', '-C', 'd', '-cf', '-', 'a', '-C', 'b', 'c'], ...tree },
    { argv: ['tar', '-cf', '-', '-C', 'd', 'a', '--directory=./b', 'c', '-C..', 'top'], ...tree },
    {
      argv: ['tar', 'cf', 'a.tar', '-C', 'd', 'a', '-T', 'list'],
      ...tree,
      files: { ...tree.files, list: 'e\n' },
      followUp: [['tar', 'tf', 'a.tar']],
    },
    { argv: ['tar', 'cf', 'a.tar', 'top', '-C', 'd'], ...tree, followUp: [['tar', 'tf', 'a.tar']] },
    {
      argv: ['tar', 'cf', 'a.tar', 'top', '-C', 'd', '-C', 'b'],
      ...tree,
      followUp: [['tar', 'tf', 'a.tar']],
    },
    { argv: ['tar', 'cf', 'a.tar', 'a', '-C', 'd'], ...tree },
    { argv: ['tar', 'cf', 'a.tar', 'top', '-C', 'missing', 'a', '-C', 'd', 'a'], ...tree },
    { argv: ['tar', 'cf', 'a.tar', '-C', 'top', 'a'], ...tree },
    {
      argv: ['tar', 'xf', 'fx.tar', '-C', 'o1', 'd/f.txt', '-C', '../o2', 'd/sub'],
      files: fixtures,
      dirs: ['o1', 'o2'],
      captureTree: 'with-times',
    },
    {
      argv: ['tar', 'xf', 'fx.tar', '-C', 'o1', '-C', '../o2'],
      files: fixtures,
      dirs: ['o1', 'o2'],
      captureTree: true,
    },
    {
      argv: ['tar', 'xvf', 'fx.tar', '-C', 'o1', 'd/f.txt', '-C', '../o2'],
      files: fixtures,
      dirs: ['o1', 'o2'],
      captureTree: true,
    },
    {
      argv: ['tar', 'xf', 'fx.tar', 'd/f.txt', '-C', 'o1', 'd/link', '-C', 'missing', 'd/sub'],
      files: fixtures,
      dirs: ['o1'],
      captureTree: true,
    },
    {
      argv: ['tar', 'xOf', 'fx.tar', '-C', 'o1', 'd/f.txt', '-C', '../o2', 'd/sub/g'],
      files: fixtures,
      dirs: ['o1', 'o2'],
    },
    {
      argv: ['tar', 'tf', 'fx.tar', '-C', 'o1', 'd/f.txt', '-C', 'o2', 'd/sub'],
      files: fixtures,
      dirs: ['o1', 'o2'],
    },
    { argv: ['tar', 'tf', 'fx.tar', '-C', 'missing'], files: fixtures },
    { argv: ['tar', 'xf', 'evil.tar'], files: hostile, captureTree: true },
    { argv: ['tar', 'xf', 'cut.tar'], files: hostile, captureTree: true },
    // Usage errors.
    { argv: ['tar'] },
    { argv: ['tar', 'xf'] },
    { argv: ['tar', '--bogus'] },
    { argv: ['tar', '-Q'] },
    { argv: ['tar', '-cx'] },
    { argv: ['tar', 'xf', 'fx.tar', '--strip-components=x'], files: fixtures },
  ],
  commands,
  normalize,
);

describe('tar bounds', () => {
  test('a tar bomb stops at the byte budget with a typed ENOSPC message and status 2', async () => {
    // One 8 MiB member, gzip'd to a few KiB; the filesystem may hold 1 MiB.
    const bomb = gzipSync(
      archive([
        { name: 'zeros', data: '\0'.repeat(8 * 1024 * 1024) },
        { name: 'after', data: 'x' },
      ]),
    );
    const budget = new ByteBudget({ maxBytes: 1024 * 1024 });
    const fs = createMemoryFilesystem({ budget });
    await fs.writeFile('/bomb.tgz', bomb);
    const r = await runStandalone(tarCommand.run, { argv: ['tar', 'xzf', 'bomb.tgz'], fs, cwd: '/' });
    expect(Buffer.from(r.stderr).toString()).toBe(
      'tar: zeros: Cannot write: No space left on device\ntar: Exiting with failure status due to previous errors\n',
    );
    expect(r.status).toBe(2);
    expect(budget.usage().bytes).toBeLessThanOrEqual(1024 * 1024);
    // The member after the bomb is still extracted.
    expect(Buffer.from(await fs.readFile('/after')).toString()).toBe('x');
  });

  test('a user other than root gets modes masked by the umask unless -p', async () => {
    const fs = createMemoryFilesystem();
    const bytes = Buffer.concat([
      encodeGnuHeader({ name: 'run.sh', type: 'file', size: 0, ...owner, mode: 0o4777 }),
      tarEnd(512),
    ]);
    await fs.writeFile('/a.tar', bytes);
    const context = { identity: { uid: 1000, gid: 1000, user: 'agent' } };
    await fs.mkdir('/plain');
    await fs.mkdir('/kept');
    expect(
      (await runStandalone(tarCommand.run, { argv: ['tar', 'xf', '/a.tar'], fs, cwd: '/plain', context }))
        .status,
    ).toBe(0);
    expect(
      (await runStandalone(tarCommand.run, { argv: ['tar', 'xpf', '/a.tar'], fs, cwd: '/kept', context }))
        .status,
    ).toBe(0);
    expect((await fs.stat('/plain/run.sh')).mode).toBe(0o755);
    expect((await fs.stat('/kept/run.sh')).mode).toBe(0o4777);
  });

  test('hostile members stay inside the target directory', async () => {
    const fs = createMemoryFilesystem();
    await fs.mkdir('/jail/inner', { recursive: true });
    await fs.writeFile('/jail/evil.tar', hostile['evil.tar']);
    const r = await runStandalone(tarCommand.run, {
      argv: ['tar', 'xf', '../evil.tar'],
      fs,
      cwd: '/jail/inner',
    });
    expect(r.status).toBe(2);
    const names = (await fs.readdir('/jail')).map((e) => e.name).sort();
    expect(names).toEqual(['evil.tar', 'inner']);
    expect((await fs.readdir('/')).map((e) => e.name)).toEqual(['jail']);
    // The link placed last and nothing was written through it.
    expect(await fs.readlink('/jail/inner/up')).toBe('../..');
    await expect(fs.stat('/through')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test('a GNU tar reads what berth writes', async () => {
    const fs = createMemoryFilesystem();
    await fs.mkdir('/w/d', { recursive: true });
    await fs.writeFile('/w/d/a', enc('alpha\n'));
    await fs.writeFile(`/w/d/${'n'.repeat(150)}`, enc('long\n'));
    await fs.symlink('a', '/w/d/ln');
    await fs.link('/w/d/a', '/w/d/hard');
    const r = await runStandalone(tarCommand.run, { argv: ['tar', 'czf', '-', 'd'], fs, cwd: '/w' });
    expect(r.status).toBe(0);
    const listing = execFileSync('tar', ['tvzf', '-'], {
      input: r.stdout,
      env: { TZ: 'UTC', LC_ALL: 'C.UTF-8' },
    }).toString();
    expect(listing).toMatch(/^hrw-r--r-- root\/root +0 .* d\/hard link to d\/a$/m);
    expect(listing).toMatch(/^lrwxrwxrwx root\/root +0 .* d\/ln -> a$/m);
    expect(listing).toContain(`d/${'n'.repeat(150)}\n`);
    const dir = mkdtempSync(join(tmpdir(), 'berth-tar-read-'));
    try {
      execFileSync('tar', ['xzf', '-', '-C', dir], { input: r.stdout });
      expect(readFileSync(join(dir, 'd/hard'), 'utf8')).toBe('alpha\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
