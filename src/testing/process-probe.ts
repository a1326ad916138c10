/**
 * Shell fragments that plant descendant processes which report their own pid to a file, so the
 * suite can later ask the context itself (`kill -0` through `exec`) whether the tree is gone.
 * Checking through the context matters: a container's pids mean nothing on the host.
 * @module
 */
import { shQuote } from './sh-quote.js';

/** `sh -c` body that records `$$` atomically in `$1`, then becomes `sleep 300`. */
const RECORD_AND_SLEEP = 'echo $$ > "$1.tmp" && mv "$1.tmp" "$1"; exec sleep 300';

/** A grandchild (background `sh` → `sleep`) that writes its pid to `pidFile`. */
export function grandchildCommand(pidFile: string): string {
  return `sh -c ${shQuote(RECORD_AND_SLEEP)} berth-probe ${shQuote(pidFile)} &`;
}

/**
 * A descendant orphaned at once: its parent subshell exits, so it is re-parented away from the
 * tree. Only group- or session-wide termination reaches it.
 */
export function orphanCommand(pidFile: string): string {
  return `( sh -c ${shQuote(RECORD_AND_SLEEP)} berth-probe ${shQuote(pidFile)} & )`;
}

/** A grandchild that ignores SIGTERM (so does everything it starts): only SIGKILL ends it. */
export function termIgnoringCommand(pidFile: string): string {
  const body = `trap '' TERM; echo $$ > "$1.tmp" && mv "$1.tmp" "$1"; while :; do sleep 1; done`;
  return `sh -c ${shQuote(body)} berth-probe ${shQuote(pidFile)} &`;
}

/** Blocks until `path` exists and is non-empty. */
export function waitForFileCommand(path: string): string {
  return `while [ ! -s ${shQuote(path)} ]; do sleep 0.05; done`;
}

/** Blocks until `path` exists: the "gate" the test opens to let a command proceed. */
export function gateCommand(path: string): string {
  return `while [ ! -e ${shQuote(path)} ]; do sleep 0.05; done`;
}

/**
 * Prints `alive` or `dead` for `pid`. A zombie (exited, not yet reaped by its new parent) counts as
 * dead: it runs nothing and holds nothing but its table slot.
 */
export function aliveCommand(pid: number): string {
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`not a pid: ${pid}`);
  return [
    `if kill -0 ${pid} 2>/dev/null; then`,
    `  if [ -r /proc/${pid}/stat ] && [ "$(sed 's/.*) //' /proc/${pid}/stat | cut -c1)" = Z ]; then echo dead; else echo alive; fi`,
    'else echo dead; fi',
  ].join('\n');
}
