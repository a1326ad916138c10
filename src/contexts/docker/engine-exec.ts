/**
 * The engine's exec primitives: create an exec in a running container, start it attached (a plain
 * streaming response, or a hijacked connection when stdin is needed), resize its TTY, and read its
 * exit code. Engine errors that mean "the container is not running" become `ContainerGoneError`.
 * @module
 */
import type { Duplex, Readable } from 'node:stream';
import type { EngineClient } from './engine-client.js';
import { ContainerGoneError, DockerApiError } from './errors.js';

/** Per-request limits a caller with its own deadline passes down (see `EngineRequest`). */
export interface RequestLimits {
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs?: number | undefined;
  /** For a start: the output outlives the call (see `EngineRequest.longLived`). Default true. */
  readonly longLived?: boolean | undefined;
}

/** What to run. */
export interface ExecCreateSpec {
  readonly argv: readonly string[];
  readonly env?: readonly string[] | undefined;
  readonly workingDir?: string | undefined;
  readonly tty?: boolean | undefined;
  readonly stdin?: boolean | undefined;
  /** Run as this user instead of the container's (berth's own set-up only). */
  readonly user?: string | undefined;
}

/** Exit facts of a finished exec. */
export interface ExecState {
  readonly running: boolean;
  /** Null while running (the engine reports 0 then). */
  readonly exitCode: number | null;
  /** Host pid of the exec'd process (0 once it ended, and meaningless on remote engines). */
  readonly pid: number;
}

/** Map an engine error on a container path to ContainerGoneError where it means exactly that. */
export function containerErrorOf(error: unknown, containerId: string): unknown {
  if (error instanceof DockerApiError) {
    if (error.statusCode === 404 && /no such container/i.test(error.engineMessage)) {
      return new ContainerGoneError(containerId, 'removed', { cause: error });
    }
    if (error.statusCode === 409 && /not running|is paused|is restarting/i.test(error.engineMessage)) {
      return new ContainerGoneError(containerId, error.engineMessage, { cause: error });
    }
  }
  return error;
}

/** Create an exec; resolves with its id. */
export async function createExec(
  client: EngineClient,
  containerId: string,
  spec: ExecCreateSpec,
  limits: RequestLimits = {},
): Promise<string> {
  try {
    const { body } = await client.json<{ Id: string }>({
      ...limits,
      method: 'POST',
      path: `/containers/${encodeURIComponent(containerId)}/exec`,
      json: {
        AttachStdin: spec.stdin === true,
        AttachStdout: true,
        AttachStderr: true,
        Tty: spec.tty === true,
        Cmd: spec.argv,
        Env: spec.env ?? [],
        ...(spec.workingDir === undefined ? {} : { WorkingDir: spec.workingDir }),
        ...(spec.user === undefined ? {} : { User: spec.user }),
      },
    });
    return body.Id;
  } catch (error) {
    throw containerErrorOf(error, containerId);
  }
}

/**
 * Start an exec without stdin: the response body is the output stream (framed unless TTY). The
 * request deadline covers only the response head; the stream itself has none.
 */
export async function startExecStream(
  client: EngineClient,
  execId: string,
  tty: boolean,
  limits: RequestLimits = {},
): Promise<Readable> {
  return client.stream({
    ...limits,
    longLived: limits.longLived ?? true,
    method: 'POST',
    path: `/exec/${encodeURIComponent(execId)}/start`,
    json: { Detach: false, Tty: tty },
  });
}

/** Start an exec with stdin: a hijacked connection carrying stdin up and output down. */
export async function startExecHijacked(
  client: EngineClient,
  execId: string,
  tty: boolean,
  limits: RequestLimits = {},
): Promise<{ socket: Duplex; head: Buffer }> {
  return client.hijack({
    ...limits,
    longLived: limits.longLived ?? true,
    method: 'POST',
    path: `/exec/${encodeURIComponent(execId)}/start`,
    json: { Detach: false, Tty: tty },
  });
}

/** Read an exec's state. */
export async function inspectExec(
  client: EngineClient,
  execId: string,
  limits: RequestLimits = {},
): Promise<ExecState> {
  const { body } = await client.json<{ Running: boolean; ExitCode: number | null; Pid: number }>({
    ...limits,
    method: 'GET',
    path: `/exec/${encodeURIComponent(execId)}/json`,
  });
  return {
    running: body.Running === true,
    exitCode: body.Running === true ? null : (body.ExitCode ?? null),
    pid: body.Pid ?? 0,
  };
}

/** Resize an exec's TTY. */
export async function resizeExec(
  client: EngineClient,
  execId: string,
  cols: number,
  rows: number,
): Promise<void> {
  await client.json({
    method: 'POST',
    path: `/exec/${encodeURIComponent(execId)}/resize`,
    query: { h: rows, w: cols },
  });
}

/**
 * Whether the container is still running; false when it is stopped or gone.
 * @throws DockerUnavailableError when the engine does not answer: that says nothing of the container.
 */
export async function containerRunning(
  client: EngineClient,
  containerId: string,
  limits: RequestLimits = {},
): Promise<boolean> {
  try {
    const { body } = await client.json<{ State?: { Running?: boolean } }>({
      ...limits,
      method: 'GET',
      path: `/containers/${encodeURIComponent(containerId)}/json`,
    });
    return body.State?.Running === true;
  } catch (error) {
    if (error instanceof DockerApiError && error.statusCode === 404) return false;
    throw error;
  }
}

/**
 * Whether the container stopped (or is gone), allowing `patienceMs` for the engine to notice: a
 * container killed from outside ends its processes a moment before the engine marks it stopped.
 * @throws DockerUnavailableError when the engine does not answer (the container's state is unknown
 * then, and the error names the engine, not the container).
 */
export async function containerStopped(
  client: EngineClient,
  containerId: string,
  patienceMs = 300,
  limits: RequestLimits = {},
): Promise<boolean> {
  const deadline = Date.now() + patienceMs;
  for (;;) {
    if (!(await containerRunning(client, containerId, limits))) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** An exit status that a dying container can produce (signal deaths, runtime failures, none). */
export function deathLikeStatus(status: number | null): boolean {
  return status === null || status === 126 || status >= 128;
}
