/**
 * Helpers the background sections share: the bound background methods, list lookups, and an
 * onExit recorder.
 * @module
 */
import type {
  BackgroundExit,
  BackgroundTaskInfo,
  ContextHandle,
  ExecutionContext,
} from '../../contract/types.js';
import { waitUntil } from '../wait-until.js';

export type Background = Required<
  Pick<
    ExecutionContext,
    'execBackground' | 'listBackground' | 'killBackground' | 'waitBackground' | 'reassignBackground'
  >
>;

/** The background methods, bound; throws if one is missing (the shape case says which). */
export function background(context: ExecutionContext): Background {
  const { execBackground, listBackground, killBackground, waitBackground, reassignBackground } = context;
  if (!execBackground || !listBackground || !killBackground || !waitBackground || !reassignBackground) {
    throw new Error('capabilities.background is true but a background method is missing');
  }
  return {
    execBackground: execBackground.bind(context),
    listBackground: listBackground.bind(context),
    killBackground: killBackground.bind(context),
    waitBackground: waitBackground.bind(context),
    reassignBackground: reassignBackground.bind(context),
  };
}

/** The task `id` as `handle` lists it, if it does. */
export async function entry(
  bg: Background,
  handle: ContextHandle,
  id: string,
): Promise<BackgroundTaskInfo | undefined> {
  return (await bg.listBackground(handle)).find((task) => task.id === id);
}

/** Records onExit calls and lets a test wait for the first. */
export function exitRecorder(): {
  calls: BackgroundExit[];
  onExit: (exit: BackgroundExit) => void;
  first: () => Promise<BackgroundExit>;
} {
  const calls: BackgroundExit[] = [];
  return {
    calls,
    onExit: (exit) => calls.push(exit),
    first: () => waitUntil('onExit to be called', () => calls[0]),
  };
}

/** Time given to a callback that must NOT fire, after the event that would have fired it. */
export const QUIET_MS = 300;
