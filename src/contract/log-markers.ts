/**
 * The lines berth writes into a background task's log when the log reaches its cap, the same on
 * every backend, so a reader of the log (a person, a model) sees where output stopped and why.
 * @module
 */

/** Written once, when the log reaches `maxLogBytes`; output after it is dropped. */
export function logCapMarker(maxLogBytes: number): string {
  return `\n[berth: the log reached maxLogBytes=${maxLogBytes}; later output is dropped while the task keeps running]\n`;
}

/** The closing note as a printf format (`%s`: the dropped bytes), for logs written by a shell script. */
export const LOG_DROPPED_NOTE_FORMAT = '[berth: %s bytes of output were dropped in total]\\n';

/** Written when a capped log is closed: how much output was dropped in total. */
export function logDroppedNote(droppedBytes: number): string {
  return LOG_DROPPED_NOTE_FORMAT.replace('%s', String(droppedBytes)).replace('\\n', '\n');
}
