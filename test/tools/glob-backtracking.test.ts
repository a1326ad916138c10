/**
 * The glob attack: one 34-character file name and a pattern of 20 `*` used to freeze the host for
 * minutes (a backtracking regular expression compiled from the pattern). Every place a glob from a
 * model is matched must keep the host's timers on time: the `glob` tool (the context's listFiles)
 * and the built-in grep's `glob` filter.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timerLateness } from '../helpers/timer-lateness.js';
import { openWorkspace, text, type Workspace } from './process-fixture.js';

const NAME = `${'a'.repeat(33)}b`;
/** Both shapes that blew up: a run of stars, and stars between literals (nothing to collapse). */
const PATTERNS = [`${'*'.repeat(20)}z`, `${'*a'.repeat(20)}z`];
/** A frozen loop shows up as seconds of lateness; a loaded machine as tens of milliseconds. */
const MAX_LATENESS_MS = 1000;

describe('glob patterns cannot freeze the host', () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await openWorkspace({ contained: true, tools: { ripgrep: 'never' } });
    writeFileSync(`${ws.dir}/${NAME}`, 'needle\n');
  });
  afterAll(() => ws.dispose());

  for (const pattern of PATTERNS) {
    it(`glob tool: ${pattern} against a ${NAME.length}-character name`, async () => {
      const { result, maxLatenessMs } = await timerLateness(() => ws.call('glob', { pattern }));
      expect(text(result)).toBe(`No files match ${ws.dir}/${pattern}.`);
      expect(maxLatenessMs).toBeLessThan(MAX_LATENESS_MS);
      // The same engine still finds the name when the pattern fits it.
      const fits = await ws.call('glob', { pattern: pattern.replace(/z$/, 'b') });
      expect(text(fits)).toContain(`${ws.dir}/${NAME}`);
    });

    it(`built-in grep's glob filter: ${pattern}`, async () => {
      const { result, maxLatenessMs } = await timerLateness(() =>
        ws.call('grep', { pattern: 'needle', glob: pattern }),
      );
      expect(text(result)).toBe(`No matches in ${ws.dir}.`);
      expect(maxLatenessMs).toBeLessThan(MAX_LATENESS_MS);
      const fits = await ws.call('grep', { pattern: 'needle', glob: pattern.replace(/z$/, 'b') });
      expect(text(fits)).toBe(`1 file with matches:\n${ws.dir}/${NAME}`);
    });
  }

  it('a pattern longer than a path can be is refused, not walked', async () => {
    const result = await ws.call('glob', { pattern: `${'*/'.repeat(3000)}x` });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('more than the 4096 a path can have');
  });
});
