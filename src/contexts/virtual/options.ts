/**
 * Options of `createVirtualContext`, validated once into a complete configuration: unknown names
 * are refused with a did-you-mean, every value is checked and named in its error.
 * @module
 */
import { realpathSync, statSync } from 'node:fs';
import type { CommandHandler } from '../../commands/command.js';
import {
  type NetworkOptions,
  type NetworkPolicy,
  resolveNetworkPolicy,
} from '../../commands/net/allowlist.js';
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
  optionalString,
  optionKeys,
  outputPolicy,
  pathOption,
} from '../../contract/validate-options.js';
import { InvalidArgumentError } from '../../errors/index.js';
import type { ExternalCommands } from '../../kernel/external.js';
import { type KernelLimits, resolveLimits } from '../../kernel/limits.js';
import type { McpClientLike } from '../../kernel/mcp-tools.js';
import { ByteBudget } from '../../vfs/byte-budget.js';
import type { Filesystem } from '../../vfs/filesystem.js';
import type { MemorySeed } from '../../vfs/memory/memory-fs.js';
import { isVfsPathWithin, normalizeVfsPath } from '../../vfs/vfs-path.js';
import { resolveSharedOverlay, type SharedOverlayConfig } from './shared-overlay.js';

/** Who a command believes it runs as (`whoami`, `~`, `$HOSTNAME`, `id -u`). */
export interface VirtualIdentity {
  readonly user?: string | undefined;
  readonly uid?: number | undefined;
  readonly gid?: number | undefined;
  readonly home?: string | undefined;
  readonly hostname?: string | undefined;
}

/** A filesystem of the caller's mounted into the namespace. */
export interface VirtualMount {
  /** Absolute mount point inside the virtual namespace. */
  readonly path: string;
  readonly fs: Filesystem;
  /** Every change through the mount fails with `EROFS`. */
  readonly readOnly?: boolean | undefined;
}

/** A host-defined command: a handler, or a handler with its `--help` text. */
export type VirtualCommand =
  | CommandHandler
  | { readonly run: CommandHandler; readonly help?: string | undefined; readonly summary?: string };

/** A connected MCP client whose tools become commands of the shell. */
export interface VirtualMcpTools {
  /** A connected client (the official SDK's `Client`, or anything with `listTools` and `callTool`). */
  readonly client: McpClientLike;
  /** Prefix of the command names (`prefix` + tool name), e.g. `gh_`. Default none. */
  readonly prefix?: string | undefined;
  /** Time a tool call may hold the script's timeout (patient hold), in ms. */
  readonly holdMs?: number | undefined;
}

/**
 * Options for {@link createVirtualContext}. Every field is optional. `defaultTimeoutMs`,
 * `stallMs`, `maxLogBytes` and `maxReadBytes` mean what they mean on every backend
 * ({@link ContextLimitOptions}); `killGraceMs` is the virtual shell's own, documented below, as
 * there is no process tree to TERM and KILL.
 */
