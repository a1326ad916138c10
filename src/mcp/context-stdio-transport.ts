/**
 * An MCP client transport to a stdio MCP server that runs inside an execution context.
 * @module
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ContextHandle, ExecStream, ExecutionContext } from '../contract/types.js';
import { knownOptions, optionKeys } from '../contract/validate-options.js';
import { CapabilityError, InvalidArgumentError, ProtocolError } from '../errors/index.js';
import { settlesWithin } from '../subprocess/settles-within.js';
import { ByteTail } from './byte-tail.js';
import { DEFAULT_MAX_LINE_BYTES, JsonLineFramer } from './json-line-framer.js';

/** Options for {@link createContextStdioTransport}. */
export interface ContextStdioTransportOptions {
  /** Program to run inside the context (`argv[0]`). */
  readonly command: string;
  readonly args?: readonly string[] | undefined;
  /** Extra environment for the server; `undefined` removes an inherited entry. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Working directory inside the context; default the handle's. */
  readonly cwd?: string | undefined;
  /**
   * After `close()` ends the server's stdin, how long it may take to exit on its own before its
   * whole tree is terminated. Default 2000.
   */
  readonly graceMs?: number | undefined;
  /** Cap on one incoming frame. Default 16 MiB. */
  readonly maxLineBytes?: number | undefined;
  /** Bytes of the server's stderr kept for {@link ContextStdioTransport.stderrTail}. Default 64 KiB. */
  readonly stderrTailBytes?: number | undefined;
  /** Aborting closes the transport (same order as `close()`). */
  readonly signal?: AbortSignal | undefined;
}

const TRANSPORT_OPTION_KEYS = optionKeys<ContextStdioTransportOptions>({
  command: true,
  args: true,
  env: true,
  cwd: true,
  graceMs: true,
  maxLineBytes: true,
  stderrTailBytes: true,
  signal: true,
});
const DEFAULT_GRACE_MS = 2000;
const DEFAULT_STDERR_TAIL_BYTES = 64 * 1024;
/** Longest wait for stdout to end after the server exited (a grandchild may hold the pipe). */
const DRAIN_AFTER_EXIT_MS = 2000;

/**
 * Create an MCP client {@link Transport} that starts `command` through `context.execStream`, so the
 * server sees the context's filesystem (its sandbox, its container) rather than the host's.
 *
 * @throws CapabilityError when the context cannot open a live stream; there is never a fallback to a
 *   host spawn.
 * @throws InvalidArgumentError for a bad option.
 */
export function createContextStdioTransport(
  context: ExecutionContext,
  handle: ContextHandle,
  options: ContextStdioTransportOptions,
): ContextStdioTransport {
  return new ContextStdioTransport(context, handle, options);
}

