/**
 * Building a sandbox policy from loose options: defaults applied once, every entry checked.
 * @module
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { knownOptions, pathOption } from '../contract/validate-options.js';
import { describeValue } from '../errors/describe-value.js';
import { InvalidArgumentError } from '../errors/index.js';
import { isWithin } from '../vfs/path-scope.js';
import { DEFAULT_READ_ONLY_PATHS, defaultHiddenPaths } from './default-paths.js';
import { POLICY_OPTION_KEYS } from './option-keys.js';
import type { SandboxPolicy } from './types.js';
import { checkRelativeName, validatePolicy } from './validate-policy.js';
import { resolveWritableRoots } from './writable-roots.js';

/** Options for {@link createSandboxPolicy}. Lists extend the defaults unless told otherwise. */
export interface SandboxPolicyOptions {
  /** Directories commands may write; resolved with `resolveWritableRoots` (must exist). */
  readonly writableRoots: readonly string[];
  /** Default `'deny'`: commands get their own network namespace with only a loopback. */
  readonly network?: 'deny' | 'allow' | undefined;
  /** Extra paths to hide, added to the defaults. Absolute, or `~/`-relative to `home`. */
  readonly hiddenPaths?: readonly string[] | undefined;
  /** Extra names that stay read-only inside each writable root, added to the defaults. */
  readonly readOnlyPaths?: readonly string[] | undefined;
  /** Start from the default hidden paths (default `true`). */
  readonly defaultHiddenPaths?: boolean | undefined;
  /** Start from the default read-only names (default `true`). */
  readonly defaultReadOnlyPaths?: boolean | undefined;
  /** Home directory for the defaults and for `~/`; default the current user's. */
  readonly home?: string | undefined;
  /** Environment for `XDG_RUNTIME_DIR` / `SSH_AUTH_SOCK` defaults; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * Unix sockets commands may connect to: `'deny'` (default: none, a seccomp filter refuses them),
   * a list of socket paths or directories (absolute or `~/`; plus sockets inside the writable
   * roots, every other socket on the host covered), or `'allow'`.
   */
  readonly unixSockets?: 'deny' | 'allow' | readonly string[] | undefined;
  /** Absolute path of bubblewrap; default: looked up on `PATH` per command. */
  readonly bwrapPath?: string | undefined;
}

/**
 * Build a frozen {@link SandboxPolicy}: writable roots resolved, network denied unless allowed,
 * the default hidden credential paths and read-only names plus any extras, deduplicated.
 * @throws InvalidArgumentError naming the offending field (missing root, relative hidden path,
 *   a read-only name escaping its root, a writable root inside a hidden path, ...).
 */
export function createSandboxPolicy(options: SandboxPolicyOptions): SandboxPolicy {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError(
      'options',
      `expected an options object with writableRoots, got ${describeValue(options)}`,
    );
  }
  knownOptions(options, 'options', POLICY_OPTION_KEYS, 'createSandboxPolicy');
  if (typeof options.home === 'string') pathOption(options.home, 'home', true);
  const home = options.home ?? homedir();
  if (typeof home !== 'string' || !isAbsolute(home)) {
    throw new InvalidArgumentError('home', `expected an absolute directory path, got ${describeValue(home)}`);
  }
  const env = options.env ?? process.env;
  const writableRoots = resolveWritableRoots(options.writableRoots);
  const network = options.network ?? 'deny';

  const hidden = options.defaultHiddenPaths === false ? [] : defaultHiddenPaths({ home, env });
  listOf(options.hiddenPaths, 'hiddenPaths').forEach((path, index) => {
    hidden.push(expandHidden(path, home, `hiddenPaths[${index}]`));
  });

  const readOnly = options.defaultReadOnlyPaths === false ? [] : [...DEFAULT_READ_ONLY_PATHS];
  listOf(options.readOnlyPaths, 'readOnlyPaths').forEach((name, index) => {
    readOnly.push(checkRelativeName(name, `readOnlyPaths[${index}]`));
  });

  const sockets = options.unixSockets ?? 'deny';
  const unixSockets =
    sockets === 'deny' || sockets === 'allow'
      ? sockets
      : Object.freeze(
          unique(
            listOf(sockets, 'unixSockets').map((path, index) =>
              expandHidden(path, home, `unixSockets[${index}]`),
            ),
          ),
        );

  const policy: SandboxPolicy = {
    writableRoots: Object.freeze(writableRoots),
    network,
    hiddenPaths: Object.freeze(unique(hidden)),
    readOnlyPaths: Object.freeze(unique(readOnly)),
    unixSockets,
    ...(options.bwrapPath === undefined ? {} : { bwrapPath: options.bwrapPath }),
  };
  validatePolicy(policy);
  rejectRootsInsideHidden(policy);
  rejectSocketsInsideHidden(policy);
  return Object.freeze(policy);
}

function listOf(value: readonly string[] | undefined, field: string): readonly unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new InvalidArgumentError(field, `expected an array of paths, got ${describeValue(value)}`);
  }
  return value;
}

function expandHidden(path: unknown, home: string, field: string): string {
  if (typeof path === 'string' && path.includes('\0')) {
    throw new InvalidArgumentError(field, 'must not contain a NUL byte');
  }
  if (typeof path === 'string' && (path === '~' || path.startsWith('~/'))) return join(home, path.slice(1));
  if (typeof path !== 'string' || !isAbsolute(path)) {
    throw new InvalidArgumentError(
      field,
      `expected an absolute path or one starting with "~/", got ${describeValue(path)}`,
    );
  }
  return resolve(path);
}

/** A writable root under a hidden path would be masked by it: refuse the contradiction up front. */
function rejectRootsInsideHidden(policy: SandboxPolicy): void {
  for (const hiddenPath of policy.hiddenPaths) {
    const forms = [hiddenPath, realOrSelf(hiddenPath)];
    policy.writableRoots.forEach((root, index) => {
      if (forms.some((form) => isWithin(form, root))) {
        throw new InvalidArgumentError(
          `writableRoots[${index}]`,
          `${JSON.stringify(root)} is inside the hidden path ${JSON.stringify(hiddenPath)}, so commands could not see it; remove it from hiddenPaths (or set defaultHiddenPaths: false) or choose another root`,
        );
      }
    });
  }
}

/** An allowed socket under a hidden path stays masked: refuse the contradiction up front. */
function rejectSocketsInsideHidden(policy: SandboxPolicy): void {
  if (!Array.isArray(policy.unixSockets)) return;
  for (const hiddenPath of policy.hiddenPaths) {
    const forms = [hiddenPath, realOrSelf(hiddenPath)];
    policy.unixSockets.forEach((socket, index) => {
      if (forms.some((form) => isWithin(form, socket) || isWithin(form, realOrSelf(socket)))) {
        throw new InvalidArgumentError(
          `unixSockets[${index}]`,
          `${JSON.stringify(socket)} is inside the hidden path ${JSON.stringify(hiddenPath)}, so commands could not reach it; remove it from hiddenPaths (or set defaultHiddenPaths: false) to allow it`,
        );
      }
    });
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

function unique(list: readonly string[]): string[] {
  return [...new Set(list)];
}
