import { describe, expect, test } from 'vitest';
import { catCommand } from '../../../src/commands/text/cat.js';
import { oracleTable } from './support/oracle-table.js';
import { binary, invalidUtf8, runText } from './support/run-text.js';

const mixed = 'one\n\n\n\ttab\there\n\x01ctl\x7f\n\xe9t\xe9\n\n';
const files = { a: 'a1\na2\n\n\n\na3', b: 'b1\n\n\nb2\n' };

oracleTable(catCommand, [
  { argv: ['cat'], stdin: 'hello\nworld' },
  { argv: ['cat'], stdin: '' },
  { argv: ['cat', 'a', '-', 'b'], stdin: 'middle\n', files },
  { argv: ['cat', '-n', 'a', 'b'], files },
  { argv: ['cat', '-b', 'a', 'b'], files },
  { argv: ['cat', '-bn', 'a', 'b'], files },
  { argv: ['cat', '-s', 'a', 'b'], files },
  { argv: ['cat', '-sn', 'a', 'b'], files },
  { argv: ['cat', '-E', 'a'], files },
  { argv: ['cat', '-A'], stdin: mixed },
  { argv: ['cat', '-v'], stdin: mixed },
  { argv: ['cat', '-T'], stdin: mixed },
  { argv: ['cat', '-e'], stdin: mixed },
  { argv: ['cat', '-t'], stdin: mixed },
  { argv: ['cat', '-vET', '--number'], stdin: mixed },
  { argv: ['cat', '--show-all', '--squeeze-blank'], stdin: '\n\n\nx\n\n\n' },
  { argv: ['cat', '-s'], stdin: '\n\n\nx' },
  { argv: ['cat', '-A'], stdin: 'dos\r\nline\r\n' },
  { argv: ['cat', '-v'], stdin: binary() },
  { argv: ['cat'], stdin: binary() },
  { argv: ['cat', '-n'], stdin: invalidUtf8() },
  { argv: ['cat', '-u', 'a'], files },
  { argv: ['cat', 'missing'] },
  { argv: ['cat', 'a', 'missing', 'b'], files },
  { argv: ['cat', 'sub'], files: { 'sub/x': 'x' } },
  { argv: ['cat', 'a b', "it's", '#x'] },
  { argv: ['cat', '-k'] },
  { argv: ['cat', '--bogus'] },
  { argv: ['cat', '--num'], stdin: 'x\n' },
  { argv: ['cat', '--help'] },
  { argv: ['cat', '--help', '-k'] },
  { argv: ['cat', '--version'], known: 'the second line names berth instead of the authors' },
]);

describe('cat streaming', () => {
  test('numbers carry across a file without a final newline', async () => {
    const r = await runText(catCommand, ['cat', '-n', 'x', 'y'], { files: { x: 'a', y: 'b\nc\n' } });
    expect(r.stdout).toBe('     1\tab\n     2\tc\n');
  });
  test('passes invalid UTF-8 and NUL bytes through unchanged', async () => {
    const bytes = invalidUtf8();
    const r = await runText(catCommand, ['cat'], { stdin: bytes });
    expect(Buffer.from(r.stdoutBytes).equals(Buffer.from(bytes))).toBe(true);
  });
  test('a reader that goes away ends cat with 141', async () => {
    const r = await runText(catCommand, ['cat'], { stdin: new Uint8Array(1 << 20), maxOutputBytes: 1000 });
    expect(r.status).toBe(141);
  });
});
