/**
 * The Linux preflight: the settings that gate user namespaces, bubblewrap itself, and trial
 * sandboxes with the flags real commands get.
 * @module
 */
import { statSync } from 'node:fs';
import { namespaceFlags, trialMounts } from './bwrap-availability.js';
import { findExecutable, trueExecutable } from './find-executable.js';
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
import { termGraceWrap } from './term-grace.js';
import { terminalForegroundPrefix } from './terminal-foreground.js';
import { describeFailure, runTrial, unavailableReport } from './trial-run.js';
import type { SandboxCheck, SandboxReport } from './types.js';
import { checkSeccomp, SECCOMP_FIX } from './unix-sockets.js';

/** Check bubblewrap on this Linux host. */
export async function probeLinux(
  explicitPath: string | undefined,
  timeoutMs: number,
): Promise<SandboxReport> {
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
    return unavailableReport(
      checks,
      `bubblewrap is not available: ${detail}`,
      INSTALL_BWRAP_FIX,
      'bubblewrap',
    );
  }
  const version = await runTrial(bwrap, ['--version'], timeoutMs);
  const setuid = (statSync(bwrap).mode & 0o4000) !== 0;
  checks.push({
    id: 'bwrap-binary',
    title: 'bubblewrap executable',
    status: 'ok',
    detail: `${bwrap} (${version.stdout.trim() || 'version unknown'})${setuid ? ', installed setuid root' : ''}`,
  });

  const trueBinary = trueExecutable(process.env.PATH);
  const base = [...trialMounts(), '--', trueBinary];
  const sandbox = await runTrial(
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
    return unavailableReport(
      checks,
      `bubblewrap cannot build a sandbox: ${describeFailure(sandbox)}`,
      sandboxFix!,
      'bubblewrap',
    );
  }
  const grace = termGraceWrap(process.env.PATH);
  checks.push(
    grace === null
      ? {
          id: 'term-grace',
          title: 'SIGTERM grace inside the sandbox',
          status: 'warn',
          detail:
            'no env on PATH supports --ignore-signal/--default-signal: terminating a sandboxed command kills it at once, without a grace period',
          fix: 'install GNU coreutils 8.31 or later (its env), e.g. `apt-get install coreutils`',
        }
      : {
          id: 'term-grace',
          title: 'SIGTERM grace inside the sandbox',
          status: 'ok',
          detail: `${grace.outer[0]} keeps bubblewrap alive through SIGTERM so the command gets its grace period`,
        },
  );
  const foreground = terminalForegroundPrefix(process.env.PATH);
  checks.push(
    foreground === null
      ? {
          id: 'terminal-foreground',
          title: 'Terminal foreground group inside the sandbox',
          status: 'warn',
          detail:
            "no perl on PATH: a sandboxed terminal's shell starts without a foreground group of its own, and dash then exits 2 instead of its real status",
          fix: 'install Perl (its core POSIX module), e.g. `apt-get install perl-base`',
        }
      : {
          id: 'terminal-foreground',
          title: 'Terminal foreground group inside the sandbox',
          status: 'ok',
          detail: `${foreground[0]} gives a sandboxed terminal's shell its own foreground group`,
        },
  );
  const network = await runTrial(
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
  const filter = checkSeccomp(bwrap, namespaceFlags({ isRoot, network: 'allow', newSession: true }));
  checks.push({
    id: 'unix-socket-filter',
    title: "Unix socket filter (unixSockets: 'deny', the default)",
    status: filter.ok ? 'ok' : 'fail',
    detail: filter.ok
      ? 'bubblewrap loaded the seccomp program that refuses socket(AF_UNIX)'
      : `${filter.reason}; policies with unixSockets 'deny' fail closed, a list or 'allow' still works`,
    fix: filter.ok ? undefined : SECCOMP_FIX,
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
