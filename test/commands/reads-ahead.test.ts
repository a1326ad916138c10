// ReadsAhead: how far reads go ahead of a walk, the bound over all lists, take and drop, and a
// failed read kept as a value (never an unhandled rejection).
import { describe, expect, it } from 'vitest';
import { ReadsAhead } from '../../src/commands/reads-ahead.js';

describe('ReadsAhead', () => {
  it('starts at most `ahead` keys from the position and at most `most` in all', () => {
    const started: string[] = [];
    const reads = new ReadsAhead(
      async (key) => {
        started.push(key);
        return key.toUpperCase();
      },
      3,
      5,
    );
    const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    reads.startFrom(keys, 0);
    expect(started).toEqual(['a', 'b', 'c']);
    reads.startFrom(keys, 1); // b and c are already started: only d is new
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    reads.startFrom(keys, 4); // e, then the bound of 5 waiting stops it
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e']);
    reads.drop(['a', 'b']);
    reads.startFrom(keys, 5);
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  });

  it('take hands a started read over once; a failed read is a value', async () => {
    const reads = new ReadsAhead(
      async (key) => {
        if (key === 'bad') throw new Error('no such key');
        return key.length;
      },
      4,
      8,
    );
    reads.startFrom(['good', 'bad'], 0);
    expect(await reads.take('good')).toEqual({ value: 4 });
    expect(reads.take('good')).toBeUndefined();
    const failed = await reads.take('bad');
    expect(failed && 'error' in failed && (failed.error as Error).message).toBe('no such key');
    expect(reads.take('never')).toBeUndefined();
  });
});
