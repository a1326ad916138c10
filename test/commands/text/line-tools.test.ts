import { describe, expect, test } from 'vitest';
import { expandCommand, unexpandCommand } from '../../../src/commands/text/expand.js';
import { foldCommand } from '../../../src/commands/text/fold.js';
import { nlCommand } from '../../../src/commands/text/nl.js';
import { revCommand } from '../../../src/commands/text/rev.js';
import { tacCommand } from '../../../src/commands/text/tac.js';
import { oracleTable } from './support/oracle-table.js';
import { binary, invalidUtf8, runText } from './support/run-text.js';

const prose =
  'The quick brown fox jumps over the lazy dog and keeps running far beyond the horizon line.\nshort\n\tTabbed line that is long enough to need folding somewhere along its way\nback\bspace and\rcarriage return in a line that goes on and on and on\n';
const files = {
  prose,
  tabs: 'a\tb\tc\n\tlead\n  \t mixed\nno tabs\nx\ty\tz\t\n',
  spaces: '        eight\n    four\nab      cd      ef\n  a  b   c    d\n \t x\n',
  nlin: 'a\n\nb\n\\:\\:\\:\nhead\n\\:\\:\nbody\n\n\\:\nfoot\n',
  blanks: 'a\n\n\n\n\nb\n\n\nc\n',
  rec: 'one\ntwo\nthree',
  dd: 'x',
};
const t = (cmd: string, args: string[], stdin?: string | Uint8Array) => ({
  argv: [cmd, ...args],
  stdin,
  files,
});

oracleTable(foldCommand, [
  t('fold', ['prose']),
  t('fold', ['-w', '20', 'prose']),
  t('fold', ['-w20', '-s', 'prose']),
  t('fold', ['-b', '-w', '10', 'prose']),
  t('fold', ['-bs', '-w', '7', 'prose']),
  t('fold', ['-15', 'prose']),
  t('fold', ['--width=5'], 'abcdefghijklmno'),
  t('fold', ['-w', '3'], 'é中文\n'),
  t('fold', ['-w', '1'], 'abc\n'),
  t('fold', ['-s', '-w', '4'], 'a b c d e f g\n'),
  t('fold', ['-w', '8'], '\t\tx\n'),
  t('fold', ['-w', '10', 'prose', 'tabs']),
  t('fold', [], binary()),
  t('fold', ['-w', '4'], invalidUtf8()),
  t('fold', ['-w', '0']),
  t('fold', ['-w', 'x']),
  t('fold', ['-w', '99999999999999999999999']),
  t('fold', ['missing']),
  t('fold', ['-k']),
  t('fold', ['--help']),
]);

oracleTable(revCommand, [
  t('rev', ['prose']),
  t('rev', [], 'héllo wörld\n中文字\nno newline'),
  t('rev', [], 'ab\xffc\n'),
  t('rev', [], invalidUtf8()),
  t('rev', ['rec', 'prose']),
  t('rev', [], 'a\0b\n'),
  t('rev', [], ''),
  t('rev', [], '\n\n'),
  t('rev', ['missing', 'rec']),
  t('rev', ['-']),
  t('rev', ['-x']),
  t('rev', ['--help']),
]);

oracleTable(
  tacCommand,
  [
    t('tac', ['rec']),
    t('tac', [], 'a\nb\nc\n'),
    t('tac', [], 'a\nb'),
    t('tac', [], 'a\n\nb\n'),
    t('tac', [], ''),
    t('tac', ['-s', ','], 'a,b,c,'),
    t('tac', ['-b', '-s', ','], 'a,b,c'),
    t('tac', ['-s', 'XY'], 'aXYbXYXYc'),
    t('tac', ['-b', '-s', 'XY'], 'aXYbXYXYc'),
    t('tac', ['-s', 'aa'], 'xaaaybaac'),
    t('tac', ['-r', '-s', '[0-9]+'], 'a1b22c333d'),
    t('tac', ['-r', '-s', '[0-9]\\+'], 'a12b345c'),
    t('tac', ['-r', '-s', 'X\\|b'], 'aXbXc'),
    t('tac', ['-r', '-b', '-s', '[,;]'], 'a,b;c'),
    t('tac', ['rec', 'prose']),
    t('tac', [], binary()),
    t('tac', [], invalidUtf8()),
    t('tac', ['big'], undefined),
    t('tac', ['missing', 'rec']),
    t('tac', ['sub']),
    t('tac', ['-x']),
    t('tac', ['--help']),
  ].map((c) => {
    if (c.argv.includes('big'))
      return {
        ...c,
        files: { ...files, big: Array.from({ length: 30_000 }, (_, i) => `line ${i}`).join('\n') },
      };
    if (c.argv.includes('sub')) return { ...c, files: { ...files, 'sub/x': 'x' } };
    return c;
  }),
);

