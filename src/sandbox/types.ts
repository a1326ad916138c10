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
}

/** The result of confining one command: argv to spawn instead, or why it cannot be confined. */
export type Confinement =
  | { readonly ok: true; readonly argv: readonly string[]; readonly env?: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly reason: string; readonly fix: string };
