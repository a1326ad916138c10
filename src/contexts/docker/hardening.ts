/**
 * Container hardening: the opt-in object form (each measure by name, all off by default, as the
 * contract it came from has it) and the one named preset, `'recommended'`: no capabilities, no new
 * privileges, a read-only root with a writable working directory and `/tmp`, a pids limit, and no
 * network (so no route to the host's addresses) unless the caller names one.
 * @module
 */
import { HARDENING_KEYS } from '../../contract/option-keys.js';
import type { SpawnConfig } from '../../contract/types.js';
import { describeValue, knownOptions } from '../../contract/validate-options.js';
import { InvalidArgumentError } from '../../errors/index.js';

/** Processes (threads included) a recommended container may hold, unless `resources.pids` says. */
export const RECOMMENDED_PIDS_LIMIT = 1024;

/** Working directory of a recommended container when neither the config nor the image names one. */
export const RECOMMENDED_WORKDIR = '/workspace';

/** What hardening adds to the create body. */
export interface HardeningPlan {
  /** Fields of `HostConfig`. */
  readonly host: Readonly<Record<string, unknown>>;
  /**
   * Anonymous volumes by container path: the writable places of a read-only root. Volumes, not
   * tmpfs, because the archive API (readFile, writeFile) cannot see tmpfs mounts; the engine seeds
   * each with the image's content there and removes it with the container.
   */
  readonly volumes: readonly string[];
  /** The working directory the preset chose, when the config named none. */
  readonly workingDir: string | undefined;
}

/** What the preset needs to know about the rest of the spawn. */
export interface HardeningContext {
  readonly cwd: string | undefined;
  /** The image's own working directory; undefined when not looked up (the config names a cwd). */
  readonly imageWorkdir: string | undefined;
  readonly mountTargets: readonly string[];
  readonly network: string | undefined;
  readonly hasPorts: boolean;
  readonly pids: number | undefined;
  /** berth's state directory, which must stay writable. */
  readonly stateDir: string;
}

/** True when the preset still needs the image's working directory to plan. */
export function needsImageWorkdir(config: SpawnConfig): boolean {
  return config.hardening === 'recommended' && config.cwd === undefined;
}

/**
 * Validate `hardening` and plan it.
 * @throws InvalidArgumentError for an unknown preset, an unknown or non-boolean key, or ports with
 *   the preset's network taken away.
 */
export function planHardening(hardening: SpawnConfig['hardening'], context: HardeningContext): HardeningPlan {
  if (hardening === undefined) return { host: {}, volumes: [], workingDir: undefined };
  if (typeof hardening === 'string') {
    if (hardening !== 'recommended') {
      throw new InvalidArgumentError(
        'hardening',
        `must be "recommended" or an object of measures, got ${describeValue(hardening)}`,
      );
    }
    return recommended(context);
  }
  if (typeof hardening !== 'object' || hardening === null || Array.isArray(hardening)) {
    throw new InvalidArgumentError(
      'hardening',
      `must be "recommended" or an object of measures, got ${describeValue(hardening)}`,
    );
  }
  knownOptions(hardening, 'hardening', HARDENING_KEYS, 'spawn hardening');
  for (const key of HARDENING_KEYS) {
    const value = hardening[key];
    if (value !== undefined && typeof value !== 'boolean') {
      throw new InvalidArgumentError(`hardening.${key}`, `must be a boolean, got ${describeValue(value)}`);
    }
  }
  const host: Record<string, unknown> = {};
  if (hardening.dropAllCapabilities === true) host.CapDrop = ['ALL'];
  if (hardening.noNewPrivileges === true) host.SecurityOpt = ['no-new-privileges'];
  if (hardening.readOnlyRootfs === true) host.ReadonlyRootfs = true;
  // berth's own state (background logs) then needs a writable place the archive API can read.
  const volumes =
    hardening.readOnlyRootfs === true ? uncovered([context.stateDir], context.mountTargets) : [];
  return { host, volumes, workingDir: undefined };
}

function recommended(context: HardeningContext): HardeningPlan {
  if (context.network === undefined && context.hasPorts) {
    throw new InvalidArgumentError(
      'ports',
      'need a network, and hardening "recommended" gives the container none unless one is named; add network: "bridge" (the host\'s addresses are then reachable from the container, see docs/docker.md)',
    );
  }
  const workingDir =
    context.cwd ??
    (context.imageWorkdir !== undefined && context.imageWorkdir !== '' && context.imageWorkdir !== '/'
      ? context.imageWorkdir
      : RECOMMENDED_WORKDIR);
  const host: Record<string, unknown> = {
    CapDrop: ['ALL'],
    SecurityOpt: ['no-new-privileges'],
    ReadonlyRootfs: true,
    // The engine offers no way to keep a network but take the host's addresses out of its
    // reach, so the preset's way is no network at all; a named network is the caller's choice.
    ...(context.network === undefined ? { NetworkMode: 'none' } : {}),
    ...(context.pids === undefined ? { PidsLimit: RECOMMENDED_PIDS_LIMIT } : {}),
  };
  return {
    host,
    volumes: uncovered(workingDir === '/' ? ['/tmp'] : ['/tmp', workingDir], context.mountTargets),
    workingDir: context.cwd === undefined ? workingDir : undefined,
  };
}

/** The paths no bind mount already provides (a mount at or above a path wins over a volume). */
function uncovered(paths: readonly string[], mountTargets: readonly string[]): string[] {
  return paths.filter(
    (path) =>
      !mountTargets.some((target) => path === target || path.startsWith(`${target.replace(/\/$/, '')}/`)),
  );
}
