// Ending sandboxed commands from the host: prompt, and still through SIGTERM first.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProcessContext, type ProcessContext } from '../../src/contexts/process/index.js';
import { createSandboxPolicy } from '../../src/sandbox/index.js';
import { newSleepMarker } from '../support/process-markers.js';
import { pidsWithMarker, waitFor } from './run-confined.js';

// Longer than any test's deadline: a command that needed the KILL after the grace fails its test by
// timing out, so no test measures wall time to prove the TERM was enough.
const GRACE_MS = 600_000;
const PROMPT_MS = 30_000;
let ws: string;
let context: ProcessContext;

beforeAll(() => {
  ws = realpathSync(mkdtempSync(join(tmpdir(), 'berth-sbx-term-')));
  context = createProcessContext({
    sandbox: createSandboxPolicy({ writableRoots: [ws] }),
    killGraceMs: GRACE_MS,
  });
});

afterAll(async () => {
  await context.close();
  rmSync(ws, { recursive: true, force: true });
});

describe('terminating sandboxed commands', () => {
  it(
    'destroy right after execBackground ends the task long before the kill grace',
    async () => {
      // The TERM lands while bubblewrap is still setting up (SIGTERM ignored there): it must reach the
      // command once the command can take it, not wait for the KILL after the grace period.
      for (let round = 0; round < 8; round++) {
        const marker = newSleepMarker();
        const handle = await context.spawn({ cwd: ws });
        await context.execBackground!(handle, `sleep ${marker}`);
        await context.destroy(handle);
        expect(await waitFor(() => pidsWithMarker(marker).length === 0, 2000)).toBe(true);
      }
    },
    PROMPT_MS,
  );

  it(
    'a timeout that fires while bubblewrap is still starting ends the exec long before the kill grace',
    async () => {
      const handle = await context.spawn({ cwd: ws });
      for (let round = 0; round < 5; round++) {
        const result = await context.exec(handle, 'sleep 300', { timeoutMs: 1 });
        expect(result.timedOut, `round ${round}`).toBe(true);
      }
      await context.destroy(handle);
    },
    PROMPT_MS,
  );

  it("a terminal's /bin/sh exits with the status it was given, its group visible inside the sandbox", async () => {
    if (context.openTerminal === undefined)
      throw new Error('node-pty is not installed: terminals cannot be tested');
    const handle = await context.spawn({ cwd: ws });
    const terminal = await context.openTerminal(handle, { cols: 80, rows: 24, shell: ['/bin/sh', '-i'] });
    let screen = '';
    terminal.onData((chunk) => {
      screen += Buffer.from(chunk).toString('utf8');
    });
    // Job control still holds: the shell leads the terminal's foreground group.
    terminal.write(`echo "fg=$(awk '{print ($5 == $8) ? "yes" : "no"}' /proc/$$/stat)"; exit 3\n`);
    expect(await terminal.exited).toBe(3);
    expect(screen).toContain('fg=yes');
    expect(screen).not.toContain('Cannot set tty process group');
    await context.destroy(handle);
  });

  it(
    'kill() ends a terminal running an interactive sh (which ignores SIGTERM) long before the grace',
    async () => {
      if (context.openTerminal === undefined)
        throw new Error('node-pty is not installed: terminals cannot be tested');
      const handle = await context.spawn({ cwd: ws });
      const marker = newSleepMarker();
      const terminal = await context.openTerminal(handle, { cols: 80, rows: 24, shell: ['/bin/sh', '-i'] });
      let screen = '';
      terminal.onData((chunk) => {
        screen += Buffer.from(chunk).toString('utf8');
      });
      terminal.write(`sleep ${marker} & echo "ready $((40+2))"\n`);
      expect(await waitFor(() => screen.includes('ready 42'), 5000)).toBe(true);
      await terminal.kill();
      expect(await waitFor(() => pidsWithMarker(marker).length === 0, 2000)).toBe(true);
      await context.destroy(handle);
    },
    PROMPT_MS,
  );
});
