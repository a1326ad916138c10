import { describe, expect, it } from 'vitest';
import { type CommandSpec, formatHelp, parseArgs } from '../../src/cli/args.js';
import { InvalidArgumentError } from '../../src/errors/index.js';

const run: CommandSpec = {
  name: 'berth run',
  summary: 'run a command',
  usage: ['[options] -- CMD [ARG...]'],
  positionals: 'command',
  flags: {
    timeout: { type: 'string', value: 'DURATION', description: 'kill after this long' },
    json: { type: 'boolean', description: 'print the result as JSON' },
    sandbox: { type: 'boolean', negatable: true, description: 'run inside the OS sandbox' },
    env: { type: 'string', repeatable: true, short: 'e', value: 'KEY=VALUE', description: 'set a variable' },
  },
};
const doctor: CommandSpec = {
  name: 'berth doctor',
  summary: 'check',
  usage: [''],
  positionals: 'none',
  flags: {},
};

describe('parseArgs', () => {
  it('reads flags in both forms and the command after --', () => {
    const parsed = parseArgs(['--timeout', '30s', '--json', '--', 'ls', '-la', '--json'], run);
    expect(parsed.flags).toEqual({ timeout: '30s', json: true });
    expect(parsed.positionals).toEqual(['ls', '-la', '--json']);
    expect(parsed.help).toBe(false);
    expect(parseArgs(['--timeout=2m', 'true'], run).flags.timeout).toBe('2m');
  });

  it('stops at the first word of the command, so its flags pass through', () => {
    const parsed = parseArgs(['--json', 'grep', '-r', '--help', 'x'], run);
    expect(parsed.positionals).toEqual(['grep', '-r', '--help', 'x']);
    expect(parsed.help).toBe(false);
  });

  it('reads --no- forms, short aliases and repeated values', () => {
    const parsed = parseArgs(['--no-sandbox', '-e', 'A=1', '--env=B=2', 'env'], run);
    expect(parsed.flags).toEqual({ sandbox: false, env: ['A=1', 'B=2'] });
    expect(parseArgs(['--sandbox'], run).flags.sandbox).toBe(true);
  });

  it('sees --help and -h', () => {
    expect(parseArgs(['--help'], run).help).toBe(true);
    expect(parseArgs(['-h'], doctor).help).toBe(true);
  });

  it('refuses an unknown flag, naming it and where to look', () => {
    expect(() => parseArgs(['--frobnicate', 'ls'], run)).toThrow(InvalidArgumentError);
    expect(() => parseArgs(['--frobnicate', 'ls'], run)).toThrow(
      '--frobnicate: unknown flag for berth run; run `berth run --help` to see its flags',
    );
    expect(() => parseArgs(['-x'], run)).toThrow(/-x: unknown flag/);
    expect(() => parseArgs(['-abc'], run)).toThrow(/-abc: unknown flag/);
    expect(() => parseArgs(['--no-json'], run)).toThrow(/--no-json: unknown flag/);
  });

  it('refuses a missing value, a value on a switch and conflicting repeats', () => {
    expect(() => parseArgs(['--timeout'], run)).toThrow('--timeout: needs a value (DURATION)');
    expect(() => parseArgs(['--timeout', '--', 'ls'], run)).toThrow('--timeout: needs a value (DURATION)');
    expect(() => parseArgs(['--json=yes'], run)).toThrow('--json: is a switch and takes no value');
    expect(() => parseArgs(['--sandbox', '--no-sandbox'], run)).toThrow(
      '--sandbox/--no-sandbox: were both given; give one of them',
    );
    expect(() => parseArgs(['--timeout', '1s', '--timeout', '2s'], run)).toThrow(
      '--timeout: was given twice with different values; give it once',
    );
    expect(() => parseArgs(['--timeout=', 'ls'], run)).toThrow(
      '--timeout: needs a value (DURATION); it was given an empty one',
    );
    expect(() => parseArgs(['--timeout', '', 'ls'], run)).toThrow(/--timeout: needs a value/);
    expect(parseArgs(['--json', '--json'], run).flags.json).toBe(true);
  });

  it('refuses arguments to a command that takes none', () => {
    expect(() => parseArgs(['extra'], doctor)).toThrow(
      '"extra": berth doctor takes no arguments; run `berth doctor --help`',
    );
    expect(() => parseArgs(['--', 'x'], doctor)).toThrow(/takes no arguments after --/);
  });
});

describe('formatHelp', () => {
  it('lists every flag with its forms', () => {
    const help = formatHelp(run);
    expect(help).toContain('berth run - run a command');
    expect(help).toContain('berth run [options] -- CMD [ARG...]');
    expect(help).toMatch(/--timeout DURATION\s+kill after this long/);
    expect(help).toMatch(/--sandbox, --no-sandbox\s+run inside the OS sandbox/);
    expect(help).toMatch(/-e, --env KEY=VALUE\s+set a variable/);
    expect(help).toMatch(/-h, --help\s+show this help/);
  });
});
