/**
 * The context flags every context-using command shares, and the one place that turns them into a
 * live context: by default the process context over the current directory, sandboxed where the
 * sandbox works.
 * @module
 */
import { realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import type { NetworkOptions } from '../commands/net/allowlist.js';
import { createProcessContext } from '../contexts/process/index.js';
import type { ContextHandle, ExecutionContext } from '../contract/types.js';
import { knownOptions, optionKeys } from '../contract/validate-options.js';
import { InvalidArgumentError, SandboxUnavailableError } from '../errors/index.js';
import { createSandboxPolicy } from '../sandbox/index.js';
import type { SandboxPolicy } from '../sandbox/types.js';
import { ensureSupervisor } from '../subprocess/supervisor-location.js';
import { type FlagSpec, type FlagValues, stringFlag } from './args.js';
import { type CliIo, warn } from './io.js';
import { probeSandboxCached } from './sandbox-probe-cache.js';
import { startSpinner, withSpinner } from './spinner.js';
import { chooseVirtual, openVirtual, VIRTUAL_WORKSPACE } from './virtual-setup.js';

/**
 * TERM → KILL grace for the trees berth ends. Shorter than the library default (5 s) because MCP
 * clients give a server about 2 s after closing its stdin before they signal it, and 2 s more before
 * SIGKILL: cleanup has to fit inside that window.
 */
export const CLI_KILL_GRACE_MS = 2000;

/** Where the workspace appears inside a container. */
export const CONTAINER_WORKSPACE = '/workspace';

/** Flags shared by `run`, `mcp`, `shell` and `tools`. */
export const CONTEXT_FLAGS: Readonly<Record<string, FlagSpec>> = {
  context: {
    type: 'string',
    value: 'process|docker|kubernetes|e2b|daytona|virtual',
    description: 'where commands run (default: process, on this machine)',
  },
  root: {
    type: 'string',
    value: 'DIR',
    description: 'workspace directory: file tools stay inside it (default: the current directory)',
  },
  sandbox: {
    type: 'boolean',
    negatable: true,
    description: 'process context: confine commands with the OS sandbox (default: when it works here)',
  },
  'sandbox-session': {
    type: 'boolean',
    description:
      'process context: one sandbox session for all commands (they share processes, loopback and /tmp: a server a background command starts answers later commands); needs the sandbox',
  },
  supervise: {
    type: 'boolean',
    negatable: true,
    description:
      'process context: run every command under the per-command supervisor (default: on; --no-supervise runs them without an owner)',
  },
  network: {
    type: 'string',
    value: 'allow|deny',
    description:
      'network for commands in the sandbox or the container (default: deny; an explicit deny requires the sandbox)',
  },
  'unix-sockets': {
    type: 'string',
    value: 'deny|own|allow',
    description:
      'sandbox: Unix sockets commands may connect to (default: deny, none at all; own: only those inside the root and the temp directory; allow: any)',
  },
  image: {
    type: 'string',
    value: 'IMAGE',
    description:
      'docker and kubernetes contexts: image to run (required; docker never pulls it, the cluster pulls as it is set up to)',
  },
  harden: {
    type: 'boolean',
    negatable: true,
    description:
      'docker and kubernetes contexts: the recommended hardening (no capabilities, read-only root; default: on)',
  },
  kubeconfig: {
    type: 'string',
    value: 'FILE',
    description: 'kubernetes context: the kubeconfig (default: KUBECONFIG, ~/.kube/config, in-cluster)',
  },
  'kube-context': {
    type: 'string',
    value: 'NAME',
    description: "kubernetes context: the kubeconfig's context to use (default: its current context)",
  },
  namespace: {
    type: 'string',
    value: 'NAME',
    description: "kubernetes context: the namespace of the pod (default: the kubeconfig context's)",
  },
  template: {
    type: 'string',
    value: 'NAME',
    description: "e2b context: the sandbox template; daytona context: the snapshot (default: the service's)",
  },
  session: {
    type: 'string',
    value: 'NAME',
    description:
      'virtual context: keep the changes in the session NAME (made, or continued) for berth changes/diff/commit',
  },
  'allow-url': {
    type: 'string',
    value: '[METHODS ]PREFIX',
    repeatable: true,
    description:
      "virtual context: let curl and wget fetch URLs under PREFIX (scheme, host, port or :*, whole path segments), with METHODS (comma-separated, or *; default GET,HEAD), e.g. 'GET,POST https://api.example.com/v1/'",
  },
};

/** Text appended to the help of every context-using command. */
export const CONTEXT_DETAILS = `Contexts:
  process (default)  commands run on this machine with --root as working directory and
                     containment root. Without --sandbox or --no-sandbox, berth probes the OS
                     sandbox: where it works, commands run inside it (writes limited to the root
                     and the temp directory, credentials hidden, network per --network); where it
                     does not, berth says so on stderr and runs unsandboxed. With --sandbox a
                     missing sandbox is an error: berth never runs unconfined when asked not to.
  docker             commands run in a container of --image (present locally; berth does not
                     pull), with --root mounted at ${CONTAINER_WORKSPACE}, and no network unless
                     --network allow. Hardened unless --no-harden: no capabilities, no new
                     privileges, a read-only root (${CONTAINER_WORKSPACE} and /tmp writable), a pids
                     limit, commands run as your uid:gid. With --network allow the container can
                     reach this machine's addresses (the engine cannot take them away alone).
                     The container is removed when berth exits.
  kubernetes         commands run in a pod of --image on the cluster of the kubeconfig (as kubectl
                     finds it; --kubeconfig, --kube-context, --namespace choose), working directory
                     ${CONTAINER_WORKSPACE} in the pod. The pod cannot see this machine's files, so
                     --root does not apply. Hardened unless --no-harden: no capabilities, no
                     privilege escalation, a read-only root (${CONTAINER_WORKSPACE} and /tmp
                     writable), no service account token. The pod is on the cluster's network
                     (berth cannot deny it: use a NetworkPolicy). The pod is deleted when berth
                     exits; berth doctor checks the cluster and the permissions it needs.
  e2b, daytona       commands run in a new remote sandbox of that service (E2B_API_KEY, or
                     DAYTONA_API_KEY and DAYTONA_API_URL, must be set; the SDK \`e2b\` or
                     \`@daytonaio/sdk\` must be installed next to berth), from --template, with no
                     internet access unless --network allow. Nothing of --root is uploaded: the
                     sandbox's home directory is the working directory. The sandbox is deleted
                     when berth exits.
  virtual            commands run in berth's own shell, in this process: no host process, and no
                     network unless --allow-url lists what curl and wget may fetch (each redirect
                     is checked too). --root appears at ${VIRTUAL_WORKSPACE} as a copy-on-write view: nothing
                     reaches the directory until a person commits. Changes are kept in a session
                     (always under berth mcp, else with --session NAME) that berth changes, diff,
                     commit and discard find from another terminal; without one they are dropped
                     when berth exits.`;

/** A live context and handle, with a description for people. */
export interface OpenContext {
  readonly context: ExecutionContext;
  readonly handle: ContextHandle;
  /** e.g. `process context, sandboxed (bubblewrap), root /home/me/app`. */
  readonly description: string;
  /** Virtual context: the session keeping the changes (its id and name), when there is one. */
  readonly session?: { readonly id: string; readonly name: string | null } | undefined;
  /**
   * End everything: every process and container the context started, and its private files.
   * Idempotent. `graceMs` bounds the TERM → KILL wait (default the context's grace); a later call
   * with a shorter one hastens a dispose under way where the context can (the process context).
   */
  dispose(options?: { readonly graceMs?: number }): Promise<void>;
}

/** Context settings a command adds to the shared flags. */
export interface ContextTuning {
  /** Bytes of each output stream `exec` keeps in memory (head + tail). */
  readonly maxOutputBytes?: number | undefined;
  /** Virtual context: keep the changes in a session even without `--session` (a new one). */
  readonly keepSession?: boolean | undefined;
  /** Virtual context: each `exec` continues the shell state of the last (an interactive shell). */
  readonly shellSession?: boolean | undefined;
}

const TUNING_KEYS = optionKeys<ContextTuning>({
  maxOutputBytes: true,
  keepSession: true,
  shellSession: true,
});

/** The context the flags describe, validated, before anything is started. */
export type ContextChoice =
  | {
      readonly kind: 'process';
      readonly root: string;
      /** `true` required, `false` refused, `undefined` where it works. */
      readonly sandbox: boolean | undefined;
      /** The flag that makes the sandbox required: `--sandbox`, or `--network deny` (only it can deny). */
      readonly sandboxRequiredBy?: '--sandbox' | '--network deny' | '--sandbox-session' | undefined;
      readonly network: 'allow' | 'deny';
      /** Own every command with the supervisor (default); `false` is `--no-supervise`. */
      readonly supervise: boolean;
      /** The policy's `unixSockets` (`own`: an empty list, sockets inside the writable roots only). */
      readonly unixSockets: 'deny' | 'allow' | readonly string[];
      /** `--sandbox-session`: one sandbox session for every command (the sandbox is then required). */
      readonly sandboxSession: boolean;
    }
  | {
      readonly kind: 'docker';
      readonly root: string;
      readonly image: string;
      readonly network: 'allow' | 'deny';
      /** The recommended hardening preset (default), or none (`--no-harden`). */
      readonly harden: boolean;
    }
  | {
      readonly kind: 'kubernetes';
      /** This machine's working directory (the pod cannot see it; `mcp --check` starts there). */
      readonly root: string;
      readonly image: string;
      readonly harden: boolean;
      readonly kubeconfig: string | undefined;
      readonly kubeContext: string | undefined;
      readonly namespace: string | undefined;
    }
  | RemoteChoice<'e2b'>
  | RemoteChoice<'daytona'>
  | {
      readonly kind: 'virtual';
      readonly root: string;
      /** `--session NAME`: the session to make or continue. */
      readonly session: string | undefined;
      /** `--allow-url`: what curl and wget may fetch; undefined: no network. */
      readonly network: NetworkOptions | undefined;
    };

/** A remote sandbox service's context. */
export interface RemoteChoice<K extends 'e2b' | 'daytona'> {
  readonly kind: K;
  /** This machine's directory the command was started in (nothing of it reaches the sandbox). */
  readonly root: string;
  /** E2B template / Daytona snapshot. */
  readonly template: string | undefined;
  readonly network: 'allow' | 'deny';
}

const KUBERNETES_ONLY = ['kubeconfig', 'kube-context', 'namespace'] as const;

/**
 * Validate the context flags and resolve the root against `cwd`, without starting anything.
 * @throws InvalidArgumentError naming the flag, for a bad value or a flag that does not fit the context.
 */
export function chooseContext(flags: FlagValues, cwd: string): ContextChoice {
  const kind = stringFlag(flags, 'context') ?? 'process';
  if (
    kind !== 'process' &&
    kind !== 'docker' &&
    kind !== 'kubernetes' &&
    kind !== 'e2b' &&
    kind !== 'daytona' &&
    kind !== 'virtual'
  ) {
    throw new InvalidArgumentError(
      '--context',
      `must be process, docker, kubernetes, e2b, daytona or virtual, got ${JSON.stringify(kind)}`,
    );
  }
  if (kind === 'virtual' && flags.supervise !== undefined) {
    throw new InvalidArgumentError(
      flags.supervise === false ? '--no-supervise' : '--supervise',
      'applies to the process context only; the virtual context starts no host process',
    );
  }
  if (kind !== 'process' && flags['sandbox-session'] !== undefined) {
    throw new InvalidArgumentError(
      '--sandbox-session',
      `applies to the OS sandbox of the process context only; the ${kind} context runs every command in one place already`,
    );
  }
  if (kind !== 'virtual' && flags.session !== undefined) {
    throw new InvalidArgumentError('--session', 'applies to the virtual context only; add --context virtual');
  }
  if (kind !== 'virtual' && flags['allow-url'] !== undefined) {
    throw new InvalidArgumentError(
      '--allow-url',
      `applies to the virtual context only (its curl and wget); the ${kind} context's commands reach the network per --network allow|deny`,
    );
  }
  if (kind === 'kubernetes') return chooseKubernetes(flags, cwd);
  for (const name of KUBERNETES_ONLY) {
    if (flags[name] !== undefined) {
      throw new InvalidArgumentError(
        `--${name}`,
        'applies to the kubernetes context only; add --context kubernetes',
      );
    }
  }
  if (kind === 'virtual') return chooseVirtual(flags, cwd, resolveRoot(stringFlag(flags, 'root'), cwd));
  const networkGiven = stringFlag(flags, 'network');
  const network = networkGiven ?? 'deny';
  if (network !== 'allow' && network !== 'deny') {
    throw new InvalidArgumentError('--network', `must be allow or deny, got ${JSON.stringify(network)}`);
  }
  const socketsGiven = stringFlag(flags, 'unix-sockets');
  if (socketsGiven !== undefined && !['deny', 'own', 'allow'].includes(socketsGiven)) {
    throw new InvalidArgumentError(
      '--unix-sockets',
      `must be deny, own or allow, got ${JSON.stringify(socketsGiven)}`,
    );
  }
  if ((kind === 'e2b' || kind === 'daytona') && socketsGiven !== undefined) {
    throw new InvalidArgumentError(
      '--unix-sockets',
      `applies to the OS sandbox of the process context; the ${kind} context runs commands in a remote sandbox`,
    );
  }
  if (kind === 'e2b' || kind === 'daytona') return chooseRemote(kind, flags, cwd, network);
  if (flags.template !== undefined) {
    throw new InvalidArgumentError(
      '--template',
      'applies to the e2b and daytona contexts only; add --context e2b',
    );
  }
  if (kind === 'docker') {
    if (socketsGiven !== undefined) {
      throw new InvalidArgumentError(
        '--unix-sockets',
        'applies to the OS sandbox of the process context; a container reaches only the sockets mounted into it',
      );
    }
    if (flags.sandbox !== undefined) {
      throw new InvalidArgumentError(
        '--sandbox',
        'applies to the process context only; the docker context isolates commands in a container',
      );
    }
    if (flags.supervise !== undefined) {
      throw new InvalidArgumentError(
        flags.supervise === false ? '--no-supervise' : '--supervise',
        'applies to the process context only; in the docker context the container owns every process',
      );
    }
    const image = stringFlag(flags, 'image');
    if (image === undefined) {
      throw new InvalidArgumentError(
        '--image',
        'the docker context needs an image to run, e.g. --image node:20 (berth never pulls: it must be present)',
      );
    }
    const harden = flags.harden !== false;
    return { kind, root: resolveRoot(stringFlag(flags, 'root'), cwd), image, network, harden };
  }
  for (const name of ['image', 'harden'] as const) {
    if (flags[name] !== undefined) {
      const flag = name === 'harden' && flags.harden === false ? '--no-harden' : `--${name}`;
      throw new InvalidArgumentError(
        flag,
        'applies to the docker and kubernetes contexts only; add --context docker or --context kubernetes',
      );
    }
  }
  const sandbox = flags.sandbox as boolean | undefined;
  const sandboxSession = flags['sandbox-session'] === true;
  if (sandbox === false && sandboxSession) {
    throw new InvalidArgumentError(
      '--sandbox-session',
      'needs the OS sandbox, and --no-sandbox turns it off; drop one of the two',
    );
  }
  if (sandbox === false && networkGiven === 'deny') {
    // Without the sandbox nothing can take the network away: refuse rather than pretend.
    throw new InvalidArgumentError(
      '--network',
      'deny needs the OS sandbox (or --context docker), and --no-sandbox turns it off; drop one of the two',
    );
  }
  const root = resolveRoot(stringFlag(flags, 'root'), cwd);
  const sandboxRequiredBy =
    sandbox === true
      ? '--sandbox'
      : sandbox === undefined && networkGiven === 'deny'
        ? '--network deny'
        : sandboxSession
          ? '--sandbox-session'
          : undefined;
  const supervise = flags.supervise !== false;
  const unixSockets = socketsGiven === 'own' ? [] : socketsGiven === 'allow' ? 'allow' : 'deny';
  return {
    kind,
    root,
    sandbox: sandboxRequiredBy ? true : sandbox,
    sandboxRequiredBy,
    network,
    unixSockets,
    supervise,
    sandboxSession,
  };
}

function chooseKubernetes(flags: FlagValues, cwd: string): ContextChoice {
  for (const name of ['sandbox', 'supervise', 'root', 'network', 'template'] as const) {
    if (flags[name] !== undefined) {
      const fix =
        name === 'template'
          ? 'the pod runs --image'
          : name === 'network'
            ? 'a pod is on the cluster network, which berth cannot take away; restrict it with a NetworkPolicy (docs/kubernetes.md)'
            : name === 'root'
              ? "a pod cannot see this machine's files; the working directory is /workspace in the pod"
              : 'the kubernetes context isolates commands in a pod';
      throw new InvalidArgumentError(`--${name}`, `does not apply to the kubernetes context: ${fix}`);
    }
  }
  const image = stringFlag(flags, 'image');
  if (image === undefined) {
    throw new InvalidArgumentError(
      '--image',
      'the kubernetes context needs an image for the pod, e.g. --image busybox:1.36 (it needs /bin/sh, env, tar)',
    );
  }
  const kubeconfig = stringFlag(flags, 'kubeconfig');
  return {
    kind: 'kubernetes',
    root: cwd,
    image,
    harden: flags.harden !== false,
    kubeconfig: kubeconfig === undefined ? undefined : resolve(cwd, kubeconfig),
    kubeContext: stringFlag(flags, 'kube-context'),
    namespace: stringFlag(flags, 'namespace'),
  };
}

function chooseRemote(
  kind: 'e2b' | 'daytona',
  flags: FlagValues,
  cwd: string,
  network: 'allow' | 'deny',
): ContextChoice {
  for (const name of ['sandbox', 'supervise', 'image', 'harden', 'root'] as const) {
    if (flags[name] !== undefined) {
      const flag = flags[name] === false ? `--no-${name}` : `--${name}`;
      throw new InvalidArgumentError(
        flag,
        name === 'root'
          ? `the ${kind} context works in the remote sandbox's home directory; nothing of this machine is uploaded, so --root does not apply`
          : `does not apply to the ${kind} context (it isolates commands in a remote sandbox); use --template to choose the sandbox`,
      );
    }
  }
  return { kind, root: resolveRoot('.', cwd), template: stringFlag(flags, 'template'), network };
}

/** Validate the context flags and open the context they describe. */
export async function openContext(
  flags: FlagValues,
  io: CliIo,
  tuning: ContextTuning = {},
): Promise<OpenContext> {
  knownOptions(tuning, 'tuning', TUNING_KEYS, 'openContext');
  const choice = chooseContext(flags, io.cwd);
  if (choice.kind === 'kubernetes') return openKubernetes(choice, io, tuning);
  if (choice.kind === 'virtual') return openVirtual(choice, io, tuning);
  if (choice.kind === 'e2b' || choice.kind === 'daytona') return openRemote(choice, io, tuning);
  return choice.kind === 'docker' ? openDocker(choice, io, tuning) : openProcess(choice, io, tuning);
}

async function openRemote(
  choice: RemoteChoice<'e2b'> | RemoteChoice<'daytona'>,
  io: CliIo,
  tuning: ContextTuning,
): Promise<OpenContext> {
  const limits = {
    killGraceMs: CLI_KILL_GRACE_MS,
    destroyGraceMs: CLI_KILL_GRACE_MS,
    ...(tuning.maxOutputBytes === undefined ? {} : { maxOutputBytes: tuning.maxOutputBytes }),
  };
  // Loaded on use, as the Docker context is: the process context, the default, starts without them.
  const context =
    choice.kind === 'e2b'
      ? (await import('../contexts/e2b/index.js')).createE2BContext({
          ...limits,
          template: choice.template,
          allowInternetAccess: choice.network === 'allow',
        })
      : (await import('../contexts/daytona/index.js')).createDaytonaContext({
          ...limits,
          snapshot: choice.template,
          networkBlockAll: choice.network === 'deny',
        });
  const label = choice.kind === 'e2b' ? 'E2B' : 'Daytona';
  const handle = await withSpinner(`starting a ${label} sandbox`, () => context.spawn(), io.stderr);
  return {
    context,
    handle,
    description: `${choice.kind} context (sandbox ${context.sandboxId(handle)}${choice.template ? `, ${choice.template}` : ''}, network ${choice.network}), cwd ${handle.cwd}`,
    dispose: once(() => withSpinner(`deleting the ${label} sandbox`, () => context.close(), io.stderr)),
  };
}

function resolveRoot(root: string | undefined, cwd: string): string {
  const path = resolve(cwd, root ?? '.');
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(path);
  } catch {
    throw new InvalidArgumentError(
      '--root',
      `${JSON.stringify(path)} does not exist; give an existing directory`,
    );
  }
  if (!stats.isDirectory()) {
    throw new InvalidArgumentError('--root', `${JSON.stringify(path)} is not a directory`);
  }
  const real = realpathSync(path);
  if (real === '/' && root === undefined) {
    // MCP clients often start servers in /; an implicit whole-filesystem workspace is never wanted.
    throw new InvalidArgumentError(
      '--root',
      'the current directory is /, which would make the whole filesystem the workspace (and writable in the sandbox); pass --root DIR (or --root / if that is really meant)',
    );
  }
  return real;
}

