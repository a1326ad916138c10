/**
 * The lines berth writes into a background task's log when the log reaches its cap, the same on
 * every backend, so a reader of the log (a person, a model) sees where output stopped and why.
 * @module
 */

/** Written once, when the log reaches `maxLogBytes`; output after it is dropped. */
export function logCapMarker(maxLogBytes: number): string {
  return `\n[berth: the log reached maxLogBytes=${maxLogBytes}; later output is dropped while the task keeps running]\n`;
}

/** Written when a capped log is closed: how much output was dropped in total. */
export function logDroppedNote(droppedBytes: number): string {
  return `[berth: ${droppedBytes} bytes of output were dropped in total]\n`;
}
