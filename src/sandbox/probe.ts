/**
 * The preflight: what works, what does not, why, and how to fix it. Runs real sandboxes rather than
 * trusting settings alone, and reads the settings to explain a failure.
 * @module
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { namespaceFlags, trialMounts } from './bwrap-availability.js';
import { findExecutable, isExecutableFile, trueExecutable } from './find-executable.js';
import {
  APPARMOR_FIX,
  CONTAINER_FIX,
  fixForBwrapFailure,
  INSTALL_BWRAP_FIX,
  insideContainer,
  MAX_USERNS_FIX,
  readUserNamespaceSettings,
  USERNS_CLONE_FIX,
} from './linux-host.js';
import { SANDBOX_EXEC_PATH } from './sandbox-exec-profile.js';
import type { SandboxCheck, SandboxReport } from './types.js';

/** Options for {@link probeSandbox}. */
export interface ProbeSandboxOptions {
  /** Absolute path of bubblewrap to check; default `bwrap` on `PATH`. */
  readonly bwrapPath?: string | undefined;
  /** Bound on each trial run (default 10000). */
  readonly timeoutMs?: number | undefined;
}

/** Check whether commands can be sandboxed on this host, and explain every failure. */
export async function probeSandbox(options: ProbeSandboxOptions = {}): Promise<SandboxReport> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (process.platform === 'linux') return probeLinux(options.bwrapPath, timeoutMs);
  if (process.platform === 'darwin') return probeDarwin(timeoutMs);
  const fix = 'use the docker context for isolation on this platform';
  const reason = `no OS sandbox backend for the platform "${process.platform}"`;
  return {
    platform: process.platform,
    backend: 'none',
    available: false,
    networkIsolation: false,
    reason,
    fix,
    checks: [{ id: 'platform', title: 'Platform', status: 'fail', detail: reason, fix }],
  };
}

async function probeLinux(explicitPath: string | undefined, timeoutMs: number): Promise<SandboxReport> {
  const checks: SandboxCheck[] = [];
  const isRoot = process.getuid?.() === 0;
  checks.push({
    id: 'user',
    title: 'Running user',
    status: 'ok',
    detail: isRoot
      ? 'uid 0: commands keep uid 0 with every capability dropped; no user namespace is needed'
      : `uid ${process.getuid?.()}: bubblewrap needs unprivileged user namespaces`,
  });

  const settings = readUserNamespaceSettings();
  const needsUserns = !isRoot;
  const usernsStatus = (blocked: boolean) => (blocked ? (needsUserns ? 'fail' : 'warn') : 'ok');
  checks.push(
    settings.unprivilegedUsernsClone === null
      ? setting(
          'userns-clone',
          'kernel.unprivileged_userns_clone',
          'skip',
          'not present on this kernel (no restriction)',
        )
      : setting(
          'userns-clone',
          'kernel.unprivileged_userns_clone',
          usernsStatus(settings.unprivilegedUsernsClone === 0),
          `${settings.unprivilegedUsernsClone}`,
          settings.unprivilegedUsernsClone === 0 ? USERNS_CLONE_FIX : undefined,
        ),
    settings.maxUserNamespaces === null
      ? setting('max-user-namespaces', 'user.max_user_namespaces', 'skip', 'not present on this kernel')
      : setting(
          'max-user-namespaces',
          'user.max_user_namespaces',
          usernsStatus(settings.maxUserNamespaces === 0),
          `${settings.maxUserNamespaces}`,
          settings.maxUserNamespaces === 0 ? MAX_USERNS_FIX : undefined,
        ),
    settings.apparmorRestrictUserns === null
      ? setting(
          'apparmor-userns',
          'kernel.apparmor_restrict_unprivileged_userns',
          'skip',
          'not present (no AppArmor restriction)',
        )
      : setting(
          'apparmor-userns',
          'kernel.apparmor_restrict_unprivileged_userns',
          settings.apparmorRestrictUserns === 1 && needsUserns ? 'warn' : 'ok',
          `${settings.apparmorRestrictUserns}${settings.apparmorRestrictUserns === 1 ? ' (user namespaces only for programs whose AppArmor profile allows them; the trial run below decides)' : ''}`,
          settings.apparmorRestrictUserns === 1 && needsUserns ? APPARMOR_FIX : undefined,
        ),
  );
  const container = insideContainer();
  const bwrap = findExecutable(explicitPath ?? 'bwrap', process.env.PATH);
  if (bwrap === null) {
    const detail =
      explicitPath === undefined
        ? `no executable "bwrap" on PATH (${process.env.PATH ?? 'unset'})`
        : `${JSON.stringify(explicitPath)} is not an executable file`;
    checks.push({
      id: 'bwrap-binary',
      title: 'bubblewrap executable',
      status: 'fail',
      detail,
      fix: INSTALL_BWRAP_FIX,
    });
    return unavailable(checks, `bubblewrap is not available: ${detail}`, INSTALL_BWRAP_FIX);
  }
  const version = await run(bwrap, ['--version'], timeoutMs);
  const setuid = (statSync(bwrap).mode & 0o4000) !== 0;
  checks.push({
    id: 'bwrap-binary',
    title: 'bubblewrap executable',
    status: 'ok',
    detail: `${bwrap} (${version.stdout.trim() || 'version unknown'})${setuid ? ', installed setuid root' : ''}`,
  });

  const trueBinary = trueExecutable(process.env.PATH);
  const base = [...trialMounts(), '--', trueBinary];
  const sandbox = await run(
    bwrap,
    [...namespaceFlags({ isRoot, network: 'allow', newSession: true }), ...base],
    timeoutMs,
  );
  const sandboxOk = sandbox.code === 0;
  const sandboxFix = sandboxOk ? undefined : fixForBwrapFailure(sandbox.stderr, isRoot);
  checks.push({
    id: 'bwrap-run',
    title: 'Trial sandbox (read-only root, own PID namespace, die-with-parent, new session)',
    status: sandboxOk ? 'ok' : 'fail',
    detail: sandboxOk ? 'a trivial command ran inside the sandbox' : describeFailure(sandbox),
    fix: sandboxFix,
  });
  if (container) checks.push(containerCheck(sandboxOk));
  if (!sandboxOk) {
    return unavailable(checks, `bubblewrap cannot build a sandbox: ${describeFailure(sandbox)}`, sandboxFix!);
  }
  const network = await run(
    bwrap,
    [...namespaceFlags({ isRoot, network: 'deny', newSession: true }), ...base],
    timeoutMs,
  );
  const networkOk = network.code === 0;
  const networkFix = networkOk ? undefined : fixForBwrapFailure(network.stderr, isRoot);
  checks.push({
    id: 'network-namespace',
    title: "Network namespace (network: 'deny')",
    status: networkOk ? 'ok' : 'fail',
    detail: networkOk
      ? 'a command ran with its own network namespace (loopback only)'
      : `${describeFailure(network)}; policies with network 'deny' fail closed, network 'allow' still works`,
    fix: networkFix,
  });
  return {
    platform: 'linux',
    backend: 'bubblewrap',
    available: true,
    networkIsolation: networkOk,
    checks,
    ...(networkOk
      ? {}
      : { reason: `network isolation is unavailable: ${describeFailure(network)}`, fix: networkFix }),
  };
}

