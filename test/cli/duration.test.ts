import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../src/cli/duration.js';
import { InvalidArgumentError } from '../../src/errors/index.js';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['1d', 86_400_000],
    ['1.5s', 1500],
    ['1h30m', 5_400_000],
    ['2m30s', 150_000],
    [' 10s ', 10_000],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text, '--timeout')).toBe(ms);
  });

  it('refuses a bare number, naming the ambiguity', () => {
    expect(() => parseDuration('30', '--timeout')).toThrow(InvalidArgumentError);
    expect(() => parseDuration('30', '--timeout')).toThrow(
      '--timeout: "30" has no unit; use a number with a unit: ms, s, m, h or d (e.g. 500ms, 30s, 2m, 1h30m)',
    );
  });

  it.each(['', 'abc', '10 s', '10sec', '-5s', '5s-', 's', '1e3ms', '5S'])('refuses %j', (text) => {
    expect(() => parseDuration(text, '--timeout')).toThrow(/--timeout: .* is not a duration/);
  });

  it('refuses zero and absurd lengths', () => {
    expect(() => parseDuration('0s', '--timeout')).toThrow('--timeout: "0s" must be longer than 0ms');
    expect(() => parseDuration('0.1ms', '--timeout')).toThrow(/must be longer than 0ms/);
    expect(() => parseDuration('100d', '--timeout')).toThrow(/too long/);
  });

  it('carries the field on the error', () => {
    try {
      parseDuration('x', '--grace');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as InvalidArgumentError).field).toBe('--grace');
      expect((error as InvalidArgumentError).code).toBe('E_INVALID_ARGUMENT');
    }
  });
});

describe('formatDuration', () => {
  it.each([
    [850, '850ms'],
    [1234, '1.23s'],
    [12_345, '12.3s'],
    [245_000, '4m05s'],
    [3_720_000, '1h02m'],
  ])('%d ms is %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
