/**
 * Options of `createProcessContext`, validated once into a complete configuration.
 * @module
 */

import type { ContextLimitOptions } from '../../contract/context-options.js';
import {
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_LOG_BYTES,
  DEFAULT_OUTPUT_POLICY,
  DEFAULT_STALL_MS,
  DEFAULT_TIMEOUT_MS,
} from '../../contract/defaults.js';
import type { OutputPolicy } from '../../contract/types.js';
import {
  booleanOption,
  byteCount,
  describeValue,
  durationMs,
  envRecord,
  knownOptions,
  optionKeys,
  outputPolicy,
  pathOption,
} from '../../contract/validate-options.js';
import { InvalidArgumentError } from '../../errors/index.js';
import type { SandboxPolicy } from '../../sandbox/types.js';
import { validatePolicy } from '../../sandbox/validate-policy.js';
import { DEFAULT_MAX_ENTRIES, DEFAULT_MAX_READ_BYTES } from '../../vfs/local-fs.js';

/**
 * Options for {@link createProcessContext}. Every field is optional; the limits every backend
 * shares (`defaultTimeoutMs`, `killGraceMs`, `stallMs`, `maxLogBytes`, `maxReadBytes`) are
 * documented on {@link ContextLimitOptions}. Background logs live in berth's private directory.
 */
export interface ProcessContextOptions extends ContextLimitOptions {
  /**
   * Confine the file methods to this directory: a path that escapes it (absolute, `..`, a symlink
   * on the way) is refused with `ContainmentError` before any I/O. Shell commands are NOT confined
   * by this; use `sandbox` (or the docker context) for that. Default: no containment.
   */
  readonly workspaceRoot?: string | undefined;
  /** Default working directory of new handles; default `workspaceRoot`, else `process.cwd()`. */
  readonly cwd?: string | undefined;
  /**
   * Children see the parent environment (credential-shaped names always scrubbed unless passed
   * explicitly). Default true. False: only PATH, HOME, SHELL, LANG, LC_ALL, USER, TERM, TMPDIR plus
   * explicit entries.
   */
  readonly inheritEnv?: boolean | undefined;
  /** Explicit environment for every command of this context (a string survives the scrub). */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Run every command under the OS sandbox; fails closed (exit 127) where it cannot apply. */
  readonly sandbox?: SandboxPolicy | undefined;
  /**
   * Run each handle's commands over a kernel overlay of `workspaceRoot` (Linux; needs `sandbox`):
   * real tools change a merged view, the workspace stays untouched until the handle's `commit`.
   * Each handle keeps its changes in a fresh directory under `stateDir` (the VFS overlay's on-disk
   * format). `spawn` fails with the reason where the overlay cannot be mounted.
   */
  readonly overlay?: ProcessOverlayOptions | undefined;
  /**
   * One sandbox session per handle (Linux; needs `sandbox`): the handle's commands, background
   * tasks and streams share one PID, IPC and (network denied) network namespace and one /tmp, so a
   * server one command starts answers the next on loopback and `ps` shows the handle's processes;
   * each command still gets its own bubblewrap with every per-command guarantee. A process that
   * leaves its command's tree (a daemon) stays in the session until the handle's `destroy`, which
   * TERMs, waits `killGraceMs`, and ends the whole session. Handles stay isolated from each other.
   * Default false: every command gets namespaces of its own. Not combinable with `overlay` yet.
   */
  readonly session?: boolean | undefined;
  /** Output policy for `exec`: memory cap per stream and spill cap. */
  readonly output?: Partial<OutputPolicy> | undefined;
  /** Most entries one `listFiles` returns. Default 100000. */
  readonly maxListEntries?: number | undefined;
  /**
   * Run every command under berth's per-command supervisor (default true on Linux): a
   * double-forked daemon stays in its command's tree and ends with it, every process dies with the
   * host (SIGKILL included), and commands start with only fds 0-2. `false` runs them without one.
   * The supervisor is built on first use (`spawn`) with the system's C compiler, once per user and
   * berth version; when it is on and that cannot be done, commands fail with
   * `SupervisorUnavailableError` saying what to install.
   */
  readonly supervise?: boolean | undefined;
}

/** The `overlay` option. */
export interface ProcessOverlayOptions {
  /** Absolute directory, outside `workspaceRoot`, holding one state directory per handle. */
  readonly stateDir: string;
}

/** The validated, complete configuration. */
export interface ProcessContextConfig {
  readonly workspaceRoot: string | undefined;
  readonly cwd: string | undefined;
  readonly inheritEnv: boolean;
  readonly env: Readonly<Record<string, string | undefined>> | undefined;
  readonly sandbox: SandboxPolicy | undefined;
  readonly overlay: ProcessOverlayOptions | undefined;
  readonly session: boolean;
  readonly defaultTimeoutMs: number;
  readonly killGraceMs: number;
  readonly output: OutputPolicy;
  readonly maxLogBytes: number;
  readonly stallMs: number;
  readonly maxReadBytes: number;
  readonly maxListEntries: number;
  readonly supervise: boolean;
}

const KNOWN_OPTIONS = optionKeys<ProcessContextOptions>({
  workspaceRoot: true,
  cwd: true,
  inheritEnv: true,
  env: true,
  sandbox: true,
  overlay: true,
  session: true,
  defaultTimeoutMs: true,
  killGraceMs: true,
  output: true,
  maxLogBytes: true,
  stallMs: true,
  maxReadBytes: true,
  maxListEntries: true,
  supervise: true,
});

