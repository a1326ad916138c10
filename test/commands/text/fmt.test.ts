import { fmtCommand } from '../../../src/commands/text/fmt.js';
import { oracleTable } from './support/oracle-table.js';

const lorem =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit. Sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.  Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur.\n';
const para = `${lorem}\n  indented paragraph with a few words that\n  continue on the next line and more words\n\nshort\nlines\nto join\n\n\ttabbed start of a paragraph (with a parenthesis) and\n\tsome more text to fill the line.  Another sentence! Yes?\n`;
const files = {
  para,
  lorem,
  mail: '> quoted text that is long enough to wrap around the width of the line\n> second quoted line\nnot quoted\n',
  tagged: 'first line of a tagged\n   paragraph continues here and goes on for a while to wrap\n',
  crown: '  crown first line\nbody line one goes on\nbody line two\n',
  nonl: 'no newline at the end of this short paragraph',
};
const f = (args: string[], stdin?: string) => ({ argv: ['fmt', ...args], stdin, files });
oracleTable(fmtCommand, [
  f(['para']),
  f(['lorem']),
  f(['-w', '40', 'para']),
  f(['-w40', 'lorem']),
  f(['-60', 'lorem']),
  f(['-w', '30', '-g', '25', 'lorem']),
  f(['-g', '50', 'lorem']),
  f(['-u', 'para']),
  f(['-s', 'para']),
  f(['-s', '-w', '20', 'lorem']),
  f(['-c', 'crown']),
  f(['-t', 'tagged']),
  f(['-c', '-w', '30', 'para']),
  f(['-p', '> ', 'mail']),
  f(['-p', '>', '-w', '30', 'mail']),
  f(['nonl']),
  f([], ''),
  f([], '\n\n\n'),
  f([], `${'word '.repeat(3000)}\n`),
  f(['-w', '10'], 'averyveryverylongword and short\n'),
  f(['-w', 'x']),
  f(['missing']),
  f(['-k']),
  f(['--help']),
]);
