import { describe, expect, it } from 'vitest';
import { createCooperate } from '../../src/commands/cooperate.js';

describe('createCooperate', () => {
  it('lets a host timer fire during a busy loop that calls it', async () => {
    const cooperate = createCooperate(5);
    let fired = false;
    const timer = setTimeout(() => {
      fired = true;
    }, 1);
    // Busy work that would hold the event loop for good without the yield point.
    for (;;) {
      const p = cooperate();
      if (p !== undefined) await p;
      if (fired) break;
    }
    clearTimeout(timer);
    expect(fired).toBe(true);
  });

  it('returns undefined while the slice lasts', () => {
    const cooperate = createCooperate(60_000);
    expect(cooperate()).toBeUndefined();
  });
});
