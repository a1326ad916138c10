import { columnCommand } from '../../../src/commands/text/column.js';
import { oracleTable } from './support/oracle-table.js';

const seq = (n: number): string => Array.from({ length: n }, (_, i) => `${i + 1}\n`).join('');
const words = 'alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa\nlambda\nmu\n';
const c = (args: string[], stdin?: string) => ({
  argv: ['column', ...args],
  stdin,
  files: { words, table: 'name age city\nann 31 oslo\nbob 7 rome\n' },
});
oracleTable(columnCommand, [
  c(['-t'], 'a b c\nlonger x\n\nz  y   w\n'),
  c(['-t', '-s', ','], 'a,b,,c\nd,,e\n'),
  c(['-t', '-s', ',', '-o', '|'], 'a,b,,c\n'),
  c(['-t', '-s', ':,'], 'a:b,c\nlong:x\n'),
  c(['-t', 'table']),
  c(['-t', '-o', ' | ', 'table']),
  c(['-t', '-N', 'X,Y,Z', 'table']),
  c(['-t'], 'héllo wörld\n中文 x\n'),
  c(['-t'], ' lead  sp\n'),
  c(['-t'], 'a\tb\n'),
  c([], seq(30)),
  c(['-x'], seq(30)),
  c(['words']),
  c(['-x', 'words']),
  c(['-c', '40', 'words']),
  c(['-c', '5'], 'one two\n'),
  c([], seq(5)),
  c([], 'a\n\nb\n'),
  c(['-t'], ''),
  c([], ''),
  c(['missing']),
  c(['-k']),
  c(['--help']),
]);
