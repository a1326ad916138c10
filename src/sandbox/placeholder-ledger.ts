/**
 * Who holds which placeholder, across every berth process of this user: one small JSON file per
 * process in berth's private base (`placeholders/<pid>.<start time>.json`), read and rewritten
 * under one lock file. A placeholder may only be removed when no live process holds it: removing a
 * directory that is a mount point in another process's sandbox silently detaches that mount
 * (Linux lazily unmounts it in every namespace), which would lift the protection there. A ledger
 * whose process is gone (killed before its exit hook ran) is swept by the next process that takes
 * the lock, so placeholders do not outlive a crash for long.
 * @module
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  rmdirSync,
  writeSync,
} from 'node:fs';
import { IoError } from '../errors/index.js';
import { type PrivateDirectory, privateBase } from '../subprocess/private-dir.js';
import { isTagAlive, ownProcessTag } from '../subprocess/process-identity.js';

/** One placeholder: the directory berth created, told apart from a later one by its identity. */
export interface PlaceholderEntry {
  readonly dev: string;
  readonly ino: string;
  readonly birthtimeNs: string;
}

type Holdings = Record<string, PlaceholderEntry>;

const LOCK_NAME = '.lock';
/** A lock held longer than this by a live process means something is wrong: fail, do not wait on. */
const LOCK_WAIT_MS = 2000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

let ledgerDir: PrivateDirectory | undefined;

function directory(): PrivateDirectory {
  ledgerDir ??= privateBase().directory('placeholders');
  return ledgerDir;
}

/** This process's ledger name: the pid and its start time, so a reused pid is not mistaken for it. */
export function ownLedgerName(): string {
  return `${ownProcessTag()}.json`;
}

/**
 * Run `work` with the ledgers: every other live process's holdings (merged), and this process's
 * own, which `work` may change and which are written back. Synchronous and short; the lock is a file
 * created exclusively, taken over when its holder is dead.
 */
export function withLedgers<T>(work: (others: Holdings, mine: Holdings) => T): T {
  const dir = directory();
  lock(dir);
  try {
    const others: Holdings = {};
    const dead: { name: string; holdings: Holdings }[] = [];
    const own = ownLedgerName();
    let mine: Holdings = {};
    for (const name of readdirSync(dir.at(''))) {
      if (!name.endsWith('.json')) continue;
      const holdings = readHoldings(dir, name);
      if (name === own) mine = holdings;
      else if (isAlive(name)) Object.assign(others, holdings);
      else dead.push({ name, holdings });
    }
    // Placeholders of processes that died without their exit hook: remove what no one else holds.
    for (const { name, holdings } of dead) {
      for (const [path, entry] of Object.entries(holdings)) {
        if (others[path] === undefined && mine[path] === undefined) removePlaceholder(path, entry);
      }
      dir.removeFile(name);
    }
    const result = work(others, mine);
    writeHoldings(dir, own, mine);
    return result;
  } finally {
    dir.removeFile(LOCK_NAME);
  }
}

/** Remove `path` if it is still the empty directory `entry` describes; anything else stays. */
export function removePlaceholder(path: string, entry: PlaceholderEntry): void {
  try {
    // rmdir refuses a directory that is not empty: whatever someone put there stays theirs.
    const stat = statIdentity(path);
    if (stat !== null && sameEntry(stat, entry)) rmdirSync(path);
  } catch {
    // Not empty, gone already, or not ours: leave it.
  }
}

/** The identity of the directory at `path` (no link followed), or null. */
export function statIdentity(path: string): PlaceholderEntry | null {
  try {
    const stat = lstatSync(path, { bigint: true });
    if (!stat.isDirectory()) return null;
    return { dev: String(stat.dev), ino: String(stat.ino), birthtimeNs: String(stat.birthtimeNs) };
  } catch {
    return null;
  }
}

export function sameEntry(a: PlaceholderEntry, b: PlaceholderEntry): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.birthtimeNs === b.birthtimeNs;
}

function lock(dir: PrivateDirectory): void {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const { fd } = dir.createFile(LOCK_NAME);
      writeSync(fd, ownLedgerName());
      closeSync(fd);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readText(dir, LOCK_NAME);
    if (holder !== null && !isAlive(`${holder}`)) {
      dir.removeFile(LOCK_NAME);
      continue;
    }
    if (Date.now() > deadline) {
      throw new IoError(
        `the placeholder ledger in ${dir.path} stayed locked by ${holder ?? 'another process'} for ${LOCK_WAIT_MS} ms; if no berth process is stuck, remove ${dir.path}/${LOCK_NAME}`,
      );
    }
    Atomics.wait(sleeper, 0, 0, 1);
  }
}

function readHoldings(dir: PrivateDirectory, name: string): Holdings {
  const text = readText(dir, name);
  if (text === null) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Holdings) : {};
  } catch {
    return {};
  }
}

function writeHoldings(dir: PrivateDirectory, name: string, holdings: Holdings): void {
  dir.removeFile(name);
  if (Object.keys(holdings).length === 0) return;
  const { fd } = dir.createFile(name);
  try {
    writeSync(fd, JSON.stringify(holdings));
  } finally {
    closeSync(fd);
  }
}

/** A small file of the ledger directory, read through its descriptor without following links. */
function readText(dir: PrivateDirectory, name: string): string | null {
  let fd: number;
  try {
    fd = openSync(dir.at(name), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const size = Math.min(fstatSync(fd).size, 1 << 20);
    const buffer = Buffer.alloc(size);
    const read = readSync(fd, buffer, 0, size, 0);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** `<pid>.<start>(.json)` names a process that is still running. */
function isAlive(name: string): boolean {
  return isTagAlive(name.replace(/\.json$/, ''));
}
