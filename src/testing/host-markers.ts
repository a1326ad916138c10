/**
 * Finding a run's processes on this host by a marker they carry in their argv or environment,
 * through `/proc`. It sees processes in other pid namespaces too (a sandbox, a runc container),
 * whose own pids mean nothing here; it needs the right to read their `environ` (same user, or root).
 * @module
 */
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';

const buffer = Buffer.allocUnsafe(64 * 1024);

/** The first 64 KiB of a `/proc/<pid>/<name>` file, or '' when unreadable. */
function readProcFile(pid: string, name: string): string {
  let fd: number;
  try {
    fd = openSync(`/proc/${pid}/${name}`, 'r');
  } catch {
    return '';
  }
  try {
    return buffer.toString('latin1', 0, readSync(fd, buffer, 0, buffer.length, 0));
  } catch {
    return '';
  } finally {
    closeSync(fd);
  }
}

/** Host pids of live (not zombie) processes whose argv or environment contains `marker`. */
export function pidsWithMarker(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const code = entry.charCodeAt(0);
    if (code < 48 || code > 57 || Number(entry) === process.pid) continue;
    if (!readProcFile(entry, 'cmdline').includes(marker) && !readProcFile(entry, 'environ').includes(marker))
      continue;
    const stat = readProcFile(entry, 'stat');
    const state = stat.charAt(stat.lastIndexOf(')') + 2);
    if (stat !== '' && state !== 'Z' && state !== 'X') pids.push(Number(entry));
  }
  return pids;
}

/** Wait until no process carries `marker`, polling up to `ms`; returns what is left. */
export async function waitForNoMarker(marker: string, ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  let left = pidsWithMarker(marker);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    left = pidsWithMarker(marker);
  }
  return left;
}

/** SIGKILL what a failed run left, so one failure does not leak into the next. */
export function killMarked(marker: string): void {
  for (const pid of pidsWithMarker(marker)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

/** `pid ppid state argv` of a live process, for reports ('pid gone' once it is). */
export function describeProcess(pid: number): string {
  const stat = readProcFile(String(pid), 'stat');
  if (stat === '') return `${pid} gone`;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const argv = readProcFile(String(pid), 'cmdline').split('\0').join(' ').trim().slice(0, 120);
  return `${pid} ppid=${fields[1]} state=${fields[0]} ${argv}`;
}
