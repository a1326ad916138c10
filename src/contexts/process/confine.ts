/**
 * Wiring the OS sandbox in: every argv goes through `confineCommand` when a policy is set. A
 * command the sandbox cannot confine is never run; the caller reports the refusal instead.
 * @module
 */
import { constants } from 'node:os';
import { confineCommand, confineWithBubblewrap } from '../../sandbox/index.js';
import type { SandboxPolicy } from '../../sandbox/types.js';
import type { SubprocessOutcome } from '../../subprocess/types.js';
import { isWithin } from '../../vfs/path-scope.js';
import type { OverlaySession } from './overlay-session.js';
import type { SandboxSession } from './sandbox-session.js';

/** What to spawn: the argv (possibly wrapped) and extra environment the sandbox needs. */
export type Confined =
  | {
      readonly ok: true;
      readonly argv: readonly string[];
      readonly env: Readonly<Record<string, string>> | undefined;
      /**
       * Where the host starts it: the command's own directory, except in a workspace overlay,
       * where that may exist only in the merged view (bubblewrap changes into it there).
       */
      readonly spawnCwd: string;
      /** Call once the command has exited, or when it is not spawned after all (idempotent). */
      readonly release: () => void;
      /** The command's real outcome: a signal death the sandbox folded into 128+N named again. */
      readonly settle: <T extends SubprocessOutcome>(outcome: T) => T;
    }
  | { readonly ok: false; readonly reason: string; readonly fix: string; readonly message: string };

/** Where the handle's commands run besides the policy: its workspace overlay, its sandbox session. */
export interface Placement {
  readonly overlay?: OverlaySession | undefined;
  readonly session?: SandboxSession | undefined;
}

/**
 * Apply `policy` (when set) to `argv`; with a workspace `overlay`, inside its mount namespace, the
 * workspace bound writable as the merged view it is there; with a `session`, in its namespaces.
 * @throws SandboxUnavailableError when the handle's overlay or session is gone.
 */
export function confine(
  policy: SandboxPolicy | undefined,
  argv: readonly string[],
  cwd: string,
  terminal = false,
  { overlay, session }: Placement = {},
): Confined {
  if (!policy) {
    return { ok: true, argv, env: undefined, spawnCwd: cwd, release: () => {}, settle: (outcome) => outcome };
  }
  let result: ReturnType<typeof confineCommand>;
  if (session) {
    result = confineWithBubblewrap(policy, argv, { cwd, terminal }, { session: session.entry() });
  } else if (overlay) {
    // Roots inside the workspace are part of the merged view; the merged view has no read-only
    // names (nothing reaches the host before a reviewed commit).
    const rest = policy.writableRoots.filter((root) => !isWithin(overlay.workspace, root));
    result = confineWithBubblewrap(
      { ...policy, writableRoots: rest },
      argv,
      { cwd, terminal },
      { mergedRoots: [overlay.workspace], args: overlay.bwrapIdentity() },
    );
    if (result.ok) result = { ...result, argv: [...overlay.enterPrefix(), ...result.argv] };
  } else {
    result = confineCommand(policy, argv, { cwd, terminal });
  }
  if (result.ok) {
    // The waiter's record is read once, before release() removes it (release runs first when the
    // caller attaches its own handler to the same promise later).
    let read = false;
    let signal: NodeJS.Signals | null = null;
    const recorded = () => {
      if (!read) {
        read = true;
        signal = result.waitSignal?.() ?? null;
      }
      return signal;
    };
    return {
      ok: true,
      argv: result.argv,
      env: result.env,
      spawnCwd: overlay && !session && isWithin(overlay.workspace, cwd) ? overlay.workspace : cwd,
      release: () => {
        recorded();
        result.release();
      },
      settle: (outcome) => unfold(outcome, recorded()),
    };
  }
  return {
    ok: false,
    reason: result.reason,
    fix: result.fix,
    message: `berth: sandbox unavailable: ${result.reason}. ${result.fix}\n`,
  };
}

/**
 * Start a confined command and release what its sandbox holds (placeholders of missing protected
 * names) once its tree is gone, or at once when it cannot be started.
 */
export async function startConfined<T extends { readonly done: Promise<unknown> }>(
  confined: { readonly release: () => void },
  start: () => T | Promise<T>,
): Promise<T> {
  let started: T;
  try {
    started = await start();
  } catch (error) {
    confined.release();
    throw error;
  }
  void started.done.then(confined.release, confined.release);
  return started;
}

/** Exit code reported for a command the sandbox refused (as a shell reports "cannot run"). */
export const SANDBOX_REFUSED_EXIT_CODE = 127;

/** `outcome` with an exit code of 128+N reported as signal N when the waiter recorded that signal. */
function unfold<T extends SubprocessOutcome>(outcome: T, signal: NodeJS.Signals | null): T {
  if (signal === null || outcome.signal !== null || outcome.exitCode !== 128 + constants.signals[signal]) {
    return outcome;
  }
  return { ...outcome, exitCode: null, signal };
}
