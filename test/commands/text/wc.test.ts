import { wcCommand } from '../../../src/commands/text/wc.js';
import { oracleTable } from './support/oracle-table.js';
import { binary, invalidUtf8 } from './support/run-text.js';

const text = 'hello world\n  two  words \n\ttabbed\tline\nno newline';
const unicode = '\x01 a\xff b \u00a0c\t中\u0301\n日本語 テキスト\nemoji 😀 done\r\nfull\u3000width\n';
const files = { text, unicode, empty: '', names0: 'text\0\0unicode', list0: 'text\0unicode\0' };
const w = (args: string[], stdin?: string | Uint8Array) => ({ argv: ['wc', ...args], stdin, files });

oracleTable(
  wcCommand,
  [
    w(['text']),
    w([], text),
    w(['-l'], text),
    w(['-l', 'text']),
    w(['-w', 'text']),
    w(['-c', 'text']),
    w(['-m', 'text']),
    w(['-L', 'text']),
    w(['-lc', 'text']),
    w(['-lwmcL', 'text', 'unicode']),
    w(['-m'], unicode),
    w(['-w'], unicode),
    w(['-L'], unicode),
    w(['-mwL'], '\x01 a\xff b \xc2\xa0c\t\xe4\xb8\xad\xcc\x81\n'),
    w(['text', 'unicode', 'empty']),
    w(['-l', 'text', '-']),
    w(['text', '-'], 'from stdin\n'),
    w(['-c', '-'], 'abc'),
    w(['empty']),
    w([], ''),
    w([], binary()),
    w(['-m', '-w'], invalidUtf8()),
    w(['-L'], invalidUtf8()),
    w(['-c'], binary()),
    w(['-L'], `${'x'.repeat(300_000)}\n`),
    w(['missing']),
    w(['missing', 'text']),
    w(['text', 'missing']),
    w(['sub']),
    w(['text', 'sub']),
    w(['--files0-from=names0']),
    w(['--files0-from=list0']),
    w(['--files0-from=-'], 'text\0missing\0'),
    w(['--files0-from=-'], '-\0'),
    w(['--files0-from=missing']),
    w(['--files0-from=list0', 'x']),
    w(['-x']),
    w(['--total=only']),
    w(['--help']),
  ].map((c) => (c.argv.includes('sub') ? { ...c, files: { ...files, 'sub/x': 'x' } } : c)),
);