oracleTable(expandCommand, [
  t('expand', ['tabs']),
  t('expand', ['-t', '4', 'tabs']),
  t('expand', ['-t4', 'tabs']),
  t('expand', ['-t', '2,6,9', 'tabs']),
  t('expand', ['-t', '2 6', 'tabs']),
  t('expand', ['-t', '3,/5', 'tabs']),
  t('expand', ['-t', '3,+5', 'tabs']),
  t('expand', ['-i', 'tabs']),
  t('expand', ['--initial', '-t', '2', 'tabs']),
  t('expand', ['-4', 'tabs']),
  t('expand', ['-2,5', 'tabs']),
  t('expand', [], 'ab\bc\td\n'),
  t('expand', ['tabs', '-'], 'x\ty'),
  t('expand', [], binary()),
  t('expand', ['-t', '0']),
  t('expand', ['-t', '4,2']),
  t('expand', ['-t', 'x']),
  t('expand', ['-t', '2,/3,/4']),
  t('expand', ['-t', '/3,+4']),
  t('expand', ['-t', '3/']),
  t('expand', ['missing']),
  t('expand', ['--help']),
]);

oracleTable(unexpandCommand, [
  t('unexpand', ['spaces']),
  t('unexpand', ['-a', 'spaces']),
  t('unexpand', ['-t', '4', 'spaces']),
  t('unexpand', ['-t', '4', '--first-only', 'spaces']),
  t('unexpand', ['-t', '2,6', 'spaces']),
  t('unexpand', ['-a', '-t', '3,/4', 'spaces']),
  t('unexpand', ['-4', 'spaces']),
  t('unexpand', ['-a'], 'a       b\n        \n   \t  x\n'),
  t('unexpand', ['-a'], 'abcdefg h\n'),
  t('unexpand', [], binary()),
  t('unexpand', ['-t', '0']),
  t('unexpand', ['missing']),
  t('unexpand', ['--help']),
]);

oracleTable(nlCommand, [
  t('nl', ['nlin']),
  t('nl', ['-ba', '-ha', '-fa', 'nlin']),
  t('nl', ['-bpb', '-nrz', '-w3', '-s:', 'nlin']),
  t('nl', ['-v', '10', '-i', '5', '-nln', '-l', '2', '-ba', 'nlin']),
  t('nl', ['-p', 'nlin']),
  t('nl', ['-bn', 'nlin']),
  t('nl', ['-ba', '-l', '3', 'blanks']),
  t('nl', ['-v', '-3', '-nrz', '-w', '4', '-ba', 'blanks']),
  t('nl', ['-d', '@', 'nlin']),
  t('nl', ['-d', '\\:', 'nlin']),
  t('nl', ['-b', 'p^[ab]', 'nlin']),
  t('nl', [], 'x'),
  t('nl', ['rec', 'nlin']),
  t('nl', [], binary()),
  t('nl', ['-b', 'x', 'nlin']),
  t('nl', ['-n', 'x']),
  t('nl', ['-w', '0']),
  t('nl', ['-w', 'x']),
  t('nl', ['-i', 'x']),
  t('nl', ['-v', 'x']),
  t('nl', ['-l', '0']),
  t('nl', ['missing']),
  t('nl', ['-k']),
  t('nl', ['--help']),
]);

describe('tac over the virtual filesystem', () => {
  test('a large standard input goes to a temporary file and is removed after', async () => {
    const input = Array.from({ length: 600_000 }, (_, i) => `record ${i}`).join('\n');
    const r = await runText(tacCommand, ['tac'], {
      stdin: `${input}\n`,
      files: { 'tmp/.keep': '' },
      env: { TMPDIR: '/work/tmp' },
    });
    const expected = `${input.split('\n').reverse().join('\n')}\n`;
    expect(r.stdout.length).toBe(expected.length);
    expect(r.stdout === expected).toBe(true);
    expect((await r.fs.readdir('/work/tmp')).map((e) => e.name)).toEqual(['.keep']);
  });

  test('fails clearly when the temporary file cannot be made', async () => {
    const r = await runText(tacCommand, ['tac'], {
      stdin: 'x\n'.repeat(9_000_000),
      env: { TMPDIR: '/missing' },
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe("tac: failed to create temporary file in '/missing': No such file or directory\n");
  });
});
