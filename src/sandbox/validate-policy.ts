/**
 * Shape checks for a policy, hand-built or not, before anything is confined with it.
 * @module
 */
import { isAbsolute, normalize } from 'node:path';
import { knownOptions, pathOption } from '../contract/validate-options.js';
import { describeValue } from '../errors/describe-value.js';
import { InvalidArgumentError } from '../errors/index.js';
import { POLICY_KEYS } from './option-keys.js';
import type { SandboxPolicy } from './types.js';

/** Throw `InvalidArgumentError` naming the first malformed field of `policy`. */
export function validatePolicy(policy: SandboxPolicy): void {
  if (typeof policy !== 'object' || policy === null) {
    throw new InvalidArgumentError(
      'policy',
      `expected a sandbox policy object, got ${describeValue(policy)}; build one with createSandboxPolicy()`,
    );
  }
  knownOptions(policy, 'policy', POLICY_KEYS, 'a SandboxPolicy');
  checkAbsoluteList(policy.writableRoots, 'policy.writableRoots');
  checkAbsoluteList(policy.hiddenPaths, 'policy.hiddenPaths');
  if (policy.network !== 'deny' && policy.network !== 'allow') {
    throw new InvalidArgumentError(
      'policy.network',
      `expected 'deny' or 'allow', got ${describeValue(policy.network)}`,
    );
  }
  if (!Array.isArray(policy.readOnlyPaths)) {
    throw new InvalidArgumentError(
      'policy.readOnlyPaths',
      `expected an array of relative path names, got ${describeValue(policy.readOnlyPaths)}`,
    );
  }
  policy.readOnlyPaths.forEach((name, index) => {
    checkRelativeName(name, `policy.readOnlyPaths[${index}]`);
  });
  const sockets = policy.unixSockets;
  if (sockets !== undefined && sockets !== 'deny' && sockets !== 'allow') {
    if (!Array.isArray(sockets)) {
      throw new InvalidArgumentError(
        'policy.unixSockets',
        `expected 'deny', 'allow' or an array of absolute socket paths, got ${describeValue(sockets)}`,
      );
    }
    checkAbsoluteList(sockets, 'policy.unixSockets');
  }
  if (typeof policy.bwrapPath === 'string') pathOption(policy.bwrapPath, 'policy.bwrapPath', true);
  if (
    policy.bwrapPath !== undefined &&
    (typeof policy.bwrapPath !== 'string' || !isAbsolute(policy.bwrapPath))
  ) {
    throw new InvalidArgumentError(
      'policy.bwrapPath',
      `expected an absolute path to the bubblewrap executable, got ${describeValue(policy.bwrapPath)}`,
    );
  }
}

/**
 * A read-only name: relative, inside its root (no `..`), not empty, no NUL byte. Returns it
 * normalized, keeping one trailing `/` (a name also protected before it exists).
 */
export function checkRelativeName(name: unknown, field: string): string {
  if (typeof name !== 'string' || name.length === 0) {
    throw new InvalidArgumentError(
      field,
      `expected a path relative to a writable root, got ${describeValue(name)}`,
    );
  }
  if (isAbsolute(name)) {
    throw new InvalidArgumentError(
      field,
      `${JSON.stringify(name)} is absolute; read-only paths are relative to each writable root (e.g. ".git/hooks")`,
    );
  }
  if (name.includes('\0')) throw new InvalidArgumentError(field, 'must not contain a NUL byte');
  const normalized = normalize(name).replace(/\/+$/, '');
  if (normalized === '.' || normalized === '..' || normalized.startsWith('../')) {
    throw new InvalidArgumentError(
      field,
      `${JSON.stringify(name)} does not name a path inside the root; use a name such as ".git/hooks"`,
    );
  }
  return name.endsWith('/') ? `${normalized}/` : normalized;
}

function checkAbsoluteList(list: unknown, field: string): void {
  if (!Array.isArray(list)) {
    throw new InvalidArgumentError(field, `expected an array of absolute paths, got ${describeValue(list)}`);
  }
  list.forEach((path: unknown, index) => {
    if (typeof path !== 'string' || !isAbsolute(path)) {
      throw new InvalidArgumentError(
        `${field}[${index}]`,
        `expected an absolute path, got ${describeValue(path)}`,
      );
    }
    if (path.includes('\0')) {
      throw new InvalidArgumentError(`${field}[${index}]`, 'must not contain a NUL byte');
    }
  });
}
