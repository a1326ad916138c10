import { describe, expect, test } from 'vitest';
import { makeComparator, makeRecord } from '../../../src/commands/text/sort/comparator.js';
import { sortRecords } from '../../../src/commands/text/sort/fast-sort.js';
import { parseKey } from '../../../src/commands/text/sort/keys.js';
import { sortCommand } from '../../../src/commands/text/sort/sort.js';
import { oracleTable } from './support/oracle-table.js';
import { binary, invalidUtf8, runText } from './support/run-text.js';

const words =
  'banana\nApple\ncherry\napple\n_under\n\nZebra\nbanana\n  spaced\n\tTabbed\népée\nÉcole\n10\n9\n';
const nums =
  '10\n9\n-1\n-0\n0\n1e3\n 5\n+3\nabc\n1,000\n0.5\n.5\n-.5\n007\n3.14159265358979323846\n3.14159265358979323845\n';
const table = 'b 2 x\na 10 y\nc 2 a\na 1 z\nb 10 b\n';
const csv = 'ann,31,oslo\nbob,7,rome\ncid,31,athens\ndee,100,bern\n';
const files = {
  words,
  nums,
  table,
  csv,
  sorted1: 'a\nc\ne\n',
  sorted2: 'b\nd\nf\n',
  unsorted: 'a\nc\nb\n',
  dup: 'a\na\nb\n',
};

const s = (args: string[], stdin?: string | Uint8Array) => ({ argv: ['sort', ...args], stdin, files });

oracleTable(
  sortCommand,
  [
    s(['words']),
    s(['-r', 'words']),
    s(['-f', 'words']),
    s(['-fu', 'words']),
    s(['-u', 'words']),
    s(['-b', 'words']),
    s(['-d', 'words']),
    s(['-i'], 'a\x01b\nab\n\x7fz\nb\n'),
    s(['-n', 'nums']),
    s(['-nr', 'nums']),
    s(['-nu', 'nums']),
    s(['-ns', 'nums']),
    s(['-g'], 'nan\ninf\n-inf\n1e3\n0x10\nabc\n-nan\n3\n2.5e-1\n+7\n'),
    s(['-h'], '1K\n2M\n1G\n500\n1k\n-1M\n0K\n1.5K\n1T\n1Q\n'),
    s(['-M'], 'feb\nJAN\n  mar\nxyz\nDecember\nnov\nMAYBE\n'),
    s(
      ['-V'],
      'a1\na10\na2\n.a\n..\n.\nfoo.tar.gz\nfoo-1.2.tar.gz\nfoo-1.10.tar.gz\n1.0~rc1\n1.0\nv1.2.3\nv1.2.10\n',
    ),
    s(['--sort=version'], 'x-2\nx-10\nx-1\n'),
    s(['--sort=numeric', 'nums']),
    s(['-k2', 'table']),
    s(['-k2n', 'table']),
    s(['-k2,2n', 'table']),
    s(['-k2,2n', '-k1,1r', 'table']),
    s(['-k2,2nr', '-k3', 'table']),
    s(['-k3.1,3.1', 'table']),
    s(['-k1.2', 'words']),
    s(['-t,', '-k2,2n', 'csv']),
    s(['-t', ',', '-k3', 'csv']),
    s(['-t,', '-k2n', '-k1r', 'csv']),
    s(['-t,', '-k2,2n', '-s', 'csv']),
    s(['-t,', '-k2,2n', '-u', 'csv']),
    s(['-r', '-k2,2n', 'table']),
    s(['-n', '-k2,2', 'table']),
    s(['-k', '2b,2', 'table']),
    s(['-k1.2b,1.3', 'words']),
    s(['-k2.2,2.1', 'table']),
    s(['-z'], 'b\0a\0c'),
    s(['-z', '-r'], 'x\ny\0a\nb\0'),
    s(['-m', 'sorted1', 'sorted2']),
    s(['-m', 'unsorted', 'sorted2']),
    s(['-mu', 'dup', 'sorted1']),
    s(['sorted2', 'sorted1', '-']),
    s(['-c', 'unsorted']),
    s(['-c'], 'a\nb\nb\n'),
    s(['-cu', 'dup']),
    s(['-C', 'unsorted']),
    s(['--check=quiet', 'unsorted']),
    s(['-c', 'sorted1']),
    s(['-o', 'out', 'words']),
    s(['-o', 'words', 'words']),
    s(['-R', '--random-source=zero', 'words'], undefined),
    s(['-S', '1M', '--parallel=2', '-T', '/tmp', 'words']),
    s(['-s', '-k1,1', 'table']),
    s([], ''),
    s([], 'no newline\nat end'),
    s([], binary()),
    s([], invalidUtf8()),
    s(['-n'], `${'9'.repeat(300_000)}\n1\n`),
    s(['missing']),
    s(['words', 'missing']),
    s(['sub'], undefined),
    s(['-k', '0']),
    s(['-k', '1.0']),
    s(['-k', 'x']),
    s(['-k', '1,0']),
    s(['-k', '1a']),
    s(['-k', '1,x']),
    s(['-k', '2.']),
    s(['-t', 'ab']),
    s(['-t', '']),
    s(['-t', 'a', '-t', 'b']),
    s(['-S', 'x']),
    s(['-S', '10z']),
    s(['--buffer-size=10KB']),
    s(['--parallel=0']),
    s(['--parallel=x']),
    s(['--batch-size=1']),
    s(['-cC']),
    s(['-nM']),
    s(['-ng']),
    s(['-k1nV']),
    s(['-dn']),
    s(['-c', 'a', 'b']),
    s(['-co', 'x', 'unsorted']),
    s(['-o', 'a', '-o', 'b']),
    s(['--check=x']),
    s(['--sort=x']),
    s(['-x']),
    s(['-o']),
    s(['--help']),
  ].map((c) =>
    c.argv.includes('sub')
      ? { ...c, files: { ...files, 'sub/x': 'x' } }
      : c.argv.includes('--random-source=zero')
        ? { ...c, files: { ...files, zero: new Uint8Array(16) } }
        : c,
  ),
);

