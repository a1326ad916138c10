/**
 * berth's ownership labels: every container berth creates carries them, so `sweep()` can find
 * containers whose owning process is gone (a crashed host) and remove them.
 * @module
 */
import { hostname } from 'node:os';

/** Label every berth container carries (value `true`); the filter `sweep()` lists by. */
export const MANAGED_LABEL = 'dev.berth.managed';
/** Host name of the owning process. */
export const OWNER_HOST_LABEL = 'dev.berth.owner.host';
/** Pid of the owning process on that host. */
export const OWNER_PID_LABEL = 'dev.berth.owner.pid';
/** berth's handle id of the container. */
export const HANDLE_LABEL = 'dev.berth.handle';
/** Prefix reserved for berth's own labels; callers may not set keys under it. */
export const RESERVED_LABEL_PREFIX = 'dev.berth.';

/** The labels berth adds to a container created by this process for `handleId`. */
export function ownershipLabels(handleId: string): Record<string, string> {
  return {
    [MANAGED_LABEL]: 'true',
    [OWNER_HOST_LABEL]: hostname(),
    [OWNER_PID_LABEL]: String(process.pid),
    [HANDLE_LABEL]: handleId,
  };
}

/** Whether a process with `pid` exists on this host (EPERM means it exists but is not ours). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether a container with these labels is abandoned: created on this host by a process that no
 * longer runs. Containers of other hosts are never judged abandoned (their owner cannot be seen).
 */
export function isAbandoned(labels: Readonly<Record<string, string>>): boolean {
  if (labels[MANAGED_LABEL] !== 'true') return false;
  if (labels[OWNER_HOST_LABEL] !== hostname()) return false;
  const pid = Number(labels[OWNER_PID_LABEL]);
  if (!Number.isSafeInteger(pid) || pid <= 0) return true;
  if (pid === process.pid) return false;
  return !processAlive(pid);
}
