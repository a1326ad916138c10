/**
 * The options every backend's factory takes alike, documented once. A backend's options type
 * extends this and adds (and documents) only its own.
 * @module
 */

/**
 * Timing and size limits shared by the process, Docker, Kubernetes and remote contexts. The
 * virtual context shares all but `killGraceMs` (its own means the time a cancelled script's traps
 * get, as it has no process to signal).
 */
export interface ContextLimitOptions {
  /** `exec` timeout when the call gives none. Default 30000. */
  readonly defaultTimeoutMs?: number | undefined;
  /**
   * Grace between TERM and KILL when a command's process tree is ended (a timeout, an abort, a
   * `kill` or `killBackground`; in the process context `destroy` too, where the container and
   * remote contexts use `destroyGraceMs`). Default 5000. 0 (KILL at once) is accepted by the
   * Docker, Kubernetes and remote contexts and refused by the process context, where the same
   * grace also bounds how long `exec` keeps reading output after the command exits while a
   * descendant holds its pipes: 0 there would cut output still in flight.
   */
  readonly killGraceMs?: number | undefined;
  /** Silence before a background task's `onStall`, when the task gives none. Default 60000. */
  readonly stallMs?: number | undefined;
  /**
   * Cap of a background task's log, when the task gives none: past it the log gets one marker
   * line, later output is counted and dropped, and the task keeps running. Default 64 MiB.
   */
  readonly maxLogBytes?: number | undefined;
  /** Largest file `readFile` / `readFileBytes` return (a larger one is refused). Default 256 MiB. */
  readonly maxReadBytes?: number | undefined;
}
