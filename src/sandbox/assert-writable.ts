/**
 * The in-process half of the write boundary: the same writable roots, read-only names and hidden
 * paths the OS sandbox enforces on commands, checked before a host-side write.
 * @module
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { describeValue } from '../errors/describe-value.js';
import { InvalidArgumentError, SandboxDeniedError } from '../errors/index.js';
import { privateBasePaths } from '../subprocess/private-dir.js';
import { isWithin } from '../vfs/path-scope.js';
import { parseProtectedName } from './protected-names.js';
import type { SandboxPolicy } from './types.js';
import { validatePolicy } from './validate-policy.js';

/** Symlinks followed before giving up, as the kernel does (`ELOOP`). */
const MAX_SYMLINK_HOPS = 40;

/**
 * Throw unless a write to `absolutePath` is allowed by `policy`. The path is resolved the way the
 * write would resolve it (symlinks followed, including a dangling final link, missing tail
 * components appended to their deepest existing ancestor), then it must lie inside a writable root,
 * outside every read-only name of that root, outside every hidden path and outside berth's own
 * private directory.
 * @throws SandboxDeniedError when the policy forbids the write; InvalidArgumentError for a relative
 *   or non-string path.
 */
export function assertWritable(policy: SandboxPolicy, absolutePath: string): void {
  validatePolicy(policy);
  if (typeof absolutePath !== 'string' || !isAbsolute(absolutePath)) {
    throw new InvalidArgumentError('path', `expected an absolute path, got ${describeValue(absolutePath)}`);
  }
  const target = resolveForWrite(resolve(absolutePath), 0);
  if (target === null) {
    throw new SandboxDeniedError(absolutePath, `more than ${MAX_SYMLINK_HOPS} symbolic links to follow`);
  }
  const root = policy.writableRoots.find((candidate) => isWithin(candidate, target));
  if (root === undefined) {
    const roots = policy.writableRoots.length === 0 ? 'none' : policy.writableRoots.join(', ');
    const via = target === absolutePath ? '' : `, resolved to ${JSON.stringify(target)}`;
    throw new SandboxDeniedError(absolutePath, `outside the writable roots${via}; writable roots: ${roots}`);
  }
  for (const writableRoot of policy.writableRoots) {
    if (!isWithin(writableRoot, target)) continue;
    for (const entry of policy.readOnlyPaths) {
      const { name } = parseProtectedName(entry);
      const protectedPath = join(writableRoot, name);
      if (isWithin(protectedPath, target) || isWithin(realOrSelf(protectedPath), target)) {
        throw new SandboxDeniedError(
          absolutePath,
          `${JSON.stringify(name)} stays read-only inside the writable root ${JSON.stringify(writableRoot)}`,
        );
      }
    }
  }
  for (const privatePath of privateBasePaths()) {
    if (isWithin(privatePath, target)) {
      throw new SandboxDeniedError(
        absolutePath,
        `inside berth's private directory ${JSON.stringify(privatePath)}`,
      );
    }
  }
  for (const hiddenPath of policy.hiddenPaths) {
    if (isWithin(hiddenPath, target) || isWithin(realOrSelf(hiddenPath), target)) {
      throw new SandboxDeniedError(absolutePath, `inside the hidden path ${JSON.stringify(hiddenPath)}`);
    }
  }
}

/** Where a write to `path` would land, or null after too many symlinks. */
function resolveForWrite(path: string, hops: number): string | null {
  if (hops > MAX_SYMLINK_HOPS) return null;
  try {
    return realpathSync.native(path);
  } catch {
    // Missing (or unreadable): follow a dangling final link, else resolve the parent and append.
  }
  let isLink = false;
  try {
    isLink = lstatSync(path).isSymbolicLink();
  } catch {
    isLink = false;
  }
  if (isLink) {
    const next = resolve(dirname(path), readlinkSync(path));
    return resolveForWrite(next, hops + 1);
  }
  const parent = dirname(path);
  if (parent === path) return path;
  const resolvedParent = resolveForWrite(parent, hops);
  return resolvedParent === null ? null : join(resolvedParent, basename(path));
}

function realOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}
