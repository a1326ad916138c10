/**
 * berth's own version, read from its package.json.
 * @module
 */
import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** The installed package's version (`src/cli` and `dist/cli` both sit two levels below it). */
export function berthVersion(): string {
  if (cached === undefined) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
        version?: unknown;
      };
      cached = typeof pkg.version === 'string' ? pkg.version : 'unknown';
    } catch {
      cached = 'unknown';
    }
  }
  return cached;
}
