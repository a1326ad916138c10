import { describe, expect, test } from 'vitest';
import { createBytePipe } from '../../../src/commands/byte-pipe.js';
import { printfCommand } from '../../../src/commands/text/printf.js';
import { seqCommand } from '../../../src/commands/text/seq.js';
import { shufCommand } from '../../../src/commands/text/shuf.js';
import { stringsCommand } from '../../../src/commands/text/strings.js';
import { teeCommand } from '../../../src/commands/text/tee.js';
import { yesCommand } from '../../../src/commands/text/yes.js';
import { oracleTable } from './support/oracle-table.js';
import { binary, runText } from './support/run-text.js';

const randomBytes = new Uint8Array(4096).map((_, i) => (i * 7919 + 13) & 0xff);
const files = {
  rand: randomBytes,
  short: new Uint8Array(3),
  lines: 'a\nb\nc\nd\ne\nf\ng\n',
  one: 'x\n',
  bin: binary(),
};
const t = (cmd: string, args: string[], stdin?: string | Uint8Array) => ({
  argv: [cmd, ...args],
  stdin,
  files,
});

oracleTable(printfCommand, [
  t('printf', ['%s|%d|%5.2f|%x|%o|%c|%%\\n', 'word', '42', '3.14159', '255', '8', 'xyz']),
  t('printf', ['%-8s|%8s|%.2s\\n', 'ab', 'cd', 'efgh']),
  t('printf', ['%c|%3c|%c\\n', '', '']),
  t('printf', ['%05d|%-5d|%+d|% d|%.3d\\n', '42', '42', '42', '42', '7']),
  t('printf', ['%#x|%#o|%X|%#X\\n', '255', '8', '255', '0']),
  t('printf', [
    '%e|%E|%g|%G|%.3g|%g|%g\\n',
    '1234.5678',
    '0.000123',
    '100000',
    '1e-5',
    '3.14159',
    '1e100',
    '0.0001',
  ]),
  t('printf', ['%.20f|%.0f|%.0f|%.1f\\n', '0.1', '0.5', '1.5', '0.25']),
  t('printf', ['%a|%A|%.2a\\n', '1', '0.5', '3.14']),
  t('printf', ['%f|%f|%f\\n', 'inf', '-inf', 'nan']),
  t('printf', ['%d %d\\n', '1', '2', '3', '4', '5']),
  t('printf', ['%s\\n']),
  t('printf', ['%d|%i|%u\\n', '0x10', '010', '-1']),
  t('printf', ['%d\\n', "'A", '"é']),
  t('printf', ['%*d|%-*d|%.*f\\n', '5', '1', '4', '2', '2', '3.14159']),
  t('printf', ['%b|%b\\n', 'a\\tb\\n\\0101\\x41', 'stop\\cnot']),
  t('printf', ['%q %q %q\\n', 'plain', 'with space', "it's"]),
  t('printf', ['\\101\\x42\\u00e9\\e[0m\\a\\v|\\q\\n']),
  t('printf', ['abc\\cdef']),
  t('printf', ['no directives\\n', 'extra']),
  t('printf', ['%d\\n', 'abc']),
  t('printf', ['%d\\n', '12abc']),
  t('printf', ['%d\\n', '99999999999999999999']),
  t('printf', ['%f\\n', '1.5x']),
  t('printf', ['%y\\n', '1']),
  t('printf', ['%\\n']),
  t('printf', ['\\x\\n']),
  t('printf', []),
  t('printf', ['--help']),
  t('printf', ['--', '%s\\n', 'after dashes']),
  t('printf', ['-v']),
]);

oracleTable(seqCommand, [
  t('seq', ['5']),
  t('seq', ['3', '7']),
  t('seq', ['1', '3', '10']),
  t('seq', ['5', '-2', '1']),
  // Integer runs: digits carried into a new place, large steps, the edge of safe numbers.
  t('seq', ['95', '7', '1010']),
  t('seq', ['0', '200', '1999']),
  t('seq', ['007', '12']),
  t('seq', ['-s', 'é', '8', '11']),
  t('seq', ['9007199254740985', '9007199254740991']),
  t('seq', ['9007199254740985', '3', '9007199254740999']),
  t('seq', ['1', '30000']),
  // Counting by one in groups of ten: widths that grow mid-run, ends on and off a group, runs
  // across the 32 KiB chunks, a separator of two bytes, starts that are not a group's first.
  t('seq', ['1', '123457']),
  t('seq', ['7', '1000']),
  t('seq', ['990', '1010']),
  t('seq', ['99990', '100009']),
  t('seq', ['-s', 'é', '9', '20001']),
  t('seq', ['-s', ',', '40', '59']),
  t('seq', ['9007199254740000', '9007199254740991']),
  t('seq', ['--', '-1', '1']),
  t('seq', ['-1.5', '1']),
  t('seq', ['0', '0.1', '0.3']),
  t('seq', ['0', '0.1', '1']),
  t('seq', ['0', '0.000001', '0.000003']),
  t('seq', ['-w', '8', '11']),
  t('seq', ['-w', '-3', '3']),
  t('seq', ['-w', '0.5', '1.5', '4']),
  t('seq', ['-w', '1', '1.5', '5']),
  t('seq', ['1e2', '1e2', '3e2']),
  t('seq', ['-s', ',', '3']),
  t('seq', ['-s', '', '3']),
  t('seq', ['-s', ', ', '-w', '9', '11']),
  t('seq', ['-f', '%.2e', '1', '3']),
  t('seq', ['-f', '%%%g%%', '2']),
  t('seq', ['-f', 'n=%05.1f', '1', '0.5', '2']),
  t('seq', ['1.0', '3']),
  t('seq', ['.5', '2']),
  t('seq', ['1', '0']),
  t('seq', ['18446744073709551615', '18446744073709551617']),
  t('seq', ['1', '1000000000000000000000', '3000000000000000000000']),
  t('seq', ['0.1', '0.01', '0.15']),
  t('seq', ['1', 'x']),
  t('seq', ['nan']),
  t('seq', ['1', '0', '3']),
  t('seq', ['-f', '%d', '1']),
  t('seq', ['-f', 'x', '1']),
  t('seq', ['-f', '%f%f', '1']),
  t('seq', ['-w', '-f', '%f', '1']),
  t('seq', []),
  t('seq', ['1', '2', '3', '4']),
  t('seq', ['-x']),
  t('seq', ['--help']),
]);