export interface VirtualContextOptions extends Omit<ContextLimitOptions, 'killGraceMs'> {
  /**
   * A host directory the workspace is a copy-on-write view of. It is read through a contained
   * view (nothing outside it is reachable, symlinks out of it are refused) and never written:
   * changes stay in the overlay until `commit`. Default: a workspace in memory, seeded by `files`.
   */
  readonly root?: string | undefined;
  /** Where the workspace appears in the virtual namespace. Default `/workspace`. */
  readonly workspacePath?: string | undefined;
  /**
   * Files to start with, by absolute virtual path. Paths inside the workspace seed it (they are
   * what `changes` compares against) unless `root` is given, which then refuses them; every other
   * path seeds the scratch filesystem of the namespace (`/etc/motd`, `/home/user/.profile`).
   */
  readonly files?: Readonly<Record<string, MemorySeed>> | undefined;
  /**
   * A host directory that holds the workspace's changes (the overlay's upper layer, in the
   * overlayfs layout), so they survive this process and can be reviewed and committed from
   * another. An existing state directory is continued. Default: changes live in memory.
   */
  readonly stateDirectory?: string | undefined;
  /** Further filesystems in the namespace (a read-only reference tree, a caller's own backend). */
  readonly mounts?: readonly VirtualMount[] | undefined;
  /**
   * The memory every in-memory layer may hold together (scratch files, the workspace's memory
   * upper, background logs, forks): a `ByteBudget`, or its limits. Default 512 MiB and one million
   * files; a write beyond it fails with `ENOSPC` and changes nothing.
   */
  readonly budget?: ByteBudget | { readonly maxBytes?: number; readonly maxNodes?: number } | undefined;
  /** The shell's limits (call depth, commands, string sizes, ...); see `KernelLimits`. */
  readonly limits?: Partial<KernelLimits> | undefined;
  /**
   * Each handle keeps its shell state between `exec` calls (variables, functions, aliases, options,
   * cwd and jobs), like one terminal. Default false: every call starts from the handle's initial
   * state, like `bash -c`; calls of one handle in session mode run one at a time.
   */
  readonly session?: boolean | undefined;
  /** Commands besides berth's own, by name; they run with argv, byte streams, env, cwd, fs, signal. */
  readonly commands?: Readonly<Record<string, VirtualCommand>> | undefined;
  /**
   * MCP servers whose tools become commands (arguments as flags or JSON on stdin, the result
   * printed; structured results flow to `jq` downstream). Mounted on every handle at spawn.
   */
  readonly mcpTools?: readonly VirtualMcpTools[] | undefined;
  /**
   * Commands allowed to leave the virtual shell and run in another context (typically the
   * sandboxed process context). They see that context's filesystem, not this one's. Default: none;
   * every other name is `command not found`.
   */
  readonly external?: ExternalCommands | undefined;
  /** Environment of every command (on top of `HOME`, `PATH`, `USER`, `TZ` and the non-interactive set). */
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** `TZ` of every command (an IANA name such as `Europe/Berlin`, or a POSIX rule). Default `UTC`. */
  readonly timeZone?: string | undefined;
  readonly identity?: VirtualIdentity | undefined;
  /** Default working directory of new handles. Default: the workspace path. */
  readonly cwd?: string | undefined;
  /**
   * Confine the file methods to the workspace: any other path is refused with `ContainmentError`
   * (background logs and spill files of the handle stay readable). Default false.
   */
  readonly containment?: boolean | undefined;
  /**
   * Time the traps of a cancelled script (a timeout, an abort, a stream's `kill()`,
   * `killBackground`, `destroy`) get before it is abandoned: its TERM (or INT) trap and its EXIT
   * trap run within it. There is no process to signal, so this is not the TERM-to-KILL grace of
   * the other backends. Default 5000; 0 is refused (the traps always get a chance to run).
   */
  readonly killGraceMs?: number | undefined;
  /** Output policy for `exec`: memory cap per stream and spill cap. */
  readonly output?: Partial<OutputPolicy> | undefined;
  /** Most entries one `listFiles` returns. Default 100000. */
  readonly maxListEntries?: number | undefined;
  /**
   * Keep what destructive shell writes (`rm`, `>` truncation, `mv` over a file) destroy, under
   * `set -o trash`: `true`, or the trash's own byte cap. Default off.
   */
  readonly trash?: boolean | { readonly maxBytes?: number | undefined } | undefined;
  /** Seed of `$RANDOM` (tests). Default: random. */
  readonly randomSeed?: number | undefined;
  /**
   * Network for `curl` and `wget`, off when absent: an allowlist of URL prefixes (matched on
   * scheme, host, port and whole path segments) and methods, and bounds on response size,
   * request size, time and redirects. Every redirect is checked against it too. With it,
   * `capabilities.network` is true.
   */
  readonly network?: NetworkOptions | undefined;
}

