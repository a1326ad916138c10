import { describe, expect, test } from 'vitest';
import { createBytePipe } from '../../../src/commands/byte-pipe.js';
import { BrokenPipeError } from '../../../src/commands/command.js';
import { headCommand } from '../../../src/commands/text/head.js';
import { oracleTable } from './support/oracle-table.js';
import { binary, invalidUtf8, runText } from './support/run-text.js';

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');
const files = { a: `${lines(15)}\n`, b: lines(3), z: 'a\0b\0c\0d' };

oracleTable(headCommand, [
  { argv: ['head'], stdin: `${lines(20)}\n` },
  { argv: ['head'], stdin: '' },
  { argv: ['head', '-n', '3'], stdin: lines(5) },
  { argv: ['head', '-n3', 'b'], files },
  { argv: ['head', '--lines=2', 'a'], files },
  { argv: ['head', '-n', '0', 'a'], files },
  { argv: ['head', '-n', '-3', 'a'], files },
  { argv: ['head', '-n', '-1', 'b'], files },
  { argv: ['head', '-n', '-100', 'a'], files },
  { argv: ['head', '-n', '-0', 'b'], files },
  { argv: ['head', '-c', '5', 'a'], files },
  { argv: ['head', '-c', '-5', 'a'], files },
  { argv: ['head', '-c', '-500', 'a'], files },
  { argv: ['head', '--bytes=1k', 'a'], files },
  { argv: ['head', '-c', '2b'], stdin: 'x'.repeat(2000) },
  { argv: ['head', '-c', '1KiB'], stdin: 'x'.repeat(2000) },
  { argv: ['head', '-c', '1kB'], stdin: 'x'.repeat(2000) },
  { argv: ['head', '-c', 'k'], stdin: 'x'.repeat(2000) },
  { argv: ['head', '-5', 'a'], files },
  { argv: ['head', '-2c', 'a'], files },
  { argv: ['head', '-1k', 'a'], files },
  { argv: ['head', '-3v', 'b'], files },
  { argv: ['head', '-n', '2', 'a', 'b'], files },
  { argv: ['head', '-q', '-n', '2', 'a', 'b'], files },
  { argv: ['head', '--silent', '-n', '2', 'a', '-', 'b'], stdin: 'in\n', files },
  { argv: ['head', '-v', '-n', '1', '-'], stdin: 'in\nmore\n' },
  { argv: ['head', '-v', '-n', '1', 'a'], files },
  { argv: ['head', '-z', '-n', '2', 'z'], files },
  { argv: ['head', '-z', '-n', '-1', 'z'], files },
  { argv: ['head', '-n', '2'], stdin: binary() },
  { argv: ['head', '-n', '3'], stdin: invalidUtf8() },
  { argv: ['head', '-c', '3'], stdin: invalidUtf8() },
  { argv: ['head', '-n', '1'], stdin: `${'y'.repeat(300_000)}\nsecond\n` },
  { argv: ['head', 'missing'] },
  { argv: ['head', 'a', 'missing', 'b'], files },
  { argv: ['head', 'sub'], files: { 'sub/x': 'x' } },
  { argv: ['head', 'a', 'sub'], files: { a: 'a\n', 'sub/x': 'x' } },
  { argv: ['head', '-n', 'x'] },
  { argv: ['head', '-n', '-x'] },
  { argv: ['head', '-c', '1x'] },
  { argv: ['head', '-n', ''] },
  { argv: ['head', '-n', '1e'] },
  { argv: ['head', '-n', '99999999999999999999999'] },
  { argv: ['head', '-n', ' 2'], stdin: lines(5) },
  { argv: ['head', '-n', '+2'], stdin: lines(5) },
  { argv: ['head', '-n'] },
  { argv: ['head', '-k'] },
  { argv: ['head', '--lin=1'], stdin: lines(3) },
  { argv: ['head', '--help'] },
]);

describe('head streaming', () => {
  test('closes its input so an endless producer ends (yes | head)', async () => {
    const pipe = createBytePipe();
    const line = new TextEncoder().encode('y\n'.repeat(4096));
    let producerError: unknown;
    const producer = (async () => {
      try {
        for (;;) await pipe.writer.write(line);
      } catch (error) {
        producerError = error;
      }
    })();
    const r = await runText(headCommand, ['head', '-n', '3'], { stdin: pipe.reader });
    await producer;
    expect(r.stdout).toBe('y\ny\ny\n');
    expect(producerError).toBeInstanceOf(BrokenPipeError);
  });

  test('gives back what it read ahead, so the next reader continues after the last line', async () => {
    const pipe = createBytePipe();
    void pipe.writer.write(new TextEncoder().encode('1\n2\n3\n')).then(() => pipe.writer.close());
    const reader = pipe.reader;
    const shared = {
      read: () => reader.read(),
      unread: (b: Uint8Array) => reader.unread(b),
      data: () => reader.data(),
      close: () => {},
    };
    const r = await runText(headCommand, ['head', '-n', '1'], { stdin: shared });
    expect(r.stdout).toBe('1\n');
    const rest = await reader.read();
    expect(new TextDecoder().decode(rest ?? new Uint8Array())).toBe('2\n3\n');
  });

  test('all but the last lines holds a bounded window', async () => {
    const big = `${lines(200_000)}\n`;
    const r = await runText(headCommand, ['head', '-n', '-2'], { stdin: big });
    expect(r.stdout).toBe(`${lines(199_998)}\n`);
  });
});

oracleTable(headCommand, [
  { argv: ['head', 'a', '-3'], files },
  { argv: ['head', '-n', '2', '-3', 'a'], files },
]);