async function openProcess(
  choice: Extract<ContextChoice, { kind: 'process' }>,
  io: CliIo,
  tuning: ContextTuning,
): Promise<OpenContext> {
  const {
    root,
    sandbox,
    sandboxRequiredBy: requiredBy,
    network,
    unixSockets,
    supervise,
    sandboxSession,
  } = choice;
  // Refuse at start, not at the first command, when the supervisor cannot be found or built
  // (this builds it into the per-user cache on first use).
  if (supervise && process.platform === 'linux') await ensureSupervisor();
  let policy: SandboxPolicy | undefined;
  let sandboxNote = 'unsandboxed';
  if (sandbox !== false) {
    const report = await probeSandboxCached(io.env);
    if (report.available) {
      policy = createSandboxPolicy({ writableRoots: writableRoots(root), network, unixSockets });
      sandboxNote = `sandboxed (${report.backend}, network ${network}${sandboxSession ? ', one session for all commands' : ''})`;
    } else if (sandbox === true) {
      throw new SandboxUnavailableError(
        `${requiredBy ?? '--sandbox'} was given, which needs the OS sandbox, but it does not work here: ${report.reason ?? 'unknown reason'}`,
        report.fix ?? 'run `berth doctor` for details',
      );
    } else {
      warn(
        io,
        `the OS sandbox does not work here (${report.reason ?? 'unknown reason'}); running commands UNSANDBOXED. ` +
          `${report.fix ? `To fix: ${report.fix}. ` : ''}Pass --sandbox to refuse instead, or --no-sandbox to silence this.`,
      );
    }
  }
  const context = createProcessContext({
    workspaceRoot: root,
    killGraceMs: CLI_KILL_GRACE_MS,
    supervise: supervise && process.platform === 'linux',
    ...(policy ? { sandbox: policy, session: sandboxSession } : {}),
    ...(tuning.maxOutputBytes === undefined ? {} : { output: { maxOutputBytes: tuning.maxOutputBytes } }),
  });
  const handle = await context.spawn({ cwd: root });
  return {
    context,
    handle,
    description: `process context, ${sandboxNote}${supervise ? '' : ', unsupervised (--no-supervise)'}, root ${root}`,
    dispose: (options) => context.close(options),
  };
}