/** See {@link createContextStdioTransport}. */
export class ContextStdioTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T) => void) | undefined;

  readonly #context: ExecutionContext;
  readonly #handle: ContextHandle;
  readonly #argv: readonly string[];
  readonly #options: ContextStdioTransportOptions;
  readonly #graceMs: number;
  readonly #framer: JsonLineFramer;
  readonly #stderr: ByteTail;
  #stream: ExecStream | null = null;
  #state: 'new' | 'starting' | 'open' | 'closing' | 'closed' = 'new';
  #closing: Promise<void> | null = null;
  #exitCode: number | null | undefined;
  #detachSignal: (() => void) | null = null;

  constructor(context: ExecutionContext, handle: ContextHandle, options: ContextStdioTransportOptions) {
    if (typeof context.execStream !== 'function' || !context.capabilities.stream) {
      throw new CapabilityError(
        'execStream (live stdio streams)',
        context.type,
        'run the MCP server in a context whose capabilities.stream is true (process, docker), or connect to it over HTTP',
      );
    }
    knownOptions(options, 'options', TRANSPORT_OPTION_KEYS, 'createContextStdioTransport');
    if (typeof options?.command !== 'string' || options.command === '') {
      throw new InvalidArgumentError('command', 'must be a non-empty string naming the MCP server program');
    }
    if (options.args !== undefined && !(Array.isArray(options.args) && options.args.every(isString))) {
      throw new InvalidArgumentError('args', 'must be an array of strings');
    }
    const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
    if (!Number.isFinite(graceMs) || graceMs < 0) {
      throw new InvalidArgumentError('graceMs', `must be a finite number of ms >= 0, got ${String(graceMs)}`);
    }
    this.#context = context;
    this.#handle = handle;
    this.#argv = [options.command, ...(options.args ?? [])];
    this.#options = options;
    this.#graceMs = graceMs;
    this.#stderr = new ByteTail(options.stderrTailBytes ?? DEFAULT_STDERR_TAIL_BYTES);
    this.#framer = new JsonLineFramer(
      {
        onMessage: (message) => {
          // A throwing handler must not escape into the pipe's 'data' event and crash the host.
          try {
            this.onmessage?.(message);
          } catch (error) {
            this.#report(error);
          }
        },
        onError: (error) => this.onerror?.(error),
      },
      { maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, protocol: 'mcp-stdio' },
    );
  }

  /** Exit code of the server once it has exited (null: killed by a signal); undefined while it runs. */
  get exitCode(): number | null | undefined {
    return this.#exitCode;
  }

  /** The last bytes the server wrote to stderr, decoded. Empty where the context has no stderr. */
  stderrTail(): string {
    return this.#stderr.text();
  }

  /** Start the server. Called by the SDK's `Client.connect`; a second call throws. */
  async start(): Promise<void> {
    if (this.#state !== 'new') {
      throw new InvalidArgumentError('start', `the transport was already started (state: ${this.#state})`);
    }
    this.#state = 'starting';
    const signal = this.#options.signal;
    if (signal?.aborted) {
      this.#state = 'closed';
      throw new InvalidArgumentError('signal', 'was already aborted; the MCP server was not started');
    }
    const execStream = this.#context.execStream!.bind(this.#context);
    let stream: ExecStream;
    try {
      stream = await execStream(this.#handle, this.#argv, { cwd: this.#options.cwd, env: this.#options.env });
    } catch (error) {
      this.#state = 'closed';
      throw error;
    }
    if (this.#state !== 'starting') {
      // close() ran while the server was starting: it must not outlive the transport.
      await stream.kill();
      throw new ProtocolError('mcp-stdio', 'the transport was closed while the MCP server was starting');
    }
    this.#stream = stream;
    this.#state = 'open';

    const stdoutEnded = new Promise<void>((resolve) => {
      stream.stdout.on('end', resolve);
      stream.stdout.on('close', resolve);
    });
    stream.stdout.on('data', (chunk: Uint8Array) => this.#framer.push(chunk));
    stream.stdout.on('error', (error) => this.#report(error));
    if (stream.stderr) {
      stream.stderr.on('data', (chunk: Uint8Array) => this.#stderr.push(chunk));
      stream.stderr.on('error', (error) => this.#report(error));
    }
    // A write racing the server's exit fails with EPIPE; that is the exit, not a second fault.
    stream.stdin.on('error', (error) => {
      if (this.#state === 'open') this.#report(error);
    });

    void stream.exited.then(
      async (code) => {
        this.#exitCode = code;
        // Frames the server wrote just before exiting are still in the pipe: read them first.
        await settlesWithin(stdoutEnded, DRAIN_AFTER_EXIT_MS);
        this.#framer.end();
        if (this.#state === 'open') {
          const tail = this.stderrTail().trim();
          this.onerror?.(
            new ProtocolError(
              'mcp-stdio',
              `the MCP server ${JSON.stringify(this.#argv[0])} exited (code ${String(code)}) while the transport was open${tail ? `; its stderr ends with: ${tail.slice(-500)}` : ''}`,
            ),
          );
          // The server is gone, but grandchildren it left may not be: end the whole tree.
          await this.close();
        }
      },
      (error: unknown) => this.#report(error),
    );

    if (signal) {
      const onAbort = (): void => void this.close();
      signal.addEventListener('abort', onAbort, { once: true });
      this.#detachSignal = () => signal.removeEventListener('abort', onAbort);
    }
  }

  /** Write one message as a newline-terminated JSON line, honouring the pipe's backpressure. */
  async send(message: JSONRPCMessage): Promise<void> {
    const stream = this.#stream;
    if (this.#state !== 'open' || stream === null) {
      throw new ProtocolError(
        'mcp-stdio',
        `cannot send: the transport is ${this.#state === 'new' ? 'not started (call start())' : this.#state}`,
      );
    }
    const line = `${JSON.stringify(message)}\n`;
    // Resolve as soon as the pipe takes the bytes; wait for 'drain' only under backpressure. A
    // failed write rejects here if still pending, and is reported through onerror in any case.
    await new Promise<void>((resolve, reject) => {
      const accepted = stream.stdin.write(line, 'utf8', (error) => {
        if (error) reject(error);
      });
      if (accepted) resolve();
      else stream.stdin.once('drain', resolve);
    });
  }

  /**
   * Shut down in the MCP stdio order: close the server's stdin, give it `graceMs` to exit, then
   * terminate its whole process tree (TERM, grace, KILL, verified by the context). Resolves once no
   * process of it remains. Idempotent; `onclose` fires once.
   */
  close(): Promise<void> {
    if (this.#closing === null) this.#closing = this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#state = 'closing';
    this.#detachSignal?.();
    const stream = this.#stream;
    try {
      if (stream !== null) {
        stream.stdin.end();
        await settlesWithin(stream.exited, this.#graceMs);
        // Always: even a server that exited may have left children holding the pipes.
        await stream.kill();
      }
    } finally {
      this.#state = 'closed';
      this.onclose?.();
    }
  }

  #report(error: unknown): void {
    this.onerror?.(error instanceof Error ? error : new Error(String(error)));
  }
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}