/** The validated configuration. */
export interface VirtualContextConfig {
  readonly root: string | undefined;
  readonly workspacePath: string;
  readonly workspaceFiles: ReadonlyMap<string, MemorySeed>;
  readonly scratchFiles: ReadonlyMap<string, MemorySeed>;
  readonly stateDirectory: string | undefined;
  readonly mounts: readonly VirtualMount[];
  readonly budget: ByteBudget;
  readonly limits: KernelLimits;
  readonly session: boolean;
  readonly commands: ReadonlyMap<string, VirtualCommand>;
  readonly mcpTools: readonly VirtualMcpTools[];
  readonly external: ExternalCommands | undefined;
  /** The process handle's overlay the workspace shares (`external.shareOverlay`). */
  readonly sharedOverlay: SharedOverlayConfig | undefined;
  readonly env: Readonly<Record<string, string>>;
  readonly timeZone: string;
  readonly identity: Required<VirtualIdentity>;
  readonly cwd: string;
  readonly containment: boolean;
  readonly defaultTimeoutMs: number;
  readonly killGraceMs: number;
  readonly output: OutputPolicy;
  readonly maxLogBytes: number;
  readonly stallMs: number;
  readonly maxReadBytes: number;
  readonly maxListEntries: number;
  readonly trash: { readonly maxBytes: number | undefined } | undefined;
  readonly randomSeed: number | undefined;
  /** The validated allowlist; undefined: no network. */
  readonly network: NetworkPolicy | undefined;
}

/** Default memory of a context: 512 MiB of file content, a million files and directories. */
export const DEFAULT_VIRTUAL_BUDGET = Object.freeze({ maxBytes: 512 * 1024 * 1024, maxNodes: 1_000_000 });
/** Default largest read of `readFile`: 256 MiB. */
export const DEFAULT_VIRTUAL_MAX_READ_BYTES = 256 * 1024 * 1024;
/** Default most entries of one `listFiles`. */
export const DEFAULT_VIRTUAL_MAX_LIST_ENTRIES = 100_000;

const KNOWN_OPTIONS = optionKeys<VirtualContextOptions>({
  root: true,
  workspacePath: true,
  files: true,
  stateDirectory: true,
  mounts: true,
  budget: true,
  limits: true,
  session: true,
  commands: true,
  mcpTools: true,
  external: true,
  env: true,
  timeZone: true,
  identity: true,
  cwd: true,
  containment: true,
  defaultTimeoutMs: true,
  killGraceMs: true,
  output: true,
  maxLogBytes: true,
  stallMs: true,
  maxReadBytes: true,
  maxListEntries: true,
  trash: true,
  randomSeed: true,
  network: true,
});
const IDENTITY_KEYS = optionKeys<VirtualIdentity>({
  user: true,
  uid: true,
  gid: true,
  home: true,
  hostname: true,
});
const MOUNT_KEYS = optionKeys<VirtualMount>({ path: true, fs: true, readOnly: true });
const BUDGET_KEYS = optionKeys<{ maxBytes: number; maxNodes: number }>({ maxBytes: true, maxNodes: true });
const TRASH_KEYS = optionKeys<{ maxBytes: number }>({ maxBytes: true });

