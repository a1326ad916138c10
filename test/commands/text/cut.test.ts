import { cutCommand } from '../../../src/commands/text/cut.js';
import { oracleTable } from './support/oracle-table.js';
import { binary, invalidUtf8 } from './support/run-text.js';

const csv = 'name:age:city\nann:31:oslo\nbob::\nno delimiter here\n\nlast:one';
const tsv = 'a\tb\tc\td\n1\t2\t3\t4\n';
const files = { csv, tsv };

oracleTable(cutCommand, [
  { argv: ['cut', '-b', '1-3'], stdin: 'abcdef\nxy\n' },
  { argv: ['cut', '-c', '2,4-'], stdin: 'abcdef\nxy\n' },
  { argv: ['cut', '-b', '-2,5'], stdin: 'abcdef\n' },
  { argv: ['cut', '-b', '3-4,1-2', '--output-delimiter=:'], stdin: 'abcdef\n' },
  { argv: ['cut', '-b', '1,3,5', '--output-delimiter', '--'], stdin: 'abcdef\n' },
  { argv: ['cut', '-b', '1-2,2-4', '--output-delimiter=|'], stdin: 'abcdef\n' },
  { argv: ['cut', '--complement', '-b', '2-3'], stdin: 'abcdef\n' },
  { argv: ['cut', '--complement', '-c', '2,4', '--output-delimiter=.'], stdin: 'abcdef\n' },
  { argv: ['cut', '-n', '-b', '2'], stdin: 'abc\n' },
  { argv: ['cut', '-c', '1-2'], stdin: 'héllo\n' },
  { argv: ['cut', '-b', '1-3'], stdin: 'no newline' },
  { argv: ['cut', '-d:', '-f2', 'csv'], files },
  { argv: ['cut', '-d', ':', '-f', '1,3', 'csv'], files },
  { argv: ['cut', '-d:', '-f2-', 'csv'], files },
  { argv: ['cut', '-d:', '-f-2', '-s', 'csv'], files },
  { argv: ['cut', '-d:', '--complement', '-f2', 'csv'], files },
  { argv: ['cut', '-d:', '-f1,3', '--output-delimiter=, ', 'csv'], files },
  { argv: ['cut', '-d:', '-f5', 'csv'], files },
  { argv: ['cut', '-f2,4', 'tsv'], files },
  { argv: ['cut', '-f', '1 3', 'tsv'], files },
  { argv: ['cut', '--fields=3-', '--only-delimited', 'tsv'], files },
  { argv: ['cut', '-z', '-d:', '-f2'], stdin: 'a:b\0c:d\0e' },
  { argv: ['cut', '-d', '', '-f2'], stdin: 'a\0b\nc\n' },
  { argv: ['cut', '-d', ' ', '-f2'], stdin: 'a  b c\n' },
  { argv: ['cut', '-b', '1-5'], stdin: binary() },
  { argv: ['cut', '-d', '\x80', '-f', '2'], stdin: invalidUtf8() },
  { argv: ['cut', '-b', '2-3'], stdin: invalidUtf8() },
  { argv: ['cut', '-b', '299995-'], stdin: `${'z'.repeat(300_000)}\n` },
  { argv: ['cut', '-f1'], stdin: '' },
  { argv: ['cut', '-f1', 'missing', 'tsv'], files },
  { argv: ['cut', '-f1', 'sub'], files: { 'sub/x': 'x' } },
  { argv: ['cut'] },
  { argv: ['cut', 'csv'], files },
  { argv: ['cut', '-b1', '-f1'] },
  { argv: ['cut', '-b1', '-d:'] },
  { argv: ['cut', '-b1', '-s'] },
  { argv: ['cut', '-d', 'ab', '-f1'] },
  { argv: ['cut', '-d', 'é', '-f1'] },
  ...['0', '-', '3-1', 'a', '1-a', '1,,3', '99999999999999999999', '0-2', '1--2', '', '2a'].flatMap((l) => [
    { argv: ['cut', '-f', l] },
    { argv: ['cut', '-c', l] },
  ]),
  { argv: ['cut', '-x'] },
  { argv: ['cut', '--help'] },
]);