describe('sort beyond memory', () => {
  test('spills sorted runs to temporary files and merges them, removing them after', async () => {
    const lines = Array.from({ length: 40_000 }, (_, i) => String((i * 7919) % 40_000).padStart(6, '0'));
    const r = await runText(sortCommand, ['sort', '-S', '100K', '-T', '/work/tmp'], {
      stdin: `${lines.join('\n')}\n`,
      files: { 'tmp/.keep': '' },
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${[...lines].sort().join('\n')}\n`);
    expect((await r.fs.readdir('/work/tmp')).map((e) => e.name)).toEqual(['.keep']);
  });

  test('fails clearly when a run cannot be written', async () => {
    const r = await runText(sortCommand, ['sort', '-S', '64K', '-T', '/nonexistent'], {
      stdin: `${'x'.repeat(100)}\n`.repeat(2000),
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      "sort: cannot create temporary file in '/nonexistent': No such file or directory\n",
    );
  });

  test('a large sort yields to the host between slices and still sorts exactly', async () => {
    const lines = Array.from({ length: 300_000 }, (_, i) => String((i * 7919) % 300_000));
    for (const ordering of [
      { keys: [], tab: -1, lastResort: true, reverse: false, randomSalt: undefined },
      { keys: [{ ...parseKey('1n') }], tab: -1, lastResort: true, reverse: false, randomSalt: undefined },
    ]) {
      const records = lines.map((l) => makeRecord(l, ordering));
      let yields = 0;
      await sortRecords(records, ordering, makeComparator(ordering), () => {
        yields += 1;
        return undefined;
      });
      expect(yields).toBeGreaterThanOrEqual(4);
      const expected =
        ordering.keys.length === 0 ? [...lines].sort() : [...lines].sort((x, y) => Number(x) - Number(y));
      expect(records.map((r) => r.line)).toEqual(expected);
    }
  });

  test('--random-seed gives the same order every time, equal keys together', async () => {
    const input = 'a\nb\nc\na\nd\ne\nb\n';
    const one = await runText(sortCommand, ['sort', '-R', '--random-seed=42'], { stdin: input });
    const two = await runText(sortCommand, ['sort', '-R', '--random-seed=42'], { stdin: input });
    expect(one.stdout).toBe(two.stdout);
    expect(one.stdout.split('\n').sort().join('\n')).toBe(input.split('\n').sort().join('\n'));
    expect(one.stdout).toMatch(/(a\na|b\nb)/);
  });
});

// More than one 64Ki slice: the sliced sort and its merges must give GNU's order exactly.
const many = Array.from(
  { length: 150_000 },
  (_, i) => `k${(i * 7919) % 1000} ${(i * 104729) % 99991} r${i % 17}`,
).join('\n');
oracleTable(sortCommand, [
  { argv: ['sort'], stdin: many },
  { argv: ['sort', '-r'], stdin: many },
  { argv: ['sort', '-k1,1', '-s'], stdin: many },
  { argv: ['sort', '-k2,2n'], stdin: many },
  { argv: ['sort', '-k2,2nr', '-k3'], stdin: many },
  { argv: ['sort', '-t', ' ', '-k3,3', '-k1,1r', '-u'], stdin: many },
]);
