/**
 * The kernels of one handle: what every command sees (namespace, environment, identity, limits,
 * registered commands, the external gate), on a process table shared by the whole context so a
 * pid means the same shell to every handle. In session mode `exec` gets a kernel that keeps its
 * state and background tasks and streams a second one that does not (a session's shell runs one
 * call at a time).
 * @module
 */
import { NON_INTERACTIVE_ENV } from '../../contract/defaults.js';
import type { ExternalCommands } from '../../kernel/external.js';
import { createKernel, type Kernel } from '../../kernel/kernel.js';
import type { ProcessTable } from '../../kernel/process-table.js';
import type { TrashLike } from '../../kernel/runtime/shell.js';
import type { Filesystem } from '../../vfs/filesystem.js';
import type { VirtualContextConfig } from './options.js';

export interface HandleKernelSpec {
  readonly fs: Filesystem;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>> | undefined;
  readonly spillDir: string;
  readonly processes: ProcessTable;
  readonly trash: TrashLike | undefined;
  /** The namespace's external gate (synced with a shared overlay), or none. */
  readonly external: ExternalCommands | undefined;
}

export function createHandleKernels(
  config: VirtualContextConfig,
  spec: HandleKernelSpec,
): { kernel: Kernel; sideKernel: Kernel } {
  const env = handleEnv(config, spec.env);
  const make = (session: boolean): Kernel => {
    const kernel = createKernel({
      fs: spec.fs,
      cwd: spec.cwd,
      env,
      limits: config.limits,
      session,
      identity: config.identity,
      ...(config.randomSeed === undefined ? {} : { randomSeed: config.randomSeed }),
      ...(spec.external === undefined ? {} : { external: spec.external }),
      output: config.output,
      trapGraceMs: config.killGraceMs,
      ...(spec.trash === undefined ? {} : { trash: spec.trash }),
      spillDir: spec.spillDir,
      processes: spec.processes,
      ...(config.network === undefined ? {} : { network: config.network }),
    });
    for (const [name, command] of config.commands) {
      if (typeof command === 'function') kernel.defineCommand(name, command);
      else
        kernel.defineCommand(name, command.run, {
          ...(command.help === undefined ? {} : { help: command.help }),
          ...(command.summary === undefined ? {} : { summary: command.summary }),
        });
    }
    return kernel;
  };
  const kernel = make(config.session);
  return { kernel, sideKernel: config.session ? make(false) : kernel };
}

/** The environment every command of the handle starts with. */
function handleEnv(
  config: VirtualContextConfig,
  handleEnv: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const { identity } = config;
  return {
    HOME: identity.home,
    USER: identity.user,
    LOGNAME: identity.user,
    PATH: '/usr/local/bin:/usr/bin:/bin',
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    TMPDIR: '/tmp',
    TZ: config.timeZone,
    ...NON_INTERACTIVE_ENV,
    ...config.env,
    ...handleEnv,
  };
}
