/**
 * vitest global setup: every run starts with a supervisor built from the current
 * `native/supervise.c` (a checkout that pulled a change to it without reinstalling would otherwise
 * test a stale binary, or none). Cheap when it is fresh (two stats).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  execFileSync(
    process.execPath,
    [fileURLToPath(new URL('../../scripts/build-supervisor.mjs', import.meta.url)), '--check'],
    {
      stdio: 'inherit',
    },
  );
}