/** The root, plus the temp directory unless the root already holds it. */
function writableRoots(root: string): string[] {
  const tmp = realpathSync(tmpdir());
  return root === tmp || tmp.startsWith(`${root}/`) ? [root] : [root, tmp];
}

async function openDocker(
  choice: Extract<ContextChoice, { kind: 'docker' }>,
  io: CliIo,
  tuning: ContextTuning,
): Promise<OpenContext> {
  const { root, image, network, harden } = choice;
  // Loaded on use: the process context, the default, starts faster without it.
  const { createDockerContext } = await import('../contexts/docker/index.js');
  const context = createDockerContext({
    killGraceMs: CLI_KILL_GRACE_MS,
    destroyGraceMs: CLI_KILL_GRACE_MS,
    ...(tuning.maxOutputBytes === undefined ? {} : { maxOutputBytes: tuning.maxOutputBytes }),
  });
  const handle = await withSpinner(
    `starting a container from ${image}`,
    () =>
      context.spawn({
        image,
        cwd: CONTAINER_WORKSPACE,
        mounts: [{ source: root, target: CONTAINER_WORKSPACE }],
        // The preset takes the network away unless one is named: --network allow names the default.
        network: network === 'deny' ? 'none' : 'bridge',
        ...(harden ? { hardening: 'recommended' as const, ...hostUser() } : {}),
      }),
    io.stderr,
  );
  return {
    context,
    handle,
    description: `docker context (${image}, network ${network}, ${harden ? 'hardened' : 'not hardened'}), ${root} at ${CONTAINER_WORKSPACE}`,
    dispose: once(() => withSpinner('removing the container', () => context.destroy(handle), io.stderr)),
  };
}

