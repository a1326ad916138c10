/**
 * The fake API server's kubelet: one container of the local Docker engine per pod, and execs in
 * it over the Engine API (a hijacked connection: stdin up, framed stdout/stderr down, or raw bytes
 * with a TTY). Written against the engine socket directly so the fake shares no code with the
 * Kubernetes context under test.
 * @module
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';

const SOCKET = process.env.DOCKER_HOST?.startsWith('unix://')
  ? process.env.DOCKER_HOST.slice('unix://'.length)
  : '/var/run/docker.sock';

/** Label on every container the fake makes (and the pid of the test process that made it). */
export const FAKE_LABEL = 'berth-test.fake-apiserver.pid';

interface Reply {
  readonly status: number;
  readonly body: string;
}

function request(method: string, path: string, json?: unknown, timeoutMs = 30_000): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const payload = json === undefined ? undefined : Buffer.from(JSON.stringify(json));
    const req = http.request(
      {
        socketPath: SOCKET,
        method,
        path,
        headers: payload ? { 'Content-Type': 'application/json', 'Content-Length': payload.length } : {},
        timeout: timeoutMs,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`engine did not answer ${method} ${path}`)));
    req.on('error', reject);
    req.end(payload);
  });
}

async function ok(method: string, path: string, json?: unknown, timeoutMs?: number): Promise<string> {
  const reply = await request(method, path, json, timeoutMs);
  if (reply.status >= 300) throw new Error(`engine ${method} ${path}: HTTP ${reply.status} ${reply.body}`);
  return reply.body;
}

/** Whether the engine has the image locally (the fake never pulls: a missing image is a pull failure). */
export async function imagePresent(image: string): Promise<boolean> {
  return (await request('GET', `/images/${encodeURIComponent(image)}/json`)).status === 200;
}

/** What the fake asks of the engine for one pod. */
export interface ContainerRequest {
  readonly name: string;
  readonly image: string;
  readonly command: readonly string[];
  readonly env: readonly string[];
  readonly workingDir: string | undefined;
  readonly user: string | undefined;
  readonly binds: readonly string[];
  readonly tmpfs: readonly string[];
  readonly capDrop: readonly string[];
  readonly noNewPrivileges: boolean;
  readonly readOnlyRoot: boolean;
  readonly memoryBytes: number | undefined;
  readonly nanoCpus: number | undefined;
  readonly runtime: string | undefined;
}

/** Create and start the container; resolves with its id. */
export async function startContainer(spec: ContainerRequest): Promise<string> {
  const created = await ok('POST', `/containers/create?name=${encodeURIComponent(spec.name)}`, {
    Image: spec.image,
    Entrypoint: [],
    Cmd: spec.command,
    Env: spec.env,
    ...(spec.workingDir ? { WorkingDir: spec.workingDir } : {}),
    ...(spec.user ? { User: spec.user } : {}),
    Labels: { [FAKE_LABEL]: String(process.pid) },
    HostConfig: {
      Binds: spec.binds,
      Tmpfs: Object.fromEntries(spec.tmpfs.map((path) => [path, 'mode=1777'])),
      CapDrop: spec.capDrop,
      SecurityOpt: spec.noNewPrivileges ? ['no-new-privileges'] : [],
      ReadonlyRootfs: spec.readOnlyRoot,
      ...(spec.memoryBytes ? { Memory: spec.memoryBytes, MemorySwap: spec.memoryBytes } : {}),
      ...(spec.nanoCpus ? { NanoCpus: spec.nanoCpus } : {}),
      ...(spec.runtime ? { Runtime: spec.runtime } : {}),
    },
  });
  const id = (JSON.parse(created) as { Id: string }).Id;
  try {
    await ok('POST', `/containers/${id}/start`);
  } catch (error) {
    await removeContainer(id);
    throw error;
  }
  return id;
}

/** TERM, then KILL after `graceSeconds` (the engine's stop). */
export async function stopContainer(id: string, graceSeconds: number): Promise<void> {
  await request('POST', `/containers/${id}/stop?t=${graceSeconds}`, undefined, (graceSeconds + 30) * 1000);
}

