/**
 * The abstract subprocess seam. A backend subclasses it; its TSDoc is the checklist every
 * implementation must honor (and is tested against).
 * @module
 */
import type {
  SubprocessHandle,
  SubprocessSpawnSpec,
  SubprocessTerminalHandle,
  SubprocessTerminalSpawnSpec,
} from './types.js';

/**
 * One execution world's process primitive. Implementations must honor all of these:
 *
 * - **One execution world.** Executable paths, `cwd`, plain processes and terminals live in the
 *   same path and process namespace as the filesystem provider mounted beside this runtime.
 * - **No defaults.** Every disposition, limit and directory comes from the spec. A missing or
 *   invalid field throws `InvalidArgumentError` naming it (`stdio.stdout.maxBytes`); argv is never
 *   shell-interpreted.
 * - **Immediate handle.** `spawn` returns a live handle at once; `done` resolves at process close
 *   with exit facts only, and rejects only with `SpawnError` when the process could not be started
 *   (then `pid` is -1).
 * - **Bounded, non-consuming collection.** Collect-mode readers take whole-stream byte offsets and
 *   never consume, so independent readers cannot steal each other's output; a read whose offset
 *   slid out of memory is `lossy` and names the spill file when one holds the complete stream.
 *   Text never splits a UTF-8 code point. Memory per stream never exceeds its `maxBytes`. Piped
 *   streams are handed to the caller raw and never buffered here.
 * - **One termination verb, tree-scoped.** `terminate()` (and the spec's abort signal) escalates
 *   SIGTERM → `graceMs` → SIGKILL over the whole tree, is idempotent, and is a no-op once the tree
 *   is gone. `waitForExit()` observes the whole tree, not just the root. A descendant holding a
 *   collected pipe open cannot hold `done` past `graceMs` after the root exits.
 * - **Secrets stay out.** The child environment is the scrubbed parent environment plus explicit
 *   entries; `undefined` entries are tombstones.
 * - **Owned teardown.** `dispose()` terminates every still-running tree, awaits its exit, and
 *   removes spill files not marked `keep`. The host exiting kills every live tree.
 * - **Terminals.** `spawnTerminal` owns terminal allocation, byte transport, foreground groups,
 *   signalling and whole-session quiescence behind one awaited `terminate()`; its output ends
 *   after queued output once the top-level process exits.
 */
export abstract class SubprocessRuntime {
  /**
   * Resolve one executable in this runtime's execution world. Absolute paths are verified; bare
   * names use the runtime's scrubbed PATH plus explicit overrides. Relative paths containing a
   * separator are rejected: their base is undefined, so the runtime fails loud instead of guessing.
   * @param command - absolute executable path or bare PATH name.
   * @param env - explicit environment entries used for lookup (`PATH`).
   * @param signal - aborts the lookup.
   * @returns a canonical executable path.
   */
  abstract resolveExecutable(
    command: string,
    env?: Readonly<Record<string, string>>,
    signal?: AbortSignal,
  ): Promise<string>;

  /**
   * Start one managed child process from a fully specified spec.
   * @param spec - argv, cwd, stdio dispositions, grace, cancellation and environment.
   * @returns the live handle (streams, readers, termination, outcome).
   * @throws InvalidArgumentError for a missing or invalid spec field.
   */
  abstract spawn(spec: SubprocessSpawnSpec): SubprocessHandle;

  /**
   * Allocate a real terminal and start one owned process session in it.
   * @param spec - argv, cwd, environment, size, grace and allocation cancellation.
   * @returns the live terminal handle once allocation succeeded.
   */
  abstract spawnTerminal(spec: SubprocessTerminalSpawnSpec): Promise<SubprocessTerminalHandle>;

  /** Terminate every still-running tree and terminal, await their exit, and release resources. */
  abstract dispose(): Promise<void>;
}