async function openKubernetes(
  choice: Extract<ContextChoice, { kind: 'kubernetes' }>,
  io: CliIo,
  tuning: ContextTuning,
): Promise<OpenContext> {
  const spinner = startSpinner(`starting a pod from ${choice.image}`, io.stderr);
  const { createKubernetesContext } = await import('../contexts/kubernetes/index.js');
  const context = createKubernetesContext({
    killGraceMs: CLI_KILL_GRACE_MS,
    destroyGraceMs: CLI_KILL_GRACE_MS,
    deleteGraceMs: CLI_KILL_GRACE_MS,
    ...(choice.kubeconfig === undefined ? {} : { kubeconfig: choice.kubeconfig }),
    ...(choice.kubeContext === undefined ? {} : { context: choice.kubeContext }),
    ...(choice.namespace === undefined ? {} : { namespace: choice.namespace }),
    ...(tuning.maxOutputBytes === undefined ? {} : { maxOutputBytes: tuning.maxOutputBytes }),
    // Image pulls and scheduling can take a while: the spinner says where the pod is.
    onProgress: (progress) => spinner.update(`pod ${progress.pod}: ${progress.message}`),
  });
  let handle: ContextHandle;
  try {
    handle = await context.spawn({
      image: choice.image,
      cwd: CONTAINER_WORKSPACE,
      // The workspace is an emptyDir any user may write: no need to run as this machine's uid.
      ...(choice.harden ? { hardening: 'recommended' as const } : {}),
    });
  } finally {
    spinner.stop();
  }
  return {
    context,
    handle,
    description: `kubernetes context (${choice.image}, ${await context.describe()}, pod ${context.podName(handle)}, ${choice.harden ? 'hardened' : 'not hardened'}), working directory ${CONTAINER_WORKSPACE}`,
    dispose: once(() => withSpinner('deleting the pod', () => context.close(), io.stderr)),
  };
}

/**
 * Without capabilities, root in the container may not write the mounted root of a user other than
 * root (no CAP_DAC_OVERRIDE), so hardened commands run as the uid:gid that owns this process.
 */
function hostUser(): { user?: string } {
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  return uid === undefined || gid === undefined || uid === 0 ? {} : { user: `${uid}:${gid}` };
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let promise: Promise<void> | undefined;
  return () => {
    promise ??= fn();
    return promise;
  };
}
