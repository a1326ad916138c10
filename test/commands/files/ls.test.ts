import { describe, expect, it } from 'vitest';
import { dirCommand, lsCommand, vdirCommand } from '../../../src/commands/files/ls/ls.js';
import { oracleTable } from '../text/support/oracle-table.js';
import { runText } from '../text/support/run-text.js';

const now = Math.floor(Date.now() / 1000);
const recent = now - 86400;
const old = 1705312800; // 2024-01-15 10:00 UTC
const future = now + 86400 * 400;

/** A directory of plain files, links and one subdirectory, with fixed times. */
const tree = {
  files: {
    a: 'hello\n',
    'b.txt': 'x'.repeat(5000),
    'c.md': '',
    'sub/inner': 'in\n',
    'sub/deep/leaf': 'leaf',
    '.hidden': 'h',
    'z~': 'backup',
    '10.txt': '',
    '9.txt': '',
    ü: 'u',
  },
  symlinks: { la: 'a', lsub: 'sub', broken: 'nowhere' },
  modes: { 'b.txt': 0o755, 'c.md': 0o600 },
  mtimes: {
    a: recent,
    'b.txt': old,
    'c.md': future,
    '.hidden': recent,
    'z~': recent - 60,
    '10.txt': recent - 120,
    '9.txt': recent - 180,
    ü: recent - 240,
    'sub/inner': recent,
    'sub/deep/leaf': recent,
  },
};
const files = { ...tree, dirs: [] as string[] };
/** Symbolic links keep the time they were made (nanoseconds on the host), so time orders leave them out. */
const timed = { files: tree.files, mtimes: tree.mtimes, modes: tree.modes };
/** Without directories: `ls -l` of a directory shows the host filesystem's own size (4096). */
const flat = {
  files: { a: 'hello\n', 'b.txt': 'x'.repeat(5000), 'c.md': '', 'big.bin': 'y'.repeat(3_000_000) },
  symlinks: { la: 'a', broken: 'nowhere' },
  modes: { 'b.txt': 0o755, 'c.md': 0o600 },
  mtimes: { a: recent, 'b.txt': old, 'c.md': future, 'big.bin': recent - 3600 },
};

const plainFlat = { files: flat.files, modes: flat.modes, mtimes: flat.mtimes };

