/**
 * Finding a test's processes on the host by a unique marker in their argv, through /proc: it works
 * for processes in other pid namespaces (sandbox, container) whose own pids mean nothing here.
 *
 * Every marker made here is remembered until the end of the test that made it; the setup file
 * (`test/support/setup.ts`) then SIGKILLs whatever still carries one, so a test that catches a
 * surviving process does not leave it running for the rest of the suite.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

const live = new Set<string>();
let counter = 0;

/** A marker for argv (`sh -c ': <marker>; ...'`, `sleep 1000 <marker>`-style words). */
export function newMarker(): string {
  const marker = `marker-${randomUUID()}`;
  live.add(marker);
  return marker;
}

/**
 * A marker that is also a number of seconds, for `sleep <marker>` (busybox and coreutils accept a
 * decimal): long, and unique to this process and call.
 */
export function newSleepMarker(): string {
  counter += 1;
  const marker = `9${String(counter).padStart(3, '0')}.${process.pid}${Date.now() % 100000}`;
  live.add(marker);
  return marker;
}

/** Host pids of live (not zombie) processes whose argv contains `marker`, not this process. */
export function pidsWithMarker(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
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

/**
 * Wait until a process carries `marker`, up to `ms`; returns their pids (empty if none came). A
 * command's start is asynchronous (a warm supervisor execs it after the call returned), so a test
 * that looks at once may look too early.
 */
export async function waitForMarker(marker: string, ms = 5000): Promise<number[]> {
  const deadline = Date.now() + ms;
  let found = pidsWithMarker(marker);
  while (found.length === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    found = pidsWithMarker(marker);
  }
  return found;
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

/** SIGKILL every process carrying a marker made since the last call; returns their pids. */
export function killMarkedProcesses(): number[] {
  const killed: number[] = [];
  for (const marker of live) {
    for (const pid of pidsWithMarker(marker)) {
      try {
        process.kill(pid, 'SIGKILL');
        killed.push(pid);
      } catch {
        // already gone
      }
    }
  }
  live.clear();
  return killed;
}
