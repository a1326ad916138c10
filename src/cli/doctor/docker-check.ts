/**
 * Doctor checks for containers: the Docker engine (reachable, version) and gVisor (registered as
 * a runtime, and really runs a container).
 * @module
 */
import { EngineClient } from '../../contexts/docker/engine-client.js';
import { resolveEndpoint } from '../../contexts/docker/engine-endpoint.js';
import { createDockerContext } from '../../contexts/docker/index.js';
import { isBerthError } from '../../errors/index.js';
import { type DoctorCheck, messageOf, within } from './check.js';

interface EngineVersion {
  Version?: string;
  ApiVersion?: string;
  Os?: string;
  Arch?: string;
}
interface EngineInfo {
  Runtimes?: Record<string, { path?: string }>;
  DefaultRuntime?: string;
}

/** What the engine said, for the gVisor check. */
export interface EngineFacts {
  readonly reachable: boolean;
  readonly runtimes: readonly string[];
  /** Tagged local images, smallest first (a test container needs one; berth never pulls). */
  readonly images: readonly string[];
}

interface ImageSummary {
  RepoTags?: string[] | null;
  Size?: number;
}

const START_ENGINE_FIX =
  'start the engine (`sudo systemctl start docker`, or `dockerd &`), or point DOCKER_HOST at a running one; the docker context needs it';

/** Ping the engine and read its version and runtimes. */
export async function checkDocker(
  env: NodeJS.ProcessEnv,
): Promise<{ check: DoctorCheck; facts: EngineFacts }> {
  const base = { id: 'docker', title: 'Docker engine' };
  let client: EngineClient;
  try {
    client = new EngineClient(resolveEndpoint({}, env), 5000);
  } catch (error) {
    return {
      check: {
        ...base,
        status: 'fail',
        detail: messageOf(error),
        fix: 'fix DOCKER_HOST, or unset it to use the local socket',
      },
      facts: { reachable: false, runtimes: [], images: [] },
    };
  }
  try {
    const version = await within(
      10_000,
      'the Docker engine',
      client.json<EngineVersion>({ method: 'GET', path: '/version' }),
    );
    const info = await within(
      10_000,
      'the Docker engine',
      client.json<EngineInfo>({ method: 'GET', path: '/info' }),
    );
    const runtimes = Object.keys(info.body.Runtimes ?? {});
    const listed = await within(
      10_000,
      'the Docker engine',
      client.json<ImageSummary[]>({ method: 'GET', path: '/images/json' }),
    );
    const images = [...listed.body]
      .sort((a, b) => (a.Size ?? 0) - (b.Size ?? 0))
      .flatMap((image) => (image.RepoTags ?? []).filter((tag) => tag !== '<none>:<none>').slice(0, 1));
    const v = version.body;
    return {
      check: {
        ...base,
        status: 'ok',
        detail: `reachable at ${client.endpointLabel}: Docker ${v.Version ?? '?'} (API ${v.ApiVersion ?? '?'}, ${v.Os ?? '?'}/${v.Arch ?? '?'}), runtimes: ${runtimes.join(', ') || 'none listed'}`,
      },
      facts: { reachable: true, runtimes, images },
    };
  } catch (error) {
    return {
      check: { ...base, status: 'fail', detail: messageOf(error), fix: START_ENGINE_FIX },
      facts: { reachable: false, runtimes: [], images: [] },
    };
  } finally {
    client.close();
  }
}

const REGISTER_RUNSC_FIX =
  'install gVisor (https://gvisor.dev/docs/user_guide/install/), then register it: `sudo runsc install && sudo systemctl reload docker` (adds "runsc" to /etc/docker/daemon.json runtimes)';

/** gVisor: is `runsc` a registered runtime, and does a container start under it? */
export async function checkGvisor(facts: EngineFacts, image: string | undefined): Promise<DoctorCheck> {
  const base = { id: 'gvisor', title: 'gVisor (runsc)' };
  if (!facts.reachable) {
    return {
      ...base,
      status: 'skip',
      detail: 'the Docker engine is not reachable, so gVisor cannot be checked',
    };
  }
  if (!facts.runtimes.includes('runsc')) {
    return {
      ...base,
      status: 'warn',
      detail: `runsc is not a registered Docker runtime (registered: ${facts.runtimes.join(', ') || 'none'}); containers get the default runtime's isolation`,
      fix: REGISTER_RUNSC_FIX,
    };
  }
  const testImage = image ?? facts.images[0];
  if (testImage === undefined) {
    return {
      ...base,
      status: 'skip',
      detail: 'runsc is registered, but there is no local image to start a test container from',
      fix: 'pull a small image (e.g. `docker pull busybox`) or name one with --image',
    };
  }
  const context = createDockerContext({});
  let handle: Awaited<ReturnType<typeof context.spawn>> | undefined;
  try {
    handle = await within(
      60_000,
      'a gVisor container',
      context.spawn({ runtime: 'runsc', image: testImage }),
    );
    const result = await within(
      30_000,
      'a command under gVisor',
      context.exec(handle, 'echo berth-gvisor-ok'),
    );
    if (result.exitCode !== 0 || !result.stdout.includes('berth-gvisor-ok')) {
      throw new Error(
        `a test command exited ${String(result.exitCode)}: ${result.stderr.trim().slice(0, 300)}`,
      );
    }
    return {
      ...base,
      status: 'ok',
      detail: 'registered as a Docker runtime; a test container ran a command under it',
    };
  } catch (error) {
    if (isBerthError(error, 'E_DOCKER_IMAGE_NOT_FOUND')) {
      return {
        ...base,
        status: 'skip',
        detail: `runsc is registered, but the test image is not present: ${messageOf(error)}`,
        fix: 'pull the image, or name a present one with --image',
      };
    }
    return {
      ...base,
      status: 'fail',
      detail: `runsc is registered but a container of ${testImage} did not run a command under it: ${messageOf(error)}`,
      fix: 'check `docker run --rm --runtime runsc IMAGE true` and the engine log; on some hosts runsc needs --platform=ptrace or --network=host in its runtimeArgs',
    };
  } finally {
    if (handle !== undefined) await context.destroy(handle).catch(() => undefined);
  }
}