/** Validate options; every error is an `InvalidArgumentError` naming `options.<field>`. */
export function resolveProcessOptions(options: ProcessContextOptions | undefined): ProcessContextConfig {
  const input = knownOptions(options, 'options', KNOWN_OPTIONS, 'createProcessContext');
  const sandbox = input.sandbox;
  if (sandbox !== undefined && (typeof sandbox !== 'object' || sandbox === null)) {
    throw new InvalidArgumentError(
      'options.sandbox',
      `must be a SandboxPolicy (build one with createSandboxPolicy), got ${describeValue(sandbox)}`,
    );
  }
  // A hand-built policy with a misspelt or malformed field fails here, not at the first command.
  if (sandbox !== undefined) validatePolicy(sandbox);
  for (const field of ['workspaceRoot', 'cwd'] as const) pathOption(input[field], `options.${field}`, true);
  const overlay = overlayOption(input.overlay, input.workspaceRoot, sandbox);
  return {
    workspaceRoot: input.workspaceRoot,
    cwd: input.cwd,
    inheritEnv: booleanOption(input.inheritEnv, 'options.inheritEnv', true),
    env: envRecord(input.env, 'options.env'),
    sandbox,
    overlay,
    session: sessionOption(input.session, sandbox, overlay),
    defaultTimeoutMs: durationMs(input.defaultTimeoutMs, 'options.defaultTimeoutMs', DEFAULT_TIMEOUT_MS),
    killGraceMs: durationMs(input.killGraceMs, 'options.killGraceMs', DEFAULT_KILL_GRACE_MS),
    output: outputPolicy(input.output, 'options.output', DEFAULT_OUTPUT_POLICY),
    maxLogBytes: byteCount(input.maxLogBytes, 'options.maxLogBytes', DEFAULT_MAX_LOG_BYTES),
    stallMs: durationMs(input.stallMs, 'options.stallMs', DEFAULT_STALL_MS),
    maxReadBytes: byteCount(input.maxReadBytes, 'options.maxReadBytes', DEFAULT_MAX_READ_BYTES),
    maxListEntries: byteCount(input.maxListEntries, 'options.maxListEntries', DEFAULT_MAX_ENTRIES),
    supervise: booleanOption(input.supervise, 'options.supervise', process.platform === 'linux'),
  };
}

const OVERLAY_KEYS = optionKeys<ProcessOverlayOptions>({ stateDir: true });

function overlayOption(
  value: unknown,
  workspaceRoot: string | undefined,
  sandbox: SandboxPolicy | undefined,
): ProcessOverlayOptions | undefined {
  if (value === undefined) return undefined;
  const input = knownOptions(
    value as ProcessOverlayOptions,
    'options.overlay',
    OVERLAY_KEYS,
    'createProcessContext',
  );
  const stateDir = pathOption(input.stateDir, 'options.overlay.stateDir', true);
  if (stateDir === undefined) {
    throw new InvalidArgumentError(
      'options.overlay.stateDir',
      'is required: an absolute directory for the changes',
    );
  }
  if (workspaceRoot === undefined) {
    throw new InvalidArgumentError(
      'options.overlay',
      'needs options.workspaceRoot: the directory the overlay covers (its lower layer)',
    );
  }
  if (sandbox === undefined) {
    throw new InvalidArgumentError(
      'options.overlay',
      "needs options.sandbox: commands enter the overlay's mount namespace on their way into the OS sandbox (build a policy with createSandboxPolicy)",
    );
  }
  if (process.platform !== 'linux') {
    throw new InvalidArgumentError(
      'options.overlay',
      `needs Linux kernel overlays; this is ${process.platform}`,
    );
  }
  const inside = (parent: string, path: string) => path === parent || path.startsWith(`${parent}/`);
  if (inside(workspaceRoot, stateDir) || inside(stateDir, workspaceRoot)) {
    throw new InvalidArgumentError(
      'options.overlay.stateDir',
      `${JSON.stringify(stateDir)} and the workspaceRoot ${JSON.stringify(workspaceRoot)} must not contain each other (the overlay would cover its own changes)`,
    );
  }
  return Object.freeze({ stateDir });
}

function sessionOption(
  value: unknown,
  sandbox: SandboxPolicy | undefined,
  overlay: ProcessOverlayOptions | undefined,
): boolean {
  const session = booleanOption(value, 'options.session', false);
  if (!session) return false;
  if (sandbox === undefined) {
    throw new InvalidArgumentError(
      'options.session',
      "needs options.sandbox: a session is a set of OS-sandbox namespaces the handle's commands share (build a policy with createSandboxPolicy); unsandboxed commands already share the host's",
    );
  }
  if (process.platform !== 'linux') {
    throw new InvalidArgumentError(
      'options.session',
      `needs Linux namespaces (bubblewrap); this is ${process.platform}: omit the option`,
    );
  }
  if (overlay !== undefined) {
    throw new InvalidArgumentError(
      'options.session',
      'cannot be combined with options.overlay yet (a commit remounts the overlay, which a running session would still hold): use one of the two',
    );
  }
  return true;
}
