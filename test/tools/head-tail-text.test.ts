import { describe, expect, it } from 'vitest';
import { countLineBreaks, cutHeadTail, joinCut } from '../../src/tools/head-tail-text.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('cutHeadTail', () => {
  it('returns null when the text fits, including exactly at the budget', () => {
    expect(cutHeadTail('abc', 3)).toBeNull();
    expect(cutHeadTail('', 1)).toBeNull();
  });

  it('keeps at most the budget, split between head and tail, and counts what it dropped', () => {
    const text = 'x'.repeat(1000);
    const cut = cutHeadTail(text, 100)!;
    expect(cut.head.length + cut.tail.length).toBeLessThanOrEqual(100);
    expect(cut.head.length + cut.tail.length + cut.omittedChars).toBe(1000);
    expect(cut.omittedLines).toBe(0);
  });

  it('snaps to line boundaries when one is near', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${String(i).padStart(3, '0')}`);
    const text = `${lines.join('\n')}\n`;
    const cut = cutHeadTail(text, 200)!;
    expect(cut.head.endsWith('\n')).toBe(true);
    expect(cut.tail.startsWith('line ')).toBe(true);
    expect(text.startsWith(cut.head)).toBe(true);
    expect(text.endsWith(cut.tail)).toBe(true);
    expect(cut.omittedLines).toBe(
      countLineBreaks(text.slice(cut.head.length, text.length - cut.tail.length)),
    );
  });

  it('never splits a surrogate pair', () => {
    const text = '😀'.repeat(100); // 200 UTF-16 units
    for (const budget of [3, 7, 11, 51]) {
      const cut = cutHeadTail(text, budget)!;
      expect(LONE_SURROGATE.test(cut.head)).toBe(false);
      expect(LONE_SURROGATE.test(cut.tail)).toBe(false);
      expect(cut.head.length % 2).toBe(0);
      expect(cut.tail.length % 2).toBe(0);
    }
  });

  it('joinCut puts the marker on its own line', () => {
    const cut = cutHeadTail('aaaa-bbbb', 4)!;
    expect(joinCut(cut, '[M]')).toBe(`${cut.head}\n[M]\n${cut.tail}`);
  });
});
