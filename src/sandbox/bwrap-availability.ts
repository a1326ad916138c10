/**
 * Whether bubblewrap can build a sandbox here: the executable is found, then one trivial command
 * runs with the same namespace flags real commands get. A success is cached per process (per
 * executable and flag set); a failure is not, so a fixed host recovers without a restart.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { KERNEL_MOUNTS } from './bwrap-mounts.js';
import { findExecutable, trueExecutable } from './find-executable.js';
import { fixForBwrapFailure, INSTALL_BWRAP_FIX } from './linux-host.js';
import { planReadOnlyRoot } from './read-only-root.js';
import type { SandboxPolicy } from './types.js';

/** Bounds the one-off check so a wedged bubblewrap cannot hang the caller. */
const CHECK_TIMEOUT_MS = 10_000;

/** Namespace and session flags shared by real commands and the availability check. */
export function namespaceFlags(options: {
  readonly isRoot: boolean;
  readonly network: 'deny' | 'allow';
  readonly newSession: boolean;
}): string[] {
  const flags = ['--die-with-parent', '--unshare-pid', '--unshare-ipc'];
  // Root keeps its real uid but no capability (it could otherwise remount the read-only root);
  // anyone else needs a user namespace to build mounts at all.
  flags.push(...(options.isRoot ? ['--cap-drop', 'ALL'] : ['--unshare-user']));
  if (options.network === 'deny') flags.push('--unshare-net');
  if (options.newSession) flags.push('--new-session');
  return flags;
}

/** The mounts of a trial sandbox: the same read-only root real commands get, fresh /dev, /proc, /tmp. */
export function trialMounts(): string[] {
  const root = planReadOnlyRoot();
  return [
    ...root.args,
    ...KERNEL_MOUNTS,
    '--tmpfs',
    '/tmp',
    ...(root.assembled ? ['--remount-ro', '/'] : []),
  ];
}

/** Where bubblewrap is, or why it cannot be used. */
export type BwrapAvailability =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly reason: string; readonly fix: string };

const verified = new Set<string>();
/** PATH lookups already made (lookup key → executable); a missing binary is never remembered. */
const located = new Map<string, string>();

/**
 * Find bubblewrap (`explicitPath`, else `bwrap` on `pathValue`) and make sure it can build a
 * sandbox with the given network mode. Synchronous: runs at most one short check per process.
 */
export function checkBwrap(options: {
  readonly explicitPath: string | undefined;
  readonly pathValue: string | undefined;
  readonly isRoot: boolean;
  readonly network: 'deny' | 'allow';
}): BwrapAvailability {
  const lookup = options.explicitPath ?? `PATH=${options.pathValue ?? ''}`;
  const path = located.get(lookup) ?? findExecutable(options.explicitPath ?? 'bwrap', options.pathValue);
  if (path === null) {
    const where =
      options.explicitPath === undefined
        ? `no executable "bwrap" on PATH (${options.pathValue ?? 'unset'})`
        : `the configured bwrapPath ${JSON.stringify(options.explicitPath)} is not an executable file`;
    return { ok: false, reason: `bubblewrap is not available: ${where}`, fix: INSTALL_BWRAP_FIX };
  }
  const key = `${path}\0${options.isRoot}\0${options.network}`;
  if (verified.has(key)) {
    located.set(lookup, path);
    return { ok: true, path };
  }
  const trueBinary = trueExecutable(options.pathValue);
  const flags = namespaceFlags({ isRoot: options.isRoot, network: options.network, newSession: true });
  // The probe's trial: the read-only root real commands get, not a simpler one that could pass
  // where they fail.
  const run = spawnSync(path, [...flags, ...trialMounts(), '--', trueBinary], {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: CHECK_TIMEOUT_MS,
    encoding: 'utf8',
  });
  if (run.status === 0) {
    verified.add(key);
    located.set(lookup, path);
    return { ok: true, path };
  }
  const stderr = (run.stderr ?? '').trim();
  const what =
    run.error !== undefined
      ? `${(run.error as NodeJS.ErrnoException).code ?? run.error.message}`
      : stderr || `exit ${run.status ?? run.signal}`;
  return {
    ok: false,
    reason: `bubblewrap (${path}) cannot build a sandbox on this host: ${firstLine(what)}`,
    fix: fixForBwrapFailure(stderr, options.isRoot),
  };
}

/** {@link checkBwrap} for `policy`, as this process (root or not) and its PATH would run it. */
export function checkPolicyBwrap(policy: SandboxPolicy): BwrapAvailability {
  return checkBwrap({
    explicitPath: policy.bwrapPath,
    pathValue: process.env.PATH,
    isRoot: process.getuid?.() === 0,
    network: policy.network,
  });
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
