import { describe, expect, it } from 'vitest';
import { parseSize } from '../../src/cli/size.js';
import { InvalidArgumentError } from '../../src/errors/index.js';

describe('parseSize', () => {
  it.each([
    ['0', 0],
    ['512', 512],
    ['512b', 512],
    ['64k', 65_536],
    ['64K', 65_536],
    ['64KiB', 65_536],
    ['64kB', 64_000],
    ['10MiB', 10 * 1024 * 1024],
    ['10m', 10 * 1024 * 1024],
    ['10MB', 10_000_000],
    ['1GB', 1_000_000_000],
    ['1GiB', 1024 ** 3],
    ['1.5k', 1536],
    ['2 MiB', 2 * 1024 * 1024],
  ])('%s is %d bytes', (text, bytes) => {
    expect(parseSize(text, '--max-output')).toBe(bytes);
  });

  it.each(['', 'k', '-1k', '10 XB', '10mbit', '1e3', '0x10'])(
    'refuses %j with the accepted forms',
    (text) => {
      expect(() => parseSize(text, '--max-output')).toThrow(InvalidArgumentError);
      expect(() => parseSize(text, '--max-output')).toThrow(
        /--max-output: .* is not a size; use bytes or a number/,
      );
    },
  );

  it('refuses fractions of a byte and overflow', () => {
    expect(() => parseSize('1.5', '--max')).toThrow('--max: "1.5" is not a whole number of bytes');
    expect(() => parseSize('99999999TiB', '--max')).toThrow('--max: "99999999TiB" is too large');
  });
});