async function probeDarwin(timeoutMs: number): Promise<SandboxReport> {
  const checks: SandboxCheck[] = [];
  if (!isExecutableFile(SANDBOX_EXEC_PATH)) {
    const fix = 'restore the system sandbox-exec (it ships with macOS), or use the docker context';
    checks.push({
      id: 'sandbox-exec-binary',
      title: 'sandbox-exec executable',
      status: 'fail',
      detail: `${SANDBOX_EXEC_PATH} is missing or not executable`,
      fix,
    });
    return {
      ...unavailable(checks, `${SANDBOX_EXEC_PATH} is missing`, fix),
      platform: 'darwin',
      backend: 'sandbox-exec',
    };
  }
  checks.push({
    id: 'sandbox-exec-binary',
    title: 'sandbox-exec executable',
    status: 'ok',
    detail: SANDBOX_EXEC_PATH,
  });
  const trial = await run(
    SANDBOX_EXEC_PATH,
    ['-p', '(version 1)(allow default)(deny network*)', '--', '/usr/bin/true'],
    timeoutMs,
  );
  const ok = trial.code === 0;
  const fix =
    'sandbox-exec refused a trivial profile; check whether this process already runs inside an App Sandbox (sandboxes do not nest)';
  checks.push({
    id: 'sandbox-exec-run',
    title: 'Trial sandbox',
    status: ok ? 'ok' : 'fail',
    detail: ok ? 'a trivial command ran under a generated profile' : describeFailure(trial),
    ...(ok ? {} : { fix }),
  });
  if (!ok) {
    return {
      ...unavailable(checks, `sandbox-exec failed: ${describeFailure(trial)}`, fix),
      platform: 'darwin',
      backend: 'sandbox-exec',
    };
  }
  return { platform: 'darwin', backend: 'sandbox-exec', available: true, networkIsolation: true, checks };
}

function containerCheck(namespacesWork: boolean): SandboxCheck {
  return namespacesWork
    ? {
        id: 'container',
        title: 'Container',
        status: 'ok',
        detail:
          'this process runs inside a container whose security profile allows the namespaces bubblewrap needs',
      }
    : {
        id: 'container',
        title: 'Container',
        status: 'warn',
        detail:
          'this process runs inside a container; its seccomp or AppArmor profile may forbid the namespaces bubblewrap needs',
        fix: CONTAINER_FIX,
      };
}

function setting(
  id: string,
  name: string,
  status: SandboxCheck['status'],
  detail: string,
  fix?: string,
): SandboxCheck {
  return { id, title: name, status, detail, fix };
}

function unavailable(checks: SandboxCheck[], reason: string, fix: string): SandboxReport {
  return {
    platform: process.platform,
    backend: 'bubblewrap',
    available: false,
    networkIsolation: false,
    reason,
    fix,
    checks,
  };
}

interface TrialRun {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly error: string | undefined;
}

function describeFailure(trial: TrialRun): string {
  if (trial.error !== undefined) return trial.error;
  const line = trial.stderr.trim().split('\n', 1)[0];
  return line || `exit ${trial.code ?? trial.signal}`;
}

/** Run a short trial, capped in time and output (a few KiB is all a trial prints). */
function run(file: string, args: readonly string[], timeoutMs: number): Promise<TrialRun> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      if (stdout.length < 4096) stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      if (stderr.length < 4096) stderr += text;
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      resolve({ code: null, signal: null, stdout, stderr, error: `${file}: ${error.code ?? error.message}` });
    });
    child.on('close', (code, signal) => {
      resolve({
        code,
        signal,
        stdout,
        stderr,
        error: signal === 'SIGTERM' ? `no answer within ${timeoutMs} ms` : undefined,
      });
    });
  });
}
