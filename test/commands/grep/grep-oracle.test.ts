/**
 * grep against GNU grep 3.8: every flag the command offers, bad flags, missing files, binary and
 * invalid UTF-8 input, empty input; stdout, stderr and status compared byte for byte.
 */
import { describe, expect, it } from 'vitest';
import { grepCommands } from '../../../src/commands/grep/index.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';
import { type OracleCase, runGnu, runVirtual } from '../support/gnu-oracle.js';

const handler = (name: string) => {
  const spec = grepCommands.find((c) => c.name === name);
  if (spec === undefined) throw new Error(name);
  return spec.run;
};

const TEXT = [
  'alpha one',
  'Beta two',
  'gamma three',
  'delta four alpha',
  '',
  'foo bar baz',
  'foobar',
  'bar_foo',
  'x=1 y=22 z=333',
  'été CAFÉ naïve',
  'the end',
].join('\n');

const FILES = {
  'a.txt': `${TEXT}\n`,
  'b.log': 'alpha\nnothing here\nALPHA\n',
  'noeol.txt': 'first\nlast alpha',
  'empty.txt': '',
  'bin.dat': new Uint8Array([0x61, 0x6c, 0x70, 0x68, 0x61, 0x0a, 0x00, 0x01, 0x0a, 0x61, 0x0a]),
  'latin1.txt': new Uint8Array([
    0x61, 0x6c, 0x70, 0x68, 0x61, 0x0a, 0x63, 0x61, 0x66, 0xe9, 0x20, 0x61, 0x0a, 0x61, 0x0a,
  ]),
  'pats.txt': 'alpha\nfoo\n',
  // Lines where a pattern's fixed prefix occurs before (and again at) the real match.
  'prefix.txt': 'abcx abc1\nabab ababab7 end\nabc\nno match abc here\nxabc22\nabcabc\n',
  // A byte order mark is an ordinary character to grep: printed with its line.
  'bom.txt': new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x6c, 0x70, 0x68, 0x61, 0x0a, 0x62, 0x0a]),
  'dir/sub/deep.txt': 'alpha deep\n',
  'dir/top.txt': 'top alpha\n',
};

type Case = OracleCase & { readonly name?: string; readonly sortLines?: boolean };

const c = (argv: string[], extra: Partial<Case> = {}): Case => ({ argv, files: FILES, ...extra });

