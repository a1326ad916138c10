import { basenameCommand, dirnameCommand } from '../../../src/commands/files/path-names.js';
import { oracleTable } from '../text/support/oracle-table.js';

oracleTable(basenameCommand, [
  { argv: ['basename', 'a/b/c.txt'] },
  { argv: ['basename', 'a/b/c.txt', '.txt'] },
  { argv: ['basename', '.c', '.c'] },
  { argv: ['basename', 'x/', '/'] },
  { argv: ['basename', '/'] },
  { argv: ['basename', '//'] },
  { argv: ['basename', ''] },
  { argv: ['basename', '-a', 'x/y/', 'z.c', '/'] },
  { argv: ['basename', '-s', '.c', 'a/b.c', 'c.c', '.c'] },
  { argv: ['basename', '--suffix=.c', 'a/b.c'] },
  { argv: ['basename', '-z', 'a', 'b'] },
  { argv: ['basename', '-az', 'a/\xe9\xff', 'b'] },
  { argv: ['basename'] },
  { argv: ['basename', 'a', 'b', 'c'] },
  { argv: ['basename', '--suffix'] },
  { argv: ['basename', '-k', 'x'] },
  { argv: ['basename', '--help'] },
  { argv: ['basename', '--version'], known: 'the version text names berth' },
]);

oracleTable(dirnameCommand, [
  { argv: ['dirname', 'a/b', '/c/d/', 'e', '', '/', '//x', '///', 'a//b//', './a'] },
  { argv: ['dirname', '-z', 'a/b', 'c'] },
  { argv: ['dirname'] },
  { argv: ['dirname', '--zero'] },
  { argv: ['dirname', '-x'] },
  { argv: ['dirname', '--help'] },
]);