export async function killContainer(id: string): Promise<void> {
  await request('POST', `/containers/${id}/kill`);
}

export async function removeContainer(id: string): Promise<void> {
  await request('DELETE', `/containers/${id}?force=1&v=1`);
}

export async function containerRunning(id: string): Promise<boolean> {
  const reply = await request('GET', `/containers/${id}/json`);
  if (reply.status !== 200) return false;
  return (JSON.parse(reply.body) as { State?: { Running?: boolean } }).State?.Running === true;
}

/** Ids of containers this process's fakes made (for the leak check and clean-up). */
export async function fakeContainers(): Promise<string[]> {
  const filters = encodeURIComponent(JSON.stringify({ label: [`${FAKE_LABEL}=${process.pid}`] }));
  const body = await ok('GET', `/containers/json?all=1&filters=${filters}`);
  return (JSON.parse(body) as { Id: string }[]).map((container) => container.Id);
}

/** A started exec: the hijacked socket and the engine's exec id. */
export interface EngineExec {
  readonly id: string;
  readonly socket: Duplex;
  /** Output bytes that arrived with the upgrade response. */
  readonly head: Buffer;
}

/** Create and start an exec attached on a hijacked connection. */
export async function startExec(
  containerId: string,
  argv: readonly string[],
  options: { tty: boolean; stdin: boolean },
): Promise<EngineExec> {
  const created = await ok('POST', `/containers/${containerId}/exec`, {
    AttachStdin: options.stdin,
    AttachStdout: true,
    AttachStderr: true,
    Tty: options.tty,
    Cmd: argv,
  });
  const id = (JSON.parse(created) as { Id: string }).Id;
  const payload = Buffer.from(JSON.stringify({ Detach: false, Tty: options.tty }));
  const { socket, head } = await new Promise<{ socket: Duplex; head: Buffer }>((resolve, reject) => {
    const req = http.request({
      socketPath: SOCKET,
      method: 'POST',
      path: `/exec/${id}/start`,
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': payload.length,
        Connection: 'Upgrade',
        Upgrade: 'tcp',
      },
    });
    req.on('upgrade', (_res, upgraded, upgradeHead) => resolve({ socket: upgraded, head: upgradeHead }));
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => reject(new Error(`engine refused exec start: HTTP ${res.statusCode} ${body}`)));
    });
    req.on('error', reject);
    req.end(payload);
  });
  return { id, socket, head };
}

export async function resizeExec(id: string, cols: number, rows: number): Promise<void> {
  await request('POST', `/exec/${id}/resize?h=${rows}&w=${cols}`);
}

/** The exec's exit code once it finished (the engine can lag the stream's end briefly). */
/** Whether an exec's process still runs (false once it ended, or when the engine does not know it). */
export async function execRunning(id: string): Promise<boolean> {
  const reply = await request('GET', `/exec/${id}/json`);
  return reply.status === 200 && (JSON.parse(reply.body) as { Running: boolean }).Running;
}

export async function execExitCode(id: string): Promise<number | null> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const reply = await request('GET', `/exec/${id}/json`);
    if (reply.status !== 200) return null;
    const state = JSON.parse(reply.body) as { Running: boolean; ExitCode: number | null };
    if (!state.Running) return state.ExitCode;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return null;
}

/** Splits the engine's 8-byte-header frames of a non-TTY exec into (stream, payload). */
export class FrameSplitter {
  private pending: Buffer = Buffer.alloc(0);
  constructor(private readonly onFrame: (stream: number, payload: Buffer) => void) {}

  push(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    while (this.pending.length >= 8) {
      const size = this.pending.readUInt32BE(4);
      if (this.pending.length < 8 + size) return;
      this.onFrame(this.pending[0]!, this.pending.subarray(8, 8 + size));
      this.pending = this.pending.subarray(8 + size);
    }
  }
}
