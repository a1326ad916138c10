/**
 * Random differential cases (seeded, so every run is the same): 16 text commands with option
 * combinations drawn from their common flags over random words (numbers, month names, versions,
 * hex, NaN, non-ASCII, tabs and colons), each against the real tool. Any difference fails the
 * test with the cases that differ. `SEED=n` explores other draws.
 */
import { expect, test } from 'vitest';
import { textCommands } from '../../../src/commands/text/index.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';
import { runGnu, runVirtual } from '../support/gnu-oracle.js';

let seed = Number(process.env.SEED ?? 20261201);
const rnd = (n: number): number => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};
const pick = <T>(xs: T[]): T => xs[rnd(xs.length)] as T;
const spec = (n: string) => {
  const found = textCommands.find((c) => c.name === n);
  if (found === undefined) throw new Error(`no command ${n}`);
  return found;
};
const word = () =>
  pick([
    'a',
    'B',
    '10',
    '-3',
    '2.5',
    ' x',
    'Jan',
    'feb',
    '1K',
    '2M',
    'v1.10',
    'v1.9',
    '',
    'é',
    '0x1f',
    'nan',
    '  7',
    'zz',
    'a:b',
    'x\ty',
  ]);
const text = (n: number) =>
  `${Array.from({ length: n }, () => Array.from({ length: 1 + rnd(4) }, word).join(pick([' ', '\t', ',', '  ', ':']))).join('\n')}${pick(['\n', ''])}`;
test('random option combinations give what the real tools give', async () => {
  const fails: string[] = [];
  const gens: (() => { argv: string[]; stdin: string })[] = [
    () => ({
      argv: [
        'cut',
        pick(['-b', '-c', '-f']),
        pick(['1', '2-', '-2', '1,3', '2-3', '1-1,3-']),
        ...(rnd(2) ? ['--complement'] : []),
        ...(rnd(2) ? ['--output-delimiter=|'] : []),
      ],
      stdin: text(6),
    }),
    () => ({
      argv: [
        'cut',
        '-d',
        pick([':', ',', ' ']),
        '-f',
        pick(['1', '2', '1,3', '2-']),
        ...(rnd(2) ? ['-s'] : []),
      ],
      stdin: text(6),
    }),
    () => ({
      argv: [
        'tr',
        ...(rnd(3) === 0 ? ['-c'] : []),
        ...(rnd(3) === 0 ? ['-s'] : []),
        pick(['a-z', '[:digit:]', 'abc', '[:space:]', '[:upper:]', 'x-z\\n']),
        pick(['A-Z', 'x', '[:lower:]', '_', 'pq']),
      ],
      stdin: text(6),
    }),
    () => ({
      argv: ['tr', '-d', ...(rnd(2) ? ['-s'] : []), pick(['a-z', '[:digit:]', '[:punct:]', ' '])],
      stdin: text(6),
    }),
    () => ({
      argv: [
        'uniq',
        ...[pick(['-c', '-d', '-u', '-i', '-D', '']), pick(['-f1', '-s1', '-w2', ''])].filter(
          (x) => x !== '',
        ),
      ],
      stdin: [...text(8).split('\n'), ...text(4).split('\n')].sort().join('\n'),
    }),
    () => ({
      argv: ['wc', ...[pick(['-l', '-w', '-c', '-m', '-L', '-lw', ''])].filter((x) => x !== '')],
      stdin: text(7),
    }),
    () => ({
      argv: [
        'printf',
        pick(['%s|%d\\n', '%5.2f %e\\n', '%x %o %c\\n', '%-6s|%06.1f\\n', '%g %G\\n', '%.3s %b\\n']),
        ...Array.from({ length: 1 + rnd(4) }, () =>
          pick(['1', '3.75', '-2', 'abc', '0x10', '1e5', '007', 'x\\ty', '12.5e-3']),
        ),
      ],
      stdin: '',
    }),
    () => ({
      argv: [
        'seq',
        ...(rnd(3) === 0 ? ['-w'] : []),
        ...(rnd(4) === 0 ? ['-s', ','] : []),
        pick(['1', '-2', '0.5', '3', '10']),
        ...(rnd(2) ? [pick(['0.25', '2', '-1', '1.5'])] : []),
        pick(['5', '12', '-4', '2.75']),
      ],
      stdin: '',
    }),
    () => ({
      argv: [
        'sort',
        ...[
          pick(['-n', '-g', '-h', '-M', '-V', '-f', '-d', '-b', '-r', '-u', '-s', '']),
          pick(['-r', '-u', '']),
        ].filter((x) => x !== ''),
        ...(rnd(2)
          ? ['-k', `${1 + rnd(3)}${pick(['', '.2', 'n', 'r', 'b'])}${pick(['', `,${1 + rnd(3)}`])}`]
          : []),
        ...(rnd(3) === 0 ? ['-t', ':'] : []),
      ],
      stdin: text(10),
    }),
    () => ({
      argv: ['fold', '-w', String(1 + rnd(12)), ...(rnd(2) ? ['-s'] : []), ...(rnd(3) === 0 ? ['-b'] : [])],
      stdin: text(5),
    }),
    () => ({ argv: ['expand', ...(rnd(2) ? ['-t', pick(['3', '2,5', '4,/3'])] : [])], stdin: text(5) }),
    () => ({
      argv: ['unexpand', ...(rnd(2) ? ['-a'] : []), ...(rnd(2) ? ['-t', pick(['3', '2,5'])] : [])],
      stdin: text(5).replaceAll('\t', '        '),
    }),
    () => ({
      argv: [
        'nl',
        ...[pick(['-ba', '-bt', '-bn', '']), pick(['-nln', '-nrz', '-w3', ''])].filter((x) => x !== ''),
      ],
      stdin: text(6),
    }),
    () => ({ argv: ['fmt', '-w', String(10 + rnd(30)), ...(rnd(3) === 0 ? ['-u'] : [])], stdin: text(12) }),
    () => ({
      argv: ['od', pick(['-c', '-tx1', '-An', '-x', '-tx1z']), ...(rnd(2) ? ['-w8'] : [])],
      stdin: text(3),
    }),
    () => ({
      argv: [
        'numfmt',
        `--to=${pick(['si', 'iec', 'none'])}`,
        ...(rnd(2) ? [`--round=${pick(['up', 'down', 'nearest'])}`] : []),
        String(rnd(10) === 0 ? -1 : rnd(100000000)),
      ],
      stdin: '',
    }),
  ];
  for (let k = 0; k < 400; k++) {
    const c = pick(gens)();
    const [g, v] = await Promise.all([
      runGnu(c),
      runVirtual(spec(c.argv[0] as string).run, c, createMemoryFilesystem()),
    ]);
    if (JSON.stringify(g) !== JSON.stringify(v))
      fails.push(`${JSON.stringify(c)}\nGNU ${JSON.stringify(g)}\nVIR ${JSON.stringify(v)}`);
  }
  expect(fails.slice(0, 5)).toEqual([]);
}, 300000);
