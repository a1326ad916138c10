/**
 * What every text command shares: a directory or a missing file as an operand is reported as the
 * real tool reports it, and a reader that goes away ends the command quietly with status 141 (a
 * GNU tool dies of SIGPIPE).
 */
import { describe, expect, test } from 'vitest';
import { textCommands } from '../../../src/commands/text/index.js';
import { oracleTable } from './support/oracle-table.js';
import { runText } from './support/run-text.js';

const spec = (name: string) => {
  const s = textCommands.find((c) => c.name === name);
  if (s === undefined) throw new Error(name);
  return s;
};
const files = { 'sub/x': 'x', ok: 'a\nb\n' };

const dirCases: [string, string[]][] = [
  ['paste', ['sub']],
  ['comm', ['sub', 'ok']],
  ['join', ['sub', 'ok']],
  ['expand', ['sub']],
  ['unexpand', ['sub']],
  ['nl', ['sub']],
  ['od', ['sub']],
  ['fold', ['sub']],
  ['rev', ['sub']],
  ['fmt', ['sub']],
  ['shuf', ['sub']],
  ['split', ['sub']],
  ['sort', ['ok', 'sub']],
  ['tac', ['ok', 'sub']],
  ['wc', ['-l', 'sub', 'ok']],
  ['cut', ['-c1', 'ok', 'sub']],
  ['head', ['-n1', 'ok', 'sub']],
  ['tail', ['-n1', 'ok', 'sub']],
  ['cat', ['ok', 'sub', 'ok']],
  ['uniq', ['sub']],
  ['tee', ['sub']],
];
for (const [name, args] of dirCases) {
  oracleTable(spec(name), [{ argv: [name, ...args], files, stdin: 'in\n' }]);
}

describe('a reader that goes away ends the command with 141', () => {
  const big = Array.from({ length: 40_000 }, (_, i) => `line ${i} of text with\ttabs and words\n`).join('');
  const cases: [string, string[]][] = [
    ['cat', []],
    ['cat', ['-n']],
    ['cut', ['-b', '1-5']],
    ['tr', ['a-z', 'A-Z']],
    ['uniq', ['-c']],
    ['fold', ['-w', '7']],
    ['rev', []],
    ['paste', ['-', '-']],
    ['nl', []],
    ['expand', []],
    ['unexpand', ['-a']],
    ['od', []],
    ['xxd', []],
    ['hexdump', ['-C']],
    ['strings', []],
    ['tee', []],
    ['sort', []],
    ['tac', []],
    ['fmt', []],
    ['column', ['-t']],
    ['numfmt', ['--invalid=ignore']],
    ['head', ['-n', '-1']],
    ['tail', ['-n', '+2']],
    ['seq', ['1000000']],
    ['yes', []],
    ['printf', ['%s\\n', ...Array.from({ length: 2000 }, (_, i) => `argument ${i}`)]],
  ];
  for (const [name, args] of cases) {
    test(`${name} ${args.slice(0, 3).join(' ')}`, async () => {
      const r = await runText(spec(name), [name, ...args], { stdin: big, maxOutputBytes: 1000 });
      expect(r.status).toBe(141);
      expect(r.stderr).toBe('');
    });
  }
});

describe('input past what a command may hold', () => {
  test('a line longer than the line limit ends the command with a clear message', async () => {
    const { InputTooLargeError } = await import('../../../src/commands/byte-io.js');
    const failing = {
      read: async (): Promise<Uint8Array | null> => {
        throw new InputTooLargeError(1024);
      },
      unread: () => {},
      data: async () => undefined,
      close: () => {},
    };
    const r = await runText(spec('cut'), ['cut', '-c1'], { stdin: failing });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('cut: input exceeds the memory limit of 1024 bytes\n');
  });
});
