import { describe, expect, it } from 'vitest';
import { lineNumberAt, numberLine, splitLines } from '../../src/tools/line-numbers.js';

describe('line numbering', () => {
  it('splits lines without an extra empty last line', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('a\nb')).toEqual(['a', 'b']);
    expect(splitLines('\n\n')).toEqual(['', '']);
  });

  it('formats cat -n style and hides a trailing CR', () => {
    expect(numberLine(7, 'hello\r', 100)).toBe('     7\thello');
    expect(numberLine(1234567, 'x', 100)).toBe('1234567\tx');
  });

  it('cuts a long line and says how much is missing, without splitting a surrogate pair', () => {
    expect(numberLine(1, 'abcdef', 4)).toBe('     1\tabcd… [2 more characters on this line]');
    expect(numberLine(1, 'a😀b', 2)).toBe('     1\ta… [3 more characters on this line]');
  });

  it('finds the line of an index', () => {
    const text = 'ab\ncd\nef';
    expect(lineNumberAt(text, 0)).toBe(1);
    expect(lineNumberAt(text, 2)).toBe(1);
    expect(lineNumberAt(text, 3)).toBe(2);
    expect(lineNumberAt(text, 7)).toBe(3);
  });
});
