import { describe, expect, it } from 'vitest';
import { type GetoptSpec, getopt, hasOption, lastValue } from '../../src/commands/getopt.js';

// Messages are pinned to what GNU coreutils 9.1 / grep 3.8 print (run by hand: `ls --co`, `head -n`).
const ls: GetoptSpec = {
  options: [
    { short: 'a', long: 'all' },
    { long: 'color', argument: 'optional' },
    { short: 'Z', long: 'context' },
    { short: 'w', long: 'width', argument: 'required' },
  ],
};

describe('getopt', () => {
  it('clusters short options, attaches or takes the next word as argument, permutes operands (noting where each option stood)', () => {
    const r = getopt(['x', '-aw80', 'y', '-w', '5', '--', '-a'], ls);
    expect(r).toEqual({
      ok: true,
      options: [
        { key: 'all', value: undefined, spelled: '-a', operandsBefore: 1 },
        { key: 'width', value: '80', spelled: '-w', operandsBefore: 1 },
        { key: 'width', value: '5', spelled: '-w', operandsBefore: 2 },
      ],
      operands: ['x', 'y', '-a'],
    });
    if (r.ok) {
      expect(lastValue(r.options, 'width')).toBe('5');
      expect(hasOption(r.options, 'color')).toBe(false);
    }
  });

  it('abbreviates long options, exact names win, = and next-word arguments', () => {
    expect(getopt(['--wid=3', '--col', '--width', '4'], ls)).toMatchObject({
      ok: true,
      options: [
        { key: 'width', value: '3' },
        { key: 'color', value: undefined },
        { key: 'width', value: '4' },
      ],
    });
  });

  it("prints GNU's diagnostics", () => {
    expect(getopt(['--colr'], ls)).toEqual({ ok: false, message: "unrecognized option '--colr'" });
    expect(getopt(['--co'], ls)).toEqual({
      ok: false,
      message: "option '--co' is ambiguous; possibilities: '--color' '--context'",
    });
    expect(getopt(['-w'], ls)).toEqual({ ok: false, message: "option requires an argument -- 'w'" });
    expect(getopt(['--width'], ls)).toEqual({ ok: false, message: "option '--width' requires an argument" });
    expect(getopt(['--all=x'], ls)).toEqual({
      ok: false,
      message: "option '--all' doesn't allow an argument",
    });
    expect(getopt(['-ak'], ls)).toEqual({ ok: false, message: "invalid option -- 'k'" });
    expect(getopt(['--unknown=1'], ls)).toEqual({ ok: false, message: "unrecognized option '--unknown=1'" });
  });

  it('stops at the first operand when asked; - alone and -5 are operands where configured', () => {
    expect(getopt(['-a', 'cmd', '-a'], { ...ls, stopAtFirstOperand: true })).toMatchObject({
      ok: true,
      operands: ['cmd', '-a'],
    });
    expect(getopt(['-', '-5'], { ...ls, digitsAreOperands: true })).toMatchObject({
      ok: true,
      operands: ['-', '-5'],
    });
    expect(getopt(['-5'], ls)).toEqual({ ok: false, message: "invalid option -- '5'" });
  });
});