const CASES: Case[] = [
  // -b (byte offsets: of the line, of the match with -o, after UTF-8 text) and -T (GNU's field
  // width from the file's size, a tab before non-empty text only when a prefix is printed)
  c(['grep', '-b', 'alpha', 'a.txt']),
  c(['grep', '-bF', 'alpha', 'a.txt']),
  c(['grep', '-bo', 'a', 'a.txt']),
  c(['grep', '-bo', 'é', 'a.txt']),
  c(['grep', '-bn', '-A1', 'four', 'a.txt']),
  c(['grep', '-b', '-B2', 'foo', 'a.txt']),
  c(['grep', '-ab', 'a', 'latin1.txt']),
  c(['grep', '-cb', 'alpha', 'a.txt']),
  c(['grep', '-b', 'last', 'noeol.txt']),
  c(['grep', '-Tn', 'alpha', 'a.txt', 'b.log']),
  c(['grep', '-TH', 'alpha', 'a.txt']),
  c(['grep', '-Tbn', '', 'a.txt']),
  c(['grep', '-T', 'alpha', 'a.txt']),
  c(['grep', '-Tbo', 'o', 'a.txt']),
  { argv: ['grep', '-Tn', 'b'], stdin: 'a\nb\nab\n' },
  { argv: ['grep', '-b', 'b'], stdin: 'a\nb\nab\n' },
  // Group separators and --exclude-from
  c(['grep', '-A0', 'alpha', 'a.txt', '--group-separator=XX']),
  c(['grep', '-A0', 'alpha', 'a.txt', '--no-group-separator']),
  c(['grep', '-B1', 'alpha', 'a.txt', '--group-separator=']),
  c(['grep', '-r', '--exclude-from=excl.pat', 'alpha', '.'], {
    files: { ...FILES, 'excl.pat': '*.log\n\n*.dat\n' },
    sortLines: true,
  }),
  c(['grep', '-r', '--exclude-from=missing.pat', 'alpha', '.']),
  // An explicit zero context still separates groups, as GNU does
  c(['grep', '-A0', 'alpha', 'a.txt']),
  c(['grep', '-C0', 'a', 'b.log']),
  // A fixed prefix found first where the rest does not match (the line scan's prefix jump)
  c(['grep', '-E', 'abc[0-9]', 'prefix.txt']),
  c(['grep', '-nE', 'abab[0-9]', 'prefix.txt']),
  c(['grep', '-cE', 'abc[0-9]+$', 'prefix.txt']),
  c(['grep', '-E', '^abc[0-9]', 'prefix.txt']),
  c(['grep', '-wE', 'abc[0-9]+', 'prefix.txt']),
  c(['grep', '-vE', 'abc(abc|[0-9])', 'prefix.txt']),
  c(['grep', '-iE', 'ABC[0-9]', 'prefix.txt']),
  // Pattern syntax
  c(['grep', 'alpha', 'a.txt']),
  c(['grep', 'alpha', 'bom.txt']),
  c(['grep', '-n', 'alpha', 'bom.txt']),
  c(['grep', '-G', 'al\\(ph\\)a', 'a.txt']),
  c(['grep', '-E', 'one|two', 'a.txt']),
  c(['grep', '-F', 'x=1 y', 'a.txt']),
  c(['grep', '-F', '.', 'a.txt']),
  c(['grep', '-P', '\\d{2,}', 'a.txt']),
  c(['grep', '-oP', '(?<=y=)\\d+', 'a.txt']),
  c(['egrep', 'o{2}', 'a.txt']),
  c(['fgrep', 'a.b', 'a.txt']),
  c(['grep', '-e', 'one', '-e', 'two', 'a.txt']),
  c(['grep', '-e', 'one\ntwo', 'a.txt']),
  c(['grep', '-f', 'pats.txt', 'a.txt']),
  c(['grep', '-f', 'empty.txt', 'a.txt']),
  c(['grep', '-v', '-f', 'empty.txt', 'b.log']),
  c(['grep', '', 'b.log']),
  // Matching control
  c(['grep', '-i', 'ALPHA', 'b.log']),
  c(['grep', '-i', 'café', 'a.txt']),
  c(['grep', '-y', 'beta', 'a.txt']),
  c(['grep', '--no-ignore-case', '-i', 'beta', 'a.txt']),
  c(['grep', '-v', 'a', 'a.txt']),
  c(['grep', '-w', 'foo', 'a.txt']),
  c(['grep', '-wo', 'fo*', 'a.txt']),
  c(['grep', '-x', 'foobar', 'a.txt']),
  c(['grep', '-x', '-e', '', 'a.txt']),
  // Output control
  c(['grep', '-c', 'a', 'a.txt']),
  c(['grep', '-c', 'a', 'a.txt', 'b.log']),
  c(['grep', '-cv', 'a', 'a.txt']),
  c(['grep', '-l', 'alpha', 'a.txt', 'b.log', 'empty.txt']),
  c(['grep', '-L', 'alpha', 'a.txt', 'b.log', 'empty.txt']),
  c(['grep', '-n', 'a', 'a.txt']),
  c(['grep', '-h', 'alpha', 'a.txt', 'b.log']),
  c(['grep', '-H', 'alpha', 'a.txt']),
  c(['grep', '-o', '[0-9]\\+', 'a.txt']),
  c(['grep', '-on', 'o', 'a.txt']),
  c(['grep', '-q', 'alpha', 'a.txt']),
  c(['grep', '-q', 'zzz', 'a.txt']),
  c(['grep', '-s', 'alpha', 'missing.txt', 'a.txt']),
  c(['grep', '-m', '2', 'a', 'a.txt']),
  c(['grep', '-m1', '-c', 'a', 'a.txt']),
  c(['grep', '-m', '0', 'a', 'a.txt']),
  c(['grep', '-Z', '-l', 'alpha', 'a.txt', 'b.log']),
  c(['grep', '--label=in', '-H', 'x', '-'], { stdin: 'x\n' }),
  c(['grep', '--color=never', 'alpha', 'a.txt']),
  // Context
  c(['grep', '-A', '1', 'alpha', 'a.txt']),
  c(['grep', '-B', '2', 'foo', 'a.txt']),
  c(['grep', '-C', '1', 'two\\|end', 'a.txt']),
  c(['grep', '-2', 'gamma', 'a.txt']),
  c(['grep', '-nA1', 'alpha', 'a.txt', 'b.log']),
  c(['grep', '-c', '-A', '3', 'alpha', 'a.txt']),
  c(['grep', '-m1', '-A2', 'a', 'a.txt']),
  c(['grep', '-vn', '-B1', 'a', 'a.txt']),
  // Inputs
  c(['grep', 'alpha'], { stdin: 'alpha\nbeta\n' }),
  c(['grep', 'alpha', '-'], { stdin: 'alpha\n' }),
  c(['grep', 'x'], { stdin: '' }),
  c(['grep', 'alpha', 'noeol.txt']),
  c(['grep', '-c', '', 'noeol.txt']),
  c(['grep', 'a', 'empty.txt']),
  c(['grep', 'alpha', 'missing.txt']),
  c(['grep', 'alpha', 'dir']),
  c(['grep', '-d', 'skip', 'alpha', 'dir', 'a.txt']),
  c(['grep', '-r', 'alpha', 'dir'], { sortLines: true }),
  c(['grep', '-R', 'deep', 'dir']),
  c(['grep', '-rh', 'alpha', 'dir'], { sortLines: true }),
  c(['grep', '-rl', 'alpha', '--include=*.log', '.'], { sortLines: true }),
  c(['grep', '-rc', 'alpha', '--exclude=*.txt', '--exclude=*.dat', '.'], { sortLines: true }),
  c(['grep', '-r', 'alpha', '--exclude-dir=sub', 'dir']),
  c(['grep', '-z', 'b', '-'], { stdin: 'a\0b\0cb' }),
  c(['grep', '-zc', '^b', '-'], { stdin: 'a\nb\0b\0' }),
  // Binary and invalid UTF-8
  c(['grep', 'alpha', 'bin.dat']),
  c(['grep', '-c', 'a', 'bin.dat']),
  c(['grep', '-a', 'a', 'bin.dat']),
  c(['grep', '-I', 'a', 'bin.dat']),
  c(['grep', '--binary-files=without-match', 'a', 'bin.dat', 'b.log']),
  c(['grep', 'a', 'latin1.txt']),
  c(['grep', '-n', 'a', 'latin1.txt']),
  c(['grep', '-o', 'a', 'latin1.txt']),
  c(['grep', '-c', 'caf.', 'latin1.txt']),
  c(['grep', '-a', 'caf', 'latin1.txt']),
  c(['grep', 'x.y', '-'], { stdin: new Uint8Array([0x78, 0xff, 0x79, 0x0a]) }),
  // Bad usage
  c(['grep']),
  c(['grep', '-k', 'x', 'a.txt']),
  c(['grep', '--frobnicate', 'x']),
  c(['grep', '-A', 'x', 'y']),
  c(['grep', '-m', 'x', 'y']),
  c(['grep', '--binary-files=nope', 'x']),
  c(['grep', '-d', 'nope', 'x']),
  c(['grep', '-E']),
  c(['grep', 'a\\(', 'a.txt']),
  c(['grep', '-E', 'a{1,2', 'a.txt']),
  c(['grep', '[[:nope:]]', 'a.txt']),
  c(['grep', '[:space:]', 'a.txt']),
  c(['grep', '-E', '*alpha', 'a.txt']),
  c(['grep', '-P', '(a', 'a.txt']),
  c(['grep', '-P', '-e', 'a', '-e', 'b', 'a.txt']),
  c(['grep', '-f', 'missing.txt', 'a.txt']),
  c(['grep', '-q', 'alpha', 'missing.txt', 'a.txt']),
];

describe('grep vs GNU grep', () => {
  for (const [i, tc] of CASES.entries()) {
    it(`${i}: ${tc.argv.slice(1).join(' ')}`, async () => {
      const gnu = await runGnu(tc);
      const mine = await runVirtual(handler(tc.argv[0] as string), tc, createMemoryFilesystem());
      const norm = (s: string) => (tc.sortLines === true ? s.split('\n').sort().join('\n') : s);
      expect({ ...mine, stdout: norm(mine.stdout) }).toEqual({ ...gnu, stdout: norm(gnu.stdout) });
    });
  }
});
