/**
 * berth's ownership marks on a pod: labels to select by (managed, the handle, the owning process's
 * random owner id) and annotations that say who owns it and that the owner is alive (a heartbeat
 * the owner renews). `sweep()` deletes pods whose owner is gone: on this host, a dead owner pid;
 * anywhere, a heartbeat older than three of its intervals.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** Label every berth pod carries (value `true`); the selector `sweep()` lists by. */
export const MANAGED_LABEL = 'berth.dev/managed';
/** berth's handle id of the pod. */
export const HANDLE_LABEL = 'berth.dev/handle';
/** Random id of the owning process (one per process), so a context can select its own pods. */
export const OWNER_LABEL = 'berth.dev/owner';
/** Host name of the owning process (an annotation: host names can exceed a label's 63 bytes). */
export const OWNER_HOST_ANNOTATION = 'berth.dev/owner-host';
/** Pid of the owning process on that host. */
export const OWNER_PID_ANNOTATION = 'berth.dev/owner-pid';
/** When the owner last said it is alive (ISO 8601). */
export const HEARTBEAT_ANNOTATION = 'berth.dev/heartbeat';
/** How often the owner renews the heartbeat, in ms (so any sweeper can judge staleness). */
export const HEARTBEAT_INTERVAL_ANNOTATION = 'berth.dev/heartbeat-interval-ms';
/** Prefix reserved for berth's own labels and annotations. */
export const RESERVED_PREFIX = 'berth.dev/';

/** This process's owner id: random, so two processes with one pid on two hosts never collide. */
export const OWNER_ID = randomBytes(8).toString('hex');

/** Labels of a pod this process creates for `handleId`. */
export function ownershipLabels(handleId: string): Record<string, string> {
  return { [MANAGED_LABEL]: 'true', [HANDLE_LABEL]: handleId, [OWNER_LABEL]: OWNER_ID };
}

/** Annotations of a pod this process creates, with a fresh heartbeat. */
export function ownershipAnnotations(heartbeatIntervalMs: number, now = new Date()): Record<string, string> {
  return {
    [OWNER_HOST_ANNOTATION]: hostname(),
    [OWNER_PID_ANNOTATION]: String(process.pid),
    [HEARTBEAT_ANNOTATION]: now.toISOString(),
    [HEARTBEAT_INTERVAL_ANNOTATION]: String(heartbeatIntervalMs),
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

/** Heartbeats missed before a pod counts as abandoned. */
export const MISSED_HEARTBEATS = 3;

/**
 * Whether a pod with these labels and annotations is abandoned: berth's, not this process's, and
 * either owned by a dead process on this host or with a heartbeat older than
 * {@link MISSED_HEARTBEATS} intervals (a pod without a readable heartbeat counts as stale).
 */
export function isAbandoned(
  labels: Readonly<Record<string, string>>,
  annotations: Readonly<Record<string, string>>,
  now = Date.now(),
): boolean {
  if (labels[MANAGED_LABEL] !== 'true') return false;
  if (labels[OWNER_LABEL] === OWNER_ID) return false;
  if (annotations[OWNER_HOST_ANNOTATION] === hostname()) {
    const pid = Number(annotations[OWNER_PID_ANNOTATION]);
    if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && !processAlive(pid)) return true;
  }
  const beat = Date.parse(annotations[HEARTBEAT_ANNOTATION] ?? '');
  const interval = Number(annotations[HEARTBEAT_INTERVAL_ANNOTATION]);
  if (!Number.isFinite(beat) || !Number.isFinite(interval) || interval <= 0) return true;
  return now - beat > MISSED_HEARTBEATS * interval;
}
