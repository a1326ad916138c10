/**
 * Who is using a session: one process at a time writes a session's changes (a server with the
 * workspace open, or a person's `berth commit` while none runs). The owner is recorded in
 * `owner.json`, created exclusively; an owner whose process is gone (killed, crashed) is stale and
 * is taken over, so a session survives a SIGKILL of the process that held it.
 * @module
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BerthError, IoError } from '../../../errors/index.js';
import type { SessionEntry } from './session-store.js';

/** What `owner.json` holds. */
export interface SessionOwner {
  readonly pid: number;
  /** `server`: a process serving the session (it answers on `socket`); `review`: a one-off commit. */
  readonly kind: 'server' | 'review';
  /** The control socket of a server. */
  readonly socket: string | null;
  readonly startedAt: string;
}

/** A held ownership; `release` is idempotent. */
export interface OwnershipLease {
  readonly owner: SessionOwner;
  release(): void;
}

function ownerPath(session: SessionEntry): string {
  return join(session.directory, 'owner.json');
}

/** The live owner of a session, or null (none, or one whose process is gone). */
export function liveOwner(session: SessionEntry): SessionOwner | null {
  let owner: SessionOwner;
  try {
    owner = JSON.parse(readFileSync(ownerPath(session), 'utf8')) as SessionOwner;
  } catch {
    return null;
  }
  return typeof owner?.pid === 'number' && processAlive(owner.pid) ? owner : null;
}

/**
 * Become the session's owner.
 * @throws BerthError `E_IO` naming the live owner when another process holds the session.
 */
export function takeOwnership(
  session: SessionEntry,
  kind: SessionOwner['kind'],
  socket: string | null,
): OwnershipLease {
  const owner: SessionOwner = { pid: process.pid, kind, socket, startedAt: new Date().toISOString() };
  const path = ownerPath(session);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, `${JSON.stringify(owner)}\n`, { flag: 'wx', mode: 0o600 });
      let released = false;
      return {
        owner,
        release: () => {
          if (released) return;
          released = true;
          // Only our own record: a stale-owner takeover may have replaced it meanwhile.
          if (liveOwnerRecord(path)?.pid === process.pid) rmSync(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const current = liveOwner(session);
    if (current !== null) throw inUse(session, current);
    rmSync(path, { force: true }); // stale: its process is gone
  }
  throw new IoError(`session ${session.id}: could not take it over from a stale owner; try again`);
}

function liveOwnerRecord(path: string): SessionOwner | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as SessionOwner;
  } catch {
    return null;
  }
}

function inUse(session: SessionEntry, owner: SessionOwner): BerthError {
  const what = owner.kind === 'server' ? 'served by' : 'being committed or discarded by';
  return new IoError(
    `session ${session.id}${session.name ? ` (${session.name})` : ''} is ${what} process ${owner.pid} since ${owner.startedAt}; stop that process first, or review it through it (berth changes --session ${session.id})`,
  );
}

/** Whether a process with this pid exists (EPERM: it does, owned by another user). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
