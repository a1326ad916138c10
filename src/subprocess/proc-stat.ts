/**
 * Reading the kernel's process table from `/proc` (Linux). The tree walk needs, per process: its
 * parent, group, session, controlling terminal's foreground group, state and start time (the start
 * time tells a live process from a later one that reused its pid).
 * @module
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';

/** The fields of `/proc/<pid>/stat` berth uses. */
export interface ProcStat {
  readonly pid: number;
  /** Executable name as the kernel reports it (at most 15 bytes). */
  readonly comm: string;
  /** One-letter state: R, S, D, Z (zombie), T (stopped), X (dead), … */
  readonly state: string;
  readonly ppid: number;
  readonly pgrp: number;
  readonly session: number;
  /** Foreground process group of the controlling terminal; -1 without a terminal. */
  readonly tpgid: number;
  /** Start time in clock ticks since boot; with `pid`, a process identity that survives pid reuse. */
  readonly startTime: number;
  /**
   * A zombie's status as `waitpid` reports it (field 52, Linux 3.5+); the kernel shows it only to a
   * reader allowed to trace the process, and 0 to others.
   */
  readonly waitStatus?: number | undefined;
}

/** True when `/proc` is available to walk (Linux). */
export const procAvailable: boolean = (() => {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
})();

/** Parse one `/proc/<pid>/stat` line; `undefined` when malformed. */
export function parseProcStat(line: string): ProcStat | undefined {
  // comm may hold spaces and parentheses: it runs from the first '(' to the LAST ')'.
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const rest = line.slice(close + 2).split(' ');
  // rest[0] is field 3 (state); field N is rest[N - 3].
  if (rest.length < 20) return undefined;
  return {
    pid: Number(line.slice(0, open).trim()),
    comm: line.slice(open + 1, close),
    state: rest[0]!,
    ppid: Number(rest[1]),
    pgrp: Number(rest[2]),
    session: Number(rest[3]),
    tpgid: Number(rest[5]),
    startTime: Number(rest[19]),
    waitStatus: rest.length > 49 ? Number(rest[49]) : undefined,
  };
}

// One reusable buffer: a stat line is well under 1 KiB, and open+read+close skips the fstat and
// the allocation readFileSync pays, which halves the cost of a full scan.
const statBuffer = Buffer.allocUnsafe(4096);

/** Stat of one process, or `undefined` when it does not exist (or `/proc` is unavailable). */
export function readProcStat(pid: number): ProcStat | undefined {
  let fd: number;
  try {
    fd = openSync(`/proc/${pid}/stat`, 'r');
  } catch {
    return undefined;
  }
  try {
    const length = readSync(fd, statBuffer, 0, statBuffer.length, 0);
    return parseProcStat(statBuffer.toString('latin1', 0, length));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Stat of every process visible in `/proc`; processes that vanish mid-scan are skipped. */
export function scanProcesses(): ProcStat[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: ProcStat[] = [];
  for (const name of names) {
    const code = name.charCodeAt(0);
    if (code < 48 || code > 57) continue;
    const stat = readProcStat(Number(name));
    if (stat) out.push(stat);
  }
  return out;
}

let lastScan: { readonly at: number; readonly stats: ProcStat[] } | undefined;

/**
 * {@link scanProcesses}, reusing a scan taken within the last `maxAgeMs` (default 2 ms). Many trees
 * terminating at once (a context's dispose) then share one walk of `/proc` per poll instead of
 * each paying for its own.
 */
export function scanProcessesShared(maxAgeMs = 2): ProcStat[] {
  const now = performance.now();
  if (lastScan && now - lastScan.at <= maxAgeMs) return lastScan.stats;
  const stats = scanProcesses();
  lastScan = { at: performance.now(), stats };
  scans++;
  return stats;
}

let scans = 0;

/** How many walks {@link scanProcessesShared} has made; tells a caller whether its read was fresh. */
export function sharedScanCount(): number {
  return scans;
}

/** True for a process that can no longer run: a zombie awaiting its reaper, or dead. */
export function isDefunct(stat: ProcStat): boolean {
  return stat.state === 'Z' || stat.state === 'X' || stat.state === 'x';
}

/**
 * True when `pid` ignores signal number `signo` (1-32), from the `SigIgn` mask in
 * `/proc/<pid>/status`; `undefined` when the process is gone or the mask unreadable.
 */
export function ignoresSignal(pid: number, signo: number): boolean | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'latin1');
  } catch {
    return undefined;
  }
  const at = text.indexOf('\nSigIgn:\t');
  if (at < 0) return undefined;
  const hex = text.slice(at + 9, at + 25);
  const low = Number.parseInt(hex.slice(-8), 16);
  if (!Number.isFinite(low)) return undefined;
  return (low & (1 << (signo - 1))) !== 0;
}
