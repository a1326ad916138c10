// fnmatch: the compiled matcher (string searches for a pattern of literals and stars, tokens for the
// rest) against an independent oracle, a regular expression built from the same pattern, and the
// cases where a string search would differ from whole code points.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileFnmatch, fnmatch } from '../../src/commands/fnmatch.js';

/** The pattern as an anchored regular expression: `*` any text, `?` one code point, the rest literal. */
function oracle(pattern: string, flags = ''): RegExp {
  let source = '';
  for (const ch of pattern) {
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else source += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, `su${flags}`);
}

const patternChars = fc.constantFrom('a', 'b', '.', '*', '?', 'é', '😀');
const nameChars = fc.constantFrom('a', 'b', '.', 'é', '😀', 'A');

describe('fnmatch', () => {
  it('agrees with a regular expression of the same pattern, with and without stars-only patterns', () => {
    fc.assert(
      fc.property(
        fc.array(patternChars, { maxLength: 8 }).map((a) => a.join('')),
        fc.array(nameChars, { maxLength: 10 }).map((a) => a.join('')),
        (pattern, name) => {
          expect(compileFnmatch(pattern)(name)).toBe(oracle(pattern).test(name));
          expect(fnmatch(pattern, name)).toBe(oracle(pattern).test(name));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('matches the usual find patterns', () => {
    const ts = compileFnmatch('*.ts');
    expect([ts('a.ts'), ts('.ts'), ts('a.tsx'), ts('ts'), ts('a.d.ts')]).toEqual([
      true,
      true,
      false,
      false,
      true,
    ]);
    const mid = compileFnmatch('a*b*a');
    expect([mid('aba'), mid('aa'), mid('abba'), mid('aXbYa'), mid('ab')]).toEqual([
      true,
      false,
      true,
      true,
      false,
    ]);
    // The prefix and the suffix may not overlap: `a*a` needs two a's.
    expect(compileFnmatch('a*a')('a')).toBe(false);
    expect(compileFnmatch('literal')('literal')).toBe(true);
    expect(compileFnmatch('literal')('literally')).toBe(false);
    expect(compileFnmatch('\\*x')('*x')).toBe(true);
    expect(compileFnmatch('\\*x')('ax')).toBe(false);
  });

  it('ignores case when asked, in both matchers', () => {
    expect(compileFnmatch('*.TS', { ignoreCase: true })('Main.ts')).toBe(true);
    expect(compileFnmatch('*.TS')('Main.ts')).toBe(false);
    expect(compileFnmatch('m?in.*', { ignoreCase: true })('MAIN.JS')).toBe(true);
  });

  it('never matches half of a surrogate pair: an escaped byte is not the low half of a character', () => {
    // U+1D480 is D835 DC80; an invalid byte 0x80 in a pattern stands for the lone U+DC80.
    const astral = String.fromCodePoint(0x1d480);
    expect(compileFnmatch('*\uDC80')(astral)).toBe(false);
    expect(compileFnmatch('\uD835*')(astral)).toBe(false);
    expect(compileFnmatch('*\uDC80')(`x\uDC80`)).toBe(true);
    expect(compileFnmatch(`*${astral}`)(`ab${astral}`)).toBe(true);
  });
});
