/**
 * `berth doctor`: what works on this machine, what does not, why, and how to fix it.
 * @module
 */

import type { SandboxReport } from '../../sandbox/types.js';
import { type CommandSpec, formatHelp, parseArgs, stringFlag } from '../args.js';
import type { CheckStatus, DoctorCheck } from '../doctor/check.js';
import { checkDocker, checkGvisor } from '../doctor/docker-check.js';
import { checkKubernetes, type KubernetesChoice } from '../doctor/kubernetes-check.js';
import { checkNode, checkNodePty } from '../doctor/node-check.js';
import { checkRemoteContexts } from '../doctor/remote-check.js';
import { checkSandbox } from '../doctor/sandbox-check.js';
import { checkSupervisor } from '../doctor/supervisor-check.js';
import { checkVirtual } from '../doctor/virtual-check.js';
import type { CliIo } from '../io.js';
import { startSpinner } from '../spinner.js';
import type { Style } from '../style.js';
import { berthVersion } from '../version.js';

export const doctorSpec: CommandSpec = {
  name: 'berth doctor',
  summary:
    'check what works here: node-pty, the process supervisor, the OS sandbox, the Docker engine, gVisor, a Kubernetes cluster, E2B, Daytona, the virtual context',
  usage: ['[--json] [--image IMAGE] [--kubeconfig FILE] [--kube-context NAME] [--namespace NAME]'],
  positionals: 'none',
  flags: {
    json: { type: 'boolean', description: 'print the findings as JSON' },
    image: {
      type: 'string',
      value: 'IMAGE',
      description: 'image for the gVisor test container (default: the smallest local image; needs sh)',
    },
    kubeconfig: {
      type: 'string',
      value: 'FILE',
      description: 'the kubeconfig to check (default: KUBECONFIG, ~/.kube/config, in-cluster)',
    },
    'kube-context': {
      type: 'string',
      value: 'NAME',
      description: "the kubeconfig's context to check (default: its current context)",
    },
    namespace: {
      type: 'string',
      value: 'NAME',
      description: "the namespace whose permissions are checked (default: the kubeconfig context's)",
    },
  },
  details: `Each finding is ok, warn (works with a caveat), fail (does not work; a fix is given) or skip
(could not be checked). The Kubernetes check is skipped when no kubeconfig is found; with one, it
asks the API server (SelfSubjectAccessReview) for each permission the kubernetes context needs.
Exit status: 0 when nothing failed, 1 otherwise.

JSON shape: { "version", "platform", "ok", "checks": [{ "id", "title", "status", "detail",
"fix"?, "checks"? }], "sandbox": <the sandbox preflight report> }`,
};

/** `berth doctor` */
export async function doctorCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(argv, doctorSpec);
  if (parsed.help) {
    io.stdout.write(formatHelp(doctorSpec));
    return 0;
  }
  const { checks, sandboxReport } = await runChecks(io, stringFlag(parsed.flags, 'image'), {
    kubeconfig: stringFlag(parsed.flags, 'kubeconfig'),
    context: stringFlag(parsed.flags, 'kube-context'),
    namespace: stringFlag(parsed.flags, 'namespace'),
  });
  const ok = checks.every((c) => c.status !== 'fail');
  if (parsed.flags.json) {
    const report = {
      version: berthVersion(),
      platform: `${process.platform}-${process.arch}`,
      ok,
      checks,
      sandbox: sandboxReport,
    };
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    io.stdout.write(renderChecks(checks, io.out));
  }
  return ok ? 0 : 1;
}

/** Every check, in report order; a spinner on a terminal while they run. */
async function runChecks(
  io: CliIo,
  image: string | undefined,
  kubernetes: KubernetesChoice,
): Promise<{ checks: DoctorCheck[]; sandboxReport: SandboxReport | null }> {
  const spinner = startSpinner(
    'checking node-pty, the supervisor, the OS sandbox, the Docker engine and a Kubernetes cluster',
    io.stderr,
  );
  try {
    const [pty, supervisor, sandbox, docker, cluster, remote, virtual] = await Promise.all([
      checkNodePty(),
      checkSupervisor(),
      checkSandbox(),
      checkDocker(io.env),
      checkKubernetes(kubernetes),
      checkRemoteContexts(io.env),
      checkVirtual(io.env),
    ]);
    spinner.update('starting a gVisor test container');
    const gvisor = await checkGvisor(docker.facts, image);
    return {
      checks: [
        checkNode(),
        pty,
        supervisor,
        sandbox.check,
        docker.check,
        gvisor,
        cluster,
        ...remote,
        virtual,
      ],
      sandboxReport: sandbox.report,
    };
  } finally {
    spinner.stop();
  }
}

const MARK: Record<CheckStatus, string> = { ok: '✓', warn: '!', fail: '✗', skip: '-' };

/** The findings for people: a mark, the title, what was seen, and the fix. */
export function renderChecks(checks: readonly DoctorCheck[], style: Style, indent = ''): string {
  const colour: Record<CheckStatus, (text: string) => string> = {
    ok: style.green,
    warn: style.yellow,
    fail: style.red,
    skip: style.dim,
  };
  let out = '';
  for (const check of checks) {
    out += `${indent}${colour[check.status](MARK[check.status])} ${style.bold(check.title)}: ${check.detail}\n`;
    if (check.fix && check.status !== 'ok') out += `${indent}    ${style.cyan('fix:')} ${check.fix}\n`;
    if (check.checks && check.checks.length > 0) out += renderChecks(check.checks, style, `${indent}    `);
  }
  return out;
}