oracleTable(lsCommand, [
  { argv: ['ls'], ...files },
  { argv: ['ls', '-a'], ...files },
  { argv: ['ls', '-A'], ...files },
  { argv: ['ls', '-1'], ...files },
  { argv: ['ls', '-r'], ...files },
  { argv: ['ls', '-B'], ...files },
  { argv: ['ls', '-F'], ...files },
  { argv: ['ls', '-p'], ...files },
  { argv: ['ls', '--file-type'], ...files },
  { argv: ['ls', '-v'], ...files },
  { argv: ['ls', '-X'], ...files },
  { argv: ['ls', '-t', '-A'], ...timed },
  { argv: ['ls', '-tr'], ...timed },
  { argv: ['ls', '-S'], ...flat },
  { argv: ['ls', '-Sr'], ...flat },
  { argv: ['ls', '-C'], ...files },
  { argv: ['ls', '-C', '-w', '30'], ...files },
  { argv: ['ls', '-C'], ...files, env: { COLUMNS: '24' } },
  { argv: ['ls', '-x', '-w', '30'], ...files },
  { argv: ['ls', '-m'], ...files },
  { argv: ['ls', '-m', '-w', '20'], ...files },
  { argv: ['ls', '-CF', '-w', '40'], ...files },
  { argv: ['ls', '-s'], ...flat },
  { argv: ['ls', '-sh'], ...flat },
  { argv: ['ls', '-s', '--block-size=K'], ...flat },
  { argv: ['ls', '-C', '-s', '-w', '40'], ...flat },
  { argv: ['ls', '-l'], ...flat },
  { argv: ['ls', '-la', 'sub/deep'], ...files, known: 'a directory shows its virtual size, not ext4 4096' },
  { argv: ['ls', '-lh'], ...flat },
  { argv: ['ls', '-l', '--si'], ...flat },
  { argv: ['ls', '-lF'], ...flat },
  { argv: ['ls', '-ln'], ...flat },
  { argv: ['ls', '-lo'], ...flat },
  { argv: ['ls', '-lg'], ...flat },
  { argv: ['ls', '-lG'], ...flat },
  { argv: ['ls', '-ls'], ...flat },
  { argv: ['ls', '-lt'], ...plainFlat },
  { argv: ['ls', '-lS'], ...flat },
  { argv: ['ls', '-lr'], ...flat },
  { argv: ['ls', '-l', '--block-size=K'], ...flat },
  { argv: ['ls', '-l', '--block-size=M'], ...flat },
  { argv: ['ls', '--full-time'], ...plainFlat },
  { argv: ['ls', '-l', '--time-style=long-iso'], ...flat },
  { argv: ['ls', '-l', '--time-style=iso'], ...flat },
  { argv: ['ls', '-l', '--time-style=full-iso'], ...plainFlat },
  { argv: ['ls', '-l', '--time-style=+%Y/%m/%d'], ...flat },
  { argv: ['ls', '-l', '--time-style=+%Y\n%H:%M'], ...flat },
  { argv: ['ls', '-l', 'a', 'la', 'broken'], ...flat, env: { TZ: 'America/New_York' } },
  { argv: ['ls', '-lL'], ...flat },
  { argv: ['ls', '-L'], ...flat },
  { argv: ['ls', '-d', 'sub', 'a'], ...files },
  { argv: ['ls', 'sub'], ...files },
  { argv: ['ls', 'a', 'sub'], ...files },
  { argv: ['ls', 'sub', 'sub/deep'], ...files },
  { argv: ['ls', 'lsub'], ...files },
  { argv: ['ls', '-F', 'lsub'], ...files },
  { argv: ['ls', '-R'], ...files },
  { argv: ['ls', '-R', 'sub'], ...files },
  { argv: ['ls', '-RA', '-C'], ...files },
  { argv: ['ls', '-I', '*.txt'], ...files },
  { argv: ['ls', '--hide=*.txt'], ...files },
  { argv: ['ls', '-a', '--hide=*.txt'], ...files },
  { argv: ['ls', '-U', 'a'], ...files },
  { argv: ['ls', '-Q'], ...flat },
  { argv: ['ls', '-b'], files: { 'a b': '', 'tab\there': '', 'nl\nx': '', 'q"': '', 'bs\\': '' } },
  { argv: ['ls', '-Q'], files: { 'a b': '', 'tab\there': '', 'q"': '' } },
  { argv: ['ls', '-q'], files: { 'tab\there': '', 'nl\nx': '' } },
  { argv: ['ls'], files: { 'tab\there': '', 'nl\nx': '' } },
  { argv: ['ls', '--zero'], ...flat },
  { argv: ['ls', '--group-directories-first'], ...files },
  { argv: ['ls', 'missing'] },
  { argv: ['ls', 'a', 'missing', 'b.txt'], ...flat },
  { argv: ['ls', '-y'] },
  { argv: ['ls', '--sort=bogus'] },
  { argv: ['ls', '--format=long'], ...flat },
  { argv: ['ls', '--format=comma'], ...flat },
  { argv: ['ls', '--time-style=bogus'] },
  { argv: ['ls', '-l', '--time-style=bogus'] },
  { argv: ['ls', '--time=bogus'] },
  { argv: ['ls', '--format=x'] },
  { argv: ['ls', '--color=sometimes'] },
  { argv: ['ls', '-lu'], ...plainFlat },
  { argv: ['ls', '-lL', 'sub'], ...files, known: 'a directory shows its virtual size, not ext4 4096' },
  {
    argv: ['ls', '-lL', 'sub'],
    files: { 'sub/inner': 'x' },
    symlinks: { 'sub/l': 'inner', 'sub/d': 'gone' },
    mtimes: { 'sub/inner': recent },
  },
  {
    argv: ['ls', '-v', '-a'],
    files: {
      '9.txt': '',
      '10.txt': '',
      'a~': '',
      a: '',
      a01: '',
      a1: '',
      'a-1': '',
      'x.1.2': '',
      'x.1.10': '',
      '.b': '',
      'f.tar.gz': '',
      'f.tar': '',
    },
  },
  { argv: ['ls', '-w', 'x'] },
  { argv: ['ls', '--help'] },
  { argv: ['ls'] },
]);

oracleTable(dirCommand, [
  { argv: ['dir'], ...plainFlat },
  { argv: ['dir', '-a'], ...plainFlat },
  { argv: ['dir', 'caf\xe9 x'], files: { 'caf\xe9 x/a b': '', 'caf\xe9 x/c\td': '' } },
  { argv: ['dir', '--bogus'] },
]);

oracleTable(vdirCommand, [
  { argv: ['vdir'], ...plainFlat },
  { argv: ['vdir', '-h', 'b.txt', 'big.bin'], ...plainFlat },
  { argv: ['vdir', 'nonexist'] },
  { argv: ['vdir', '--bogus'] },
]);

describe('ls over the virtual filesystem', () => {
  it('lists names that are not valid UTF-8 byte for byte', async () => {
    const r = await runText(lsCommand, ['ls'], { files: { 'caf\udce9': 'x' } });
    expect(r.stdoutBytes).toEqual(Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  });

  it('ends quietly with 141 when its reader goes away', async () => {
    const { createMemoryFilesystem } = await import('../../../src/vfs/index.js');
    const { runStandalone } = await import('../../../src/commands/standalone.js');
    const { BrokenPipeError } = await import('../../../src/commands/command.js');
    const fs = createMemoryFilesystem();
    for (let i = 0; i < 5000; i += 1) await fs.writeFile(`/f${i}`, new Uint8Array());
    let writes = 0;
    const stdout = {
      write: async () => {
        writes += 1;
        throw new BrokenPipeError();
      },
      attachData: () => {},
      close: async () => {},
    };
    const status = await lsCommand.run({
      argv: ['ls', '/'],
      stdin: { read: async () => null, unread: () => {}, data: async () => undefined, close: () => {} },
      stdout,
      stderr: stdout,
      env: new Map(),
      cwd: '/',
      fs,
      signal: new AbortController().signal,
      dispatch: { run: async () => 127, classify: () => 'not-found' },
      cooperate: () => undefined,
    });
    expect(status).toBe(141);
    expect(writes).toBe(1);
    void runStandalone;
  });
});