/** Validate options; every error is an `InvalidArgumentError` naming `options.<field>`. */
export function resolveVirtualOptions(options: VirtualContextOptions | undefined): VirtualContextConfig {
  const input = knownOptions(options, 'options', KNOWN_OPTIONS, 'createVirtualContext');
  const root = hostDirectory(input.root, 'options.root');
  const workspacePath = virtualPath(input.workspacePath, 'options.workspacePath') ?? '/workspace';
  if (workspacePath === '/') {
    throw new InvalidArgumentError(
      'options.workspacePath',
      'must not be "/": the namespace root holds the scratch directories (/tmp, the home directory); mount the workspace below it, e.g. /workspace',
    );
  }
  const { workspaceFiles, scratchFiles } = splitSeeds(input.files, workspacePath, root);
  const identity = resolveIdentity(input.identity);
  const cwd = virtualPath(input.cwd, 'options.cwd') ?? workspacePath;
  const external = resolveExternal(input.external);
  const stateDirectory = pathOption(input.stateDirectory, 'options.stateDirectory', true);
  const sharedOverlay = resolveSharedOverlay(external, root, stateDirectory);
  return {
    root,
    workspacePath,
    workspaceFiles,
    scratchFiles,
    stateDirectory: sharedOverlay?.link.stateDirectory ?? stateDirectory,
    mounts: resolveMounts(input.mounts, workspacePath),
    budget: resolveBudget(input.budget),
    limits: resolveLimits(input.limits),
    session: booleanOption(input.session, 'options.session', false),
    commands: resolveCommands(input.commands),
    mcpTools: resolveMcpTools(input.mcpTools),
    external,
    sharedOverlay,
    env: resolveEnv(input.env),
    timeZone: resolveTimeZone(input.timeZone),
    identity,
    cwd,
    containment: booleanOption(input.containment, 'options.containment', false),
    defaultTimeoutMs: durationMs(input.defaultTimeoutMs, 'options.defaultTimeoutMs', DEFAULT_TIMEOUT_MS),
    killGraceMs: durationMs(input.killGraceMs, 'options.killGraceMs', DEFAULT_KILL_GRACE_MS),
    output: outputPolicy(input.output, 'options.output', DEFAULT_OUTPUT_POLICY),
    maxLogBytes: byteCount(input.maxLogBytes, 'options.maxLogBytes', DEFAULT_MAX_LOG_BYTES),
    stallMs: durationMs(input.stallMs, 'options.stallMs', DEFAULT_STALL_MS),
    maxReadBytes: byteCount(input.maxReadBytes, 'options.maxReadBytes', DEFAULT_VIRTUAL_MAX_READ_BYTES),
    maxListEntries: byteCount(
      input.maxListEntries,
      'options.maxListEntries',
      DEFAULT_VIRTUAL_MAX_LIST_ENTRIES,
    ),
    trash: resolveTrash(input.trash),
    randomSeed: resolveSeed(input.randomSeed),
    network: resolveNetworkPolicy(input.network, 'options.network'),
  };
}

/** An existing host directory, as its real path; undefined passes through. */
function hostDirectory(value: unknown, field: string): string | undefined {
  const path = pathOption(value, field, true);
  if (path === undefined) return undefined;
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw new InvalidArgumentError(
      field,
      `${JSON.stringify(path)} does not exist; give an existing directory`,
    );
  }
  if (!statSync(real).isDirectory()) {
    throw new InvalidArgumentError(field, `${JSON.stringify(path)} is not a directory`);
  }
  return real;
}

/** An absolute virtual path option, normalized; undefined passes through. */
function virtualPath(value: unknown, field: string): string | undefined {
  const path = pathOption(value, field, true);
  return path === undefined ? undefined : normalizeVfsPath(path);
}

function splitSeeds(
  files: unknown,
  workspacePath: string,
  root: string | undefined,
): { workspaceFiles: Map<string, MemorySeed>; scratchFiles: Map<string, MemorySeed> } {
  const workspaceFiles = new Map<string, MemorySeed>();
  const scratchFiles = new Map<string, MemorySeed>();
  if (files === undefined) return { workspaceFiles, scratchFiles };
  if (typeof files !== 'object' || files === null || Array.isArray(files)) {
    throw new InvalidArgumentError(
      'options.files',
      `must be an object of absolute path to content, got ${describeValue(files)}`,
    );
  }
  for (const [path, seed] of Object.entries(files)) {
    const field = `options.files[${JSON.stringify(path)}]`;
    const normalized = virtualPath(path, field) as string;
    if (
      typeof seed !== 'string' &&
      !(seed instanceof Uint8Array) &&
      (typeof seed !== 'object' || seed === null)
    ) {
      throw new InvalidArgumentError(
        field,
        `must be text, bytes or { type, content, load, target, mode, mtimeMs, uid, gid }, got ${describeValue(seed)}`,
      );
    }
    if (isVfsPathWithin(workspacePath, normalized)) {
      if (root !== undefined) {
        throw new InvalidArgumentError(
          field,
          `is inside the workspace (${workspacePath}), whose content comes from options.root; write it after spawn (it then shows as a change) or seed a path outside the workspace`,
        );
      }
      if (normalized === workspacePath) {
        throw new InvalidArgumentError(field, 'is the workspace itself; seed files below it');
      }
      workspaceFiles.set(`/${normalized.slice(workspacePath.length + 1)}`, seed as MemorySeed);
    } else scratchFiles.set(normalized, seed as MemorySeed);
  }
  return { workspaceFiles, scratchFiles };
}

