/**
 * vitest global setup: tests that run the built CLI (`dist/`) must not test stale code. When a
 * file under `src/` (or the build configuration) is newer than the last build's stamp, build
 * first; otherwise do nothing (a cheap walk of mtimes).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));

function newestMtimeMs(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtimeMs(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function stampMtimeMs(): number {
  try {
    return statSync(join(repo, 'dist/.build-stamp')).mtimeMs;
  } catch {
    return 0;
  }
}

export default function setup(): void {
  const sources = Math.max(
    newestMtimeMs(join(repo, 'src')),
    statSync(join(repo, 'tsconfig.build.json')).mtimeMs,
    statSync(join(repo, 'package.json')).mtimeMs,
  );
  if (sources <= stampMtimeMs()) return;
  process.stderr.write('[berth tests] dist/ is older than src/: building first (npm run build)\n');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] });
}