oracleTable(stringsCommand, [
  t('strings', [], 'abc\0defg\x01hijk\nlmno\tpq\xe9rstu'),
  t('strings', ['bin']),
  t('strings', ['-n', '2', 'bin']),
  t('strings', ['-n', '3', '-t', 'd'], 'hello\0world, again\0x'),
  t('strings', ['-t', 'x', '-n', '3'], 'hello\0world, again\0x'),
  t('strings', ['-o', '-n', '3'], 'hello\0world\0'),
  t('strings', ['-f', 'lines', 'bin'].slice(0, 2).concat(['-n', '1']), undefined),
  t('strings', ['-n', '0']),
  t('strings', ['-n', 'x']),
  t('strings', ['missing']),
]);

oracleTable(shufCommand, [
  t('shuf', ['--random-source=rand', 'lines']),
  t('shuf', ['--random-source=rand'], 'a\nb\nc\nd\ne\n'),
  t('shuf', ['--random-source=rand', '-n', '3', 'lines']),
  t('shuf', ['--random-source=rand', '-n', '3'], 'a\nb\nc\nd\ne\nf\ng\nh\n'),
  t('shuf', ['--random-source=rand', '-n', '10'], 'a\nb\nc\n'),
  t('shuf', ['--random-source=rand', '-e', 'x', 'y', 'z', 'w']),
  t('shuf', ['--random-source=rand', '-n', '2', '-e', 'x', 'y', 'z']),
  t('shuf', ['--random-source=rand', '-i', '1-10']),
  t('shuf', ['--random-source=rand', '-i', '5-9', '-n', '3']),
  t('shuf', ['--random-source=rand', '-r', '-n', '8', '-i', '1-3']),
  t('shuf', ['--random-source=rand', '-r', '-n', '5', '-e', 'a', 'b']),
  t('shuf', ['--random-source=rand', '-z'], 'a\0b\0c\0d'),
  t('shuf', ['--random-source=rand', '-o', 'out', 'lines']),
  t('shuf', ['--random-source=rand', 'one']),
  t('shuf', ['--random-source=short', 'lines']),
  t('shuf', ['--random-source=missing', 'lines']),
  t('shuf', ['-n', '0', 'lines']),
  t('shuf', ['-i', '5-1']),
  t('shuf', ['-i', 'x']),
  t('shuf', ['-n', 'x']),
  t('shuf', ['-e', '-i', '1-2']),
  t('shuf', ['a', 'b']),
  t('shuf', ['missing']),
  t('shuf', ['--help']),
]);

oracleTable(teeCommand, [
  t('tee', ['copy'], 'hello\nworld\n'),
  t('tee', ['-a', 'one'], 'appended\n'),
  t('tee', ['a', 'b', 'c'], 'x'),
  t('tee', [], binary()),
  t('tee', ['missing/dir/file'], 'x\n'),
  t('tee', ['--output-error=bogus'], ''),
  t('tee', ['-k']),
  t('tee', ['--help']),
]);

oracleTable(yesCommand, [t('yes', ['-n']), t('yes', ['--foo']), t('yes', ['--help'])]);

describe('yes, tee and printf in pipes', () => {
  test('yes writes its lines until the reader goes away, then ends with 141', async () => {
    const r = await runText(yesCommand, ['yes', 'ab', 'c'], { maxOutputBytes: 100_000 });
    expect(r.status).toBe(141);
    expect(r.stdout.slice(0, 10)).toBe('ab c\nab c\n');
  });

  test('tee writes every file of the virtual filesystem and standard output', async () => {
    const r = await runText(teeCommand, ['tee', 'f1', 'sub/f2'], {
      stdin: 'data\n',
      files: { 'sub/.keep': '' },
    });
    expect(r.stdout).toBe('data\n');
    expect(new TextDecoder().decode(await r.fs.readFile('/work/f1'))).toBe('data\n');
    expect(new TextDecoder().decode(await r.fs.readFile('/work/sub/f2'))).toBe('data\n');
  });

  test('tee -p goes on writing its files when standard output breaks', async () => {
    const pipe = createBytePipe();
    const big = 'z'.repeat(200_000);
    void pipe.writer.write(new TextEncoder().encode(big)).then(() => pipe.writer.close());
    const r = await runText(teeCommand, ['tee', '-p', 'keep'], { stdin: pipe.reader, maxOutputBytes: 10 });
    expect(r.status).toBe(0);
    expect((await r.fs.readFile('/work/keep')).length).toBe(200_000);
  });

  test('shuf --random-seed is reproducible and a permutation', async () => {
    const one = await runText(shufCommand, ['shuf', '--random-seed=7', '-i', '1-50']);
    const two = await runText(shufCommand, ['shuf', '--random-seed=7', '-i', '1-50']);
    expect(one.stdout).toBe(two.stdout);
    expect(
      one.stdout
        .trim()
        .split('\n')
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });
});