function resolveMounts(value: unknown, workspacePath: string): VirtualMount[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new InvalidArgumentError(
      'options.mounts',
      `must be an array of { path, fs, readOnly? }, got ${describeValue(value)}`,
    );
  }
  const seen = new Set<string>();
  return value.map((entry: unknown, index) => {
    const field = `options.mounts[${index}]`;
    const mount = knownOptions(entry as VirtualMount, field, MOUNT_KEYS, 'a virtual mount');
    const path = virtualPath(mount.path, `${field}.path`);
    if (path === undefined) throw new InvalidArgumentError(`${field}.path`, 'is required (an absolute path)');
    if (path === '/' || isVfsPathWithin(path, workspacePath) || isVfsPathWithin(workspacePath, path)) {
      throw new InvalidArgumentError(
        `${field}.path`,
        `${path} would hide the namespace root or overlap the workspace (${workspacePath}), whose changes are reviewed as one; mount elsewhere`,
      );
    }
    if (seen.has(path)) throw new InvalidArgumentError(`${field}.path`, `${path} is mounted twice`);
    seen.add(path);
    if (typeof mount.fs?.readFile !== 'function' || typeof mount.fs?.stat !== 'function') {
      throw new InvalidArgumentError(`${field}.fs`, 'must be a Filesystem (berth/vfs)');
    }
    return { path, fs: mount.fs, readOnly: booleanOption(mount.readOnly, `${field}.readOnly`, false) };
  });
}

function resolveBudget(value: unknown): ByteBudget {
  if (value instanceof ByteBudget) return value;
  const input = knownOptions(
    value as { maxBytes?: number; maxNodes?: number } | undefined,
    'options.budget',
    BUDGET_KEYS,
    'the byte budget',
  );
  return new ByteBudget({
    maxBytes: byteCount(input.maxBytes, 'options.budget.maxBytes', DEFAULT_VIRTUAL_BUDGET.maxBytes),
    maxNodes: byteCount(input.maxNodes, 'options.budget.maxNodes', DEFAULT_VIRTUAL_BUDGET.maxNodes),
  });
}

