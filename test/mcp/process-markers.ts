/**
 * Finding a test's processes on the host by a unique marker in their argv, through /proc: it works
 * for processes in other pid namespaces (sandbox, container) whose own pids mean nothing here.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

export function newMarker(): string {
  return `marker-${randomUUID()}`;
}

/** Host pids of live (not zombie) processes whose argv contains `marker`. */
export function pidsWithMarker(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmdline.includes(marker)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state !== 'Z' && state !== 'X') pids.push(Number(entry));
    } catch {
      // gone while we looked
    }
  }
  return pids;
}

/** Wait until no process carries `marker`, up to `ms`; returns what is left. */
export async function waitForNoMarker(marker: string, ms = 5000): Promise<number[]> {
  const deadline = Date.now() + ms;
  let left = pidsWithMarker(marker);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = pidsWithMarker(marker);
  }
  return left;
}
