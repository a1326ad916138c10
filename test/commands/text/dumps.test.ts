import { hexdumpCommand } from '../../../src/commands/text/hexdump.js';
import { odCommand } from '../../../src/commands/text/od.js';
import { xxdCommand } from '../../../src/commands/text/xxd.js';
import { oracleTable } from './support/oracle-table.js';
import { binary, invalidUtf8 } from './support/run-text.js';

const sample = new Uint8Array([...new TextEncoder().encode('Hello, World!\n'), 0, 1, 0x7f, 0x80, 0xff, 0xe9]);
const zeros = new Uint8Array(64);
const files = {
  sample,
  zeros,
  bin: binary(),
  text: 'line one\nline two\n',
  dump: '',
  plain: '48656c6c6f0a\n',
};
const t = (cmd: string, args: string[], stdin?: string | Uint8Array) => ({
  argv: [cmd, ...args],
  stdin,
  files,
});

oracleTable(odCommand, [
  t('od', ['sample']),
  t('od', ['-c', 'sample']),
  t('od', ['-tx1', '-tc', 'sample']),
  t('od', ['-An', '-tx2', 'sample']),
  t('od', ['-Ax', '-td2', 'sample']),
  t('od', ['-Ad', '-tu4', '-w8', 'sample']),
  t('od', ['-ta', 'sample']),
  t('od', ['-to1', '-N', '4', '-j', '2', 'sample']),
  t('od', ['-x', 'sample']),
  t('od', ['-d', 'sample']),
  t('od', ['-o', 'sample']),
  t('od', ['-s', '-i', '-l', 'sample']),
  t('od', ['-b', 'sample']),
  t('od', ['-w', 'sample']),
  t('od', ['zeros']),
  t('od', ['-v', 'zeros']),
  t('od', ['-tx8', 'sample']),
  t('od', ['-td1', '-tu1', 'sample']),
  t('od', ['-tx1z', 'sample']),
  t('od', ['-tx1', '-w4', 'text']),
  t('od', ['-tf4', '-tf8', 'bin']),
  t('od', ['-tdS', '-toL', 'bin']),
  t('od', ['-c'], invalidUtf8()),
  t('od', ['bin']),
  t('od', ['-A', 'n', '-c'], 'abc'),
  t('od', ['-j', '0x10', '-N', '010', '-tx1', 'bin']),
  t('od', ['-j', '1k', 'bin']),
  t('od', [], ''),
  t('od', ['sample', 'text']),
  t('od', ['-A', 'q']),
  t('od', ['-t', 'q']),
  t('od', ['-t', 'x3']),
  t('od', ['missing']),
  t('od', ['-k']),
  t('od', ['--help']),
]);

oracleTable(xxdCommand, [
  t('xxd', ['sample']),
  t('xxd', ['-p', 'sample']),
  t('xxd', ['-c', '8', 'sample']),
  t('xxd', ['-l', '5', 'sample']),
  t('xxd', ['-s', '3', '-l', '4', 'sample']),
  t('xxd', ['-g', '1', '-l', '6', 'sample']),
  t('xxd', ['-g1', '-c4', 'text']),
  t('xxd', ['-u', 'sample']),
  t('xxd', ['-s', '-2', 'sample']),
  t('xxd', ['-p', '-c', '4', 'sample']),
  t('xxd', ['bin']),
  t('xxd', ['-p', 'bin']),
  t('xxd', [], 'a'),
  t('xxd', [], ''),
  t('xxd', ['-r', '-p', 'plain']),
  t(
    'xxd',
    ['-r'],
    '00000000: 4865 6c6c 6f2c 2057 6f72 6c64 210a 0001  Hello, World!...\n00000010: 7f80 ffe9                                ....\n',
  ),
  t('xxd', ['-r', '-p'], '41 42\n43\n'),
  t('xxd', ['sample', 'out']),
  t('xxd', ['missing']),
]);

oracleTable(hexdumpCommand, [
  t('hexdump', ['-C', 'sample']),
  t('hexdump', ['-C', 'zeros']),
  t('hexdump', ['-C', '-v', 'zeros']),
  t('hexdump', ['-C', 'bin']),
  t('hexdump', ['-C', '-n', '20', 'bin']),
  t('hexdump', ['-C', '-s', '5', '-n', '20', 'bin']),
  t('hexdump', ['-C', 'sample', 'text']),
  t('hexdump', ['-C'], ''),
  t('hexdump', ['-C'], 'abc'),
  t('hexdump', ['-C', 'missing']),
  t('hexdump', ['-C', 'missing', 'text']),
  t('hexdump', ['-k']),
]);
