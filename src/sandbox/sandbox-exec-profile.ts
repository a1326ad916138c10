/**
 * macOS: the policy as a sandbox-exec (SBPL) profile. Paths never appear in the profile text; they
 * arrive as `-D` parameters, so no path can change the profile's meaning.
 * @module
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { knownOptions } from '../contract/validate-options.js';
import { privateBasePaths } from '../subprocess/private-dir.js';
import { PROFILE_OPTION_KEYS } from './option-keys.js';
import { parseProtectedName } from './protected-names.js';
import type { SandboxPolicy } from './types.js';
import { validatePolicy } from './validate-policy.js';

/** Where macOS keeps sandbox-exec. */
export const SANDBOX_EXEC_PATH = '/usr/bin/sandbox-exec';

/** A generated profile and the path parameters it refers to. */
export interface SandboxExecProfile {
  /** SBPL text; refers to paths only through `(param "...")`. */
  readonly profile: string;
  /** Parameter name → absolute path, passed as `-D NAME=path`. */
  readonly parameters: Readonly<Record<string, string>>;
}

/** Options for {@link generateSandboxExecProfile}. */
export interface SandboxExecProfileOptions {
  /** Resolve existing hidden paths through symlinks (default true; the kernel matches real paths). */
  readonly resolveSymlinks?: boolean | undefined;
}

/**
 * Generate the SBPL profile for `policy`: deny by default; run, fork and signal within the sandbox;
 * read everything except the hidden paths; write only inside the writable roots, never their
 * read-only names nor hidden paths; network only when the policy allows it.
 */
export function generateSandboxExecProfile(
  policy: SandboxPolicy,
  options: SandboxExecProfileOptions = {},
): SandboxExecProfile {
  validatePolicy(policy);
  knownOptions(options, 'options', PROFILE_OPTION_KEYS, 'generateSandboxExecProfile');
  const resolve = options.resolveSymlinks === false ? (path: string) => path : realOrSelf;
  const parameters: Record<string, string> = {};
  const hidden = [...new Set(policy.hiddenPaths.map(resolve))].map((path, index) => {
    parameters[`HIDDEN_${index}`] = path;
    return `(subpath (param "HIDDEN_${index}"))`;
  });
  // berth's own files stay read-only whatever the roots say (its host side trusts them).
  const privateRules = (policy.writableRoots.length === 0 ? [] : privateBasePaths()).map((path, index) => {
    parameters[`BERTH_PRIVATE_${index}`] = resolve(path);
    return `(subpath (param "BERTH_PRIVATE_${index}"))`;
  });
  const writeRules = policy.writableRoots.map((root, rootIndex) => {
    parameters[`WRITABLE_ROOT_${rootIndex}`] = root;
    const exclusions = policy.readOnlyPaths.map((entry, nameIndex) => {
      const key = `WRITABLE_ROOT_${rootIndex}_RO_${nameIndex}`;
      parameters[key] = join(root, parseProtectedName(entry).name);
      return `      (require-not (subpath (param "${key}")))`;
    });
    const hiddenExclusions = [...hidden, ...privateRules].map((rule) => `      (require-not ${rule})`);
    return [
      '  (require-all',
      `      (subpath (param "WRITABLE_ROOT_${rootIndex}"))`,
      ...exclusions,
      ...hiddenExclusions,
      '  )',
    ].join('\n');
  });

  const lines = [
    '(version 1)',
    '; berth sandbox profile, generated from a SandboxPolicy. Paths arrive as -D parameters.',
    '(deny default)',
    '',
    '; Processes: run programs, fork, and inspect or signal only what this sandbox started.',
    '(allow process-exec)',
    '(allow process-fork)',
    '(allow process-info* (target same-sandbox))',
    '(allow signal (target same-sandbox))',
    '',
    '; What ordinary programs consult at start-up.',
    '(allow sysctl-read)',
    '(allow user-preference-read)',
    '(allow ipc-posix-sem)',
    '(allow mach-lookup',
    '  (global-name "com.apple.system.opendirectoryd.libinfo")',
    '  (global-name "com.apple.system.notification_center")',
    '  (global-name "com.apple.system.logger")',
    '  (global-name "com.apple.trustd.agent")',
    '  (global-name "com.apple.SecurityServer"))',
    '(allow iokit-open (iokit-registry-entry-class "RootDomainUserClient"))',
    '',
    '; Reads: everywhere except the hidden paths.',
    hidden.length === 0
      ? '(allow file-read*)'
      : [
          '(allow file-read*',
          '  (require-not',
          '    (require-any',
          ...hidden.map((r) => `      ${r}`),
          ')))',
        ].join('\n'),
    '',
    "; Writes: inside the writable roots, never their read-only names, hidden paths nor berth's own files.",
    writeRules.length === 0
      ? '; (no writable roots: the filesystem is read-only)'
      : ['(allow file-write*', ...writeRules, ')'].join('\n'),
    '',
    '; Devices every command writes: the null sink, terminals, inherited descriptors.',
    '(allow file-write-data',
    '  (literal "/dev/null")',
    '  (literal "/dev/zero")',
    '  (literal "/dev/dtracehelper")',
    '  (literal "/dev/tty")',
    '  (regex #"^/dev/ttys[0-9]+$")',
    '  (regex #"^/dev/fd/[0-9]+$"))',
    '(allow file-ioctl',
    '  (literal "/dev/dtracehelper")',
    '  (literal "/dev/tty")',
    '  (regex #"^/dev/ttys[0-9]+$"))',
    '(allow pseudo-tty)',
    '',
    policy.network === 'allow'
      ? [
          '; Network: allowed, with name resolution and the system network configuration.',
          '(allow network*)',
          '(allow system-socket)',
          '(allow mach-lookup',
          '  (global-name "com.apple.dnssd.service")',
          '  (global-name "com.apple.SystemConfiguration.configd"))',
        ].join('\n')
      : '; Network: denied (no network rule; deny default covers every socket operation).',
    '',
    unixSocketRules(policy, parameters),
    '',
  ];
  return { profile: lines.join('\n'), parameters };
}

/**
 * Unix sockets: with the network allowed, `network*` would admit them all, so they are denied again
 * unless the policy allows them; a list admits its sockets and those inside the writable roots.
 */
function unixSocketRules(policy: SandboxPolicy, parameters: Record<string, string>): string {
  const rule = policy.unixSockets ?? 'deny';
  if (rule === 'allow') return '; Unix sockets: allowed as the network rule says.';
  const lines = ['; Unix sockets: refused (a read-only file does not stop connect()).'];
  if (policy.network === 'allow') lines.push('(deny network-outbound (remote unix-socket))');
  if (rule === 'deny') return lines.join('\n');
  const sockets = rule.map((path, index) => {
    parameters[`UNIX_SOCKET_${index}`] = path;
    return `  (remote unix-socket (path-literal (param "UNIX_SOCKET_${index}")))`;
  });
  const roots = policy.writableRoots.map(
    (_, index) => `  (remote unix-socket (subpath (param "WRITABLE_ROOT_${index}")))`,
  );
  if (sockets.length + roots.length > 0) lines.push('(allow network-outbound', ...roots, ...sockets, ')');
  return lines.join('\n');
}

/** The argv that runs `argv` under sandbox-exec with `profile`. */
export function sandboxExecArgv(profile: SandboxExecProfile, argv: readonly string[]): string[] {
  const definitions = Object.entries(profile.parameters).map(([key, value]) => `-D${key}=${value}`);
  return [SANDBOX_EXEC_PATH, '-p', profile.profile, ...definitions, '--', ...argv];
}

function realOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}
