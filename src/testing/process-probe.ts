/**
 * Shell fragments that plant descendant processes which report their own pid to a file and then
 * keep a heartbeat file ticking, so the suite can later ask the context itself whether the tree is
 * gone: by `kill -0` through `exec` where pids mean the same to every command, else by watching
 * the heartbeat stop. Checking through the context matters: a container's pids mean nothing on
 * the host, and a sandbox may give every command its own pid namespace.
 * @module
 */
import { shQuote } from '../subprocess/shell-quote.js';

/** Heartbeat period of a planted process, in seconds (as `sleep` takes it). */
export const HEARTBEAT_SECONDS = 0.1;

/**
 * `sh -c` body that records `$$` atomically in `$1`, then writes a counter to `$1.beat` every
 * {@link HEARTBEAT_SECONDS} for at most ~300 s. The shell itself loops, so its command line keeps
 * the pid file's path: the token {@link aliveCommand} checks to tell this process from an
 * unrelated one with the same pid.
 */
const RECORD_AND_BEAT = `echo $$ > "$1.tmp" && mv "$1.tmp" "$1"; i=0; while [ $i -lt 3000 ]; do i=$((i+1)); echo $i > "$1.beat"; sleep ${HEARTBEAT_SECONDS}; done`;

/** The heartbeat file of the process planted with `pidFile`. */
export function heartbeatFile(pidFile: string): string {
  return `${pidFile}.beat`;
}

/** A grandchild (a background `sh`) that writes its pid to `pidFile` and beats. */
export function grandchildCommand(pidFile: string): string {
  return `sh -c ${shQuote(RECORD_AND_BEAT)} berth-probe ${shQuote(pidFile)} &`;
}

/**
 * A descendant orphaned at once: its parent subshell exits, so it is re-parented away from the
 * tree. Only group- or session-wide termination reaches it.
 */
export function orphanCommand(pidFile: string): string {
  return `( sh -c ${shQuote(RECORD_AND_BEAT)} berth-probe ${shQuote(pidFile)} & )`;
}

/** A grandchild that ignores SIGTERM (so does everything it starts): only SIGKILL ends it. */
export function termIgnoringCommand(pidFile: string): string {
  return `sh -c ${shQuote(`trap '' TERM; ${RECORD_AND_BEAT}`)} berth-probe ${shQuote(pidFile)} &`;
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
 * Prints `alive` or `dead` for `pid`. Where `/proc` exists, the process must also carry `token`
 * in its command line (a recycled pid, or the same number in another pid namespace, is not the
 * process the suite planted), and a zombie (exited, not yet reaped) counts as dead.
 */
export function aliveCommand(pid: number, token?: string): string {
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`not a pid: ${pid}`);
  const identity =
    token === undefined
      ? ''
      : `  elif [ -r /proc/${pid}/cmdline ] && ! tr '\\000' '\\n' < /proc/${pid}/cmdline | grep -F -q -e ${shQuote(token)}; then echo dead\n`;
  // The probe's own shell is never the planted process: where each command has a PID namespace of
  // its own, the probe can get the very pid the planted process had in another one.
  return [
    `if [ ${pid} -eq $$ ] || ! kill -0 ${pid} 2>/dev/null; then echo dead`,
    `elif [ -r /proc/${pid}/stat ] && [ "$(sed 's/.*) //' /proc/${pid}/stat | cut -c1)" = Z ]; then echo dead`,
    `${identity}else echo alive; fi`,
  ].join('\n');
}