const COMMAND_NAME = /^[^\s/$`'"\\|&;()<>]+$/;

function resolveCommands(value: unknown): Map<string, VirtualCommand> {
  const commands = new Map<string, VirtualCommand>();
  if (value === undefined) return commands;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(
      'options.commands',
      `must be an object of command name to handler, got ${describeValue(value)}`,
    );
  }
  for (const [name, command] of Object.entries(value)) {
    const field = `options.commands[${JSON.stringify(name)}]`;
    if (!COMMAND_NAME.test(name)) {
      throw new InvalidArgumentError(field, 'names a command with blanks, slashes or shell characters');
    }
    const run = typeof command === 'function' ? command : (command as { run?: unknown })?.run;
    if (typeof run !== 'function') {
      throw new InvalidArgumentError(
        field,
        `must be a handler (ctx) => Promise<number>, or { run, help }, got ${describeValue(command)}`,
      );
    }
    if (typeof command === 'object') {
      knownOptions(command, field, ['run', 'help', 'summary'], 'a virtual command');
      optionalString((command as { help?: unknown }).help, `${field}.help`);
      optionalString((command as { summary?: unknown }).summary, `${field}.summary`);
    }
    commands.set(name, command as VirtualCommand);
  }
  return commands;
}

const MCP_TOOLS_KEYS = optionKeys<VirtualMcpTools>({ client: true, prefix: true, holdMs: true });

function resolveMcpTools(value: unknown): VirtualMcpTools[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new InvalidArgumentError(
      'options.mcpTools',
      `must be an array of { client, prefix? }, got ${describeValue(value)}`,
    );
  }
  return value.map((entry: unknown, index) => {
    const field = `options.mcpTools[${index}]`;
    const input = knownOptions(entry as VirtualMcpTools, field, MCP_TOOLS_KEYS, 'mounted MCP tools');
    const client = input.client as { listTools?: unknown; callTool?: unknown } | undefined;
    if (typeof client?.listTools !== 'function' || typeof client?.callTool !== 'function') {
      throw new InvalidArgumentError(
        `${field}.client`,
        'must be a connected MCP client (listTools, callTool)',
      );
    }
    return {
      client: input.client as McpClientLike,
      prefix: optionalString(input.prefix, `${field}.prefix`),
      holdMs: input.holdMs === undefined ? undefined : durationMs(input.holdMs, `${field}.holdMs`, 0),
    };
  });
}

function resolveExternal(value: unknown): ExternalCommands | undefined {
  if (value === undefined) return undefined;
  const input = knownOptions(
    value as ExternalCommands,
    'options.external',
    ['context', 'handle', 'allow', 'mapCwd', 'shareOverlay'],
    'the external-command gate',
  );
  if (typeof input.context?.exec !== 'function') {
    throw new InvalidArgumentError('options.external.context', 'must be an ExecutionContext');
  }
  if (typeof input.handle?.id !== 'string') {
    throw new InvalidArgumentError('options.external.handle', 'must be a handle spawned on external.context');
  }
  if (!Array.isArray(input.allow) && typeof input.allow !== 'function') {
    throw new InvalidArgumentError(
      'options.external.allow',
      'must be a list of command names or a predicate over argv',
    );
  }
  return value as ExternalCommands;
}

function resolveEnv(value: unknown): Record<string, string> {
  const env = envRecord(value, 'options.env') ?? {};
  for (const [name, entry] of Object.entries(env)) {
    if (entry === undefined) throw new InvalidArgumentError(`options.env.${name}`, 'must be a string');
  }
  return env as Record<string, string>;
}

function resolveTimeZone(value: unknown): string {
  const zone = optionalString(value, 'options.timeZone') ?? 'UTC';
  if (/[\s\0]/.test(zone) || zone.length > 256) {
    throw new InvalidArgumentError('options.timeZone', `is not a time zone: ${JSON.stringify(zone)}`);
  }
  return zone;
}

function resolveIdentity(value: unknown): Required<VirtualIdentity> {
  const input = knownOptions(
    value as VirtualIdentity | undefined,
    'options.identity',
    IDENTITY_KEYS,
    'the identity',
  );
  const user = optionalString(input.user, 'options.identity.user') ?? 'user';
  const id = (v: unknown, field: string, fallback: number) => {
    if (v === undefined) return fallback;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0 || v > 0xffffffff) {
      throw new InvalidArgumentError(
        field,
        `must be an integer id from 0 to 4294967295, got ${describeValue(v)}`,
      );
    }
    return v;
  };
  const home =
    virtualPath(input.home, 'options.identity.home') ?? (user === 'root' ? '/root' : `/home/${user}`);
  const hostname = optionalString(input.hostname, 'options.identity.hostname') ?? 'berth';
  return {
    user,
    uid: id(input.uid, 'options.identity.uid', user === 'root' ? 0 : 1000),
    gid: id(input.gid, 'options.identity.gid', user === 'root' ? 0 : 1000),
    home,
    hostname,
  };
}

function resolveTrash(value: unknown): { maxBytes: number | undefined } | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return { maxBytes: undefined };
  const input = knownOptions(value as { maxBytes?: number }, 'options.trash', TRASH_KEYS, 'the trash');
  return { maxBytes: byteCount(input.maxBytes, 'options.trash.maxBytes', 64 * 1024 * 1024) };
}

function resolveSeed(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidArgumentError(
      'options.randomSeed',
      `must be a non-negative integer, got ${describeValue(value)}`,
    );
  }
  return value;
}
