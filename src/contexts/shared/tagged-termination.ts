/**
 * How berth finds and ends a command's processes inside a container or a pod. Neither the Docker
 * engine nor the Kubernetes API can signal an exec'd process, so every command berth starts
 * carries a unique environment tag (`BERTH_EXEC=<tag>`) that all its descendants inherit.
 * Termination is a second exec running a small POSIX sh script that scans `/proc/<pid>/environ`
 * for the tag, signals each tagged process and its process group (TERM), polls, escalates to KILL
 * after the grace period, and exits 0 only once no tagged process remains: termination is
 * verified, not assumed.
 * @module
 */
import { randomBytes } from 'node:crypto';

/** Environment variable carrying the tag. */
export const EXEC_TAG_ENV = 'BERTH_EXEC';

/** Poll interval of the termination script, in ms. */
export const TERMINATION_TICK_MS = 50;

/** A fresh tag: 96 random bits, hex. */
export function newExecTag(): string {
  return randomBytes(12).toString('hex');
}

/** `NAME=value` entry that tags a command. */
export function tagEnv(tag: string): string {
  return `${EXEC_TAG_ENV}=${tag}`;
}

// $1 = tag entry, $2 = signal first, $3 = grace ticks before KILL, $4 = ticks before giving up.
// A process's group comes from /proc/<pid>/stat after the ") " that closes its (free-form) name.
const SCRIPT = `t="$1"; first="$2"; grace="$3"; limit="$4"
tagged() { grep -las -- "$t" /proc/[0-9]*/environ 2>/dev/null | sed 's,^/proc/,,;s,/environ$,,'; }
send() {
  for p in $(tagged); do
    g=$(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null | cut -d' ' -f3)
    if [ -n "$g" ] && [ "$g" -gt 1 ]; then kill -"$1" -"$g" 2>/dev/null; fi
    kill -"$1" "$p" 2>/dev/null
  done
}
left=$(tagged); [ -z "$left" ] && exit 0
send "$first"
i=0
while left=$(tagged); [ -n "$left" ]; do
  if [ "$i" -ge "$grace" ]; then send KILL; fi
  if [ "$i" -ge "$limit" ]; then echo "still running after KILL: $left" >&2; exit 1; fi
  sleep 0.05
  i=$((i + 1))
done
exit 0`;

/**
 * argv of the termination exec.
 * @param signal - first signal, `TERM` by default.
 * @param graceMs - wait before escalating to KILL.
 * @param giveUpMs - extra wait after KILL before reporting survivors (exit 1).
 */
export function terminationArgv(tag: string, graceMs: number, giveUpMs = 5000, signal = 'TERM'): string[] {
  const graceTicks = Math.max(0, Math.ceil(graceMs / TERMINATION_TICK_MS));
  const limitTicks = graceTicks + Math.max(1, Math.ceil(giveUpMs / TERMINATION_TICK_MS));
  return [
    '/bin/sh',
    '-c',
    SCRIPT,
    'berth-terminate',
    tagEnv(tag),
    signal,
    String(graceTicks),
    String(limitTicks),
  ];
}

/** argv of a probe that prints the in-container pids carrying `tag`, one a line. */
export function taggedPidsArgv(tag: string): string[] {
  return [
    '/bin/sh',
    '-c',
    `grep -las -- "$1" /proc/[0-9]*/environ 2>/dev/null | sed 's,^/proc/,,;s,/environ$,,'`,
    'berth-tagged',
    tagEnv(tag),
  ];
}
