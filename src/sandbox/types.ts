/**
 * OS sandbox policy: plain data, passed per call. The sandbox takes argv and returns argv.
 * @module
 */

/** What a sandboxed command may touch. Build `writableRoots` with `resolveWritableRoots`. */
export interface SandboxPolicy {
  /** Absolute, symlink-resolved directories the command may write. Everything else is read-only. */
  readonly writableRoots: readonly string[];
  readonly network: 'deny' | 'allow';
  /** Paths masked from the command (empty directory / absent file). Default: credential locations. */
  readonly hiddenPaths: readonly string[];
  /**
   * Path names that stay read-only even inside a writable root, relative to each root
   * (e.g. `.git/hooks`, `.bashrc`, `.mcp.json`).
   */
  readonly readOnlyPaths: readonly string[];
  /**
   * Unix sockets commands may connect to (a read-only mount does not stop `connect()`). Absent or
   * `'deny'`: none at all, path or abstract (a seccomp filter refuses `socket(AF_UNIX)`;
   * `socketpair` still works). A list of absolute paths (sockets, or directories holding them):
   * those, plus any socket inside the writable roots; every other socket bound on the host is
   * covered when the command starts. `'allow'`: every socket the command can reach.
   */
  readonly unixSockets?: 'deny' | 'allow' | readonly string[] | undefined;
  /**
   * Absolute path of the bubblewrap executable (Linux). Absent: `bwrap` is looked up on the host
   * `PATH` when a command is confined. For non-standard installs and for exercising fail-closed.
   */
  readonly bwrapPath?: string | undefined;
}

/**
 * The result of confining one command: argv to spawn instead, or why it cannot be confined. Call
 * `release()` once the command has exited (or when it is not spawned after all): it removes the
 * placeholders the sandbox created for protected names that did not exist. Idempotent.
 */
export type Confinement =
  | {
      readonly ok: true;
      readonly argv: readonly string[];
      readonly env?: Readonly<Record<string, string>>;
      readonly release: () => void;
      /**
       * The signal the command died of, as a waiter inside the sandbox saw it (bubblewrap itself
       * reports exit code 128+N): read it once the command has exited and before `release()`.
       * Absent where the sandbox cannot tell (terminals, no Perl, macOS); null when the command
       * was not killed by a signal or the waiter could not record it.
       */
      readonly waitSignal?: () => NodeJS.Signals | null;
    }
  | { readonly ok: false; readonly reason: string; readonly fix: string };

/*
 * Additions below are optional and backward compatible with the shapes above.
 */

/** How one preflight check came out. `skip` means it does not apply on this host. */
export type SandboxCheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** One preflight check: what was looked at, what was seen, and what to do about it. */
export interface SandboxCheck {
  /** Stable identifier, e.g. `bwrap-binary`, `user-namespaces`, `bwrap-run`, `network-namespace`. */
  readonly id: string;
  /** Short human title. */
  readonly title: string;
  readonly status: SandboxCheckStatus;
  /** What was observed, with the values involved. */
  readonly detail: string;
  /** What a person can do about a `fail` or `warn`. */
  readonly fix?: string | undefined;
}

/** The preflight's answer: can commands be confined here, and if not, why and how to fix it. */
export interface SandboxReport {
  readonly platform: string;
  /** The mechanism berth uses on this platform. */
  readonly backend: 'bubblewrap' | 'sandbox-exec' | 'none';
  /** True when commands can be confined (otherwise every sandboxed command fails closed). */
  readonly available: boolean;
  /** True when `network: 'deny'` can be enforced. */
  readonly networkIsolation: boolean;
  /** Summary of the first blocking failure, when `available` is false. */
  readonly reason?: string | undefined;
  /** What to do about `reason`. */
  readonly fix?: string | undefined;
  readonly checks: readonly SandboxCheck[];
}
