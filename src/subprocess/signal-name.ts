/**
 * Signal numbers to names, for outcomes reported in Node's `close`-event vocabulary.
 * @module
 */
import { constants } from 'node:os';

const byNumber = new Map<number, NodeJS.Signals>();
for (const [name, number] of Object.entries(constants.signals)) {
  if (!byNumber.has(number)) byNumber.set(number, name as NodeJS.Signals);
}

/** `'SIGKILL'` for 9; `null` for 0, undefined or an unknown number. */
export function signalName(signal: number | undefined): NodeJS.Signals | null {
  if (!signal) return null;
  return byNumber.get(signal) ?? null;
}

/** True when `name` is a signal this platform knows. */
export function isKnownSignal(name: unknown): name is NodeJS.Signals {
  return typeof name === 'string' && Object.hasOwn(constants.signals, name);
}
