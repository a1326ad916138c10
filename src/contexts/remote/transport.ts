/**
 * What a remote sandbox service must offer berth, whatever its SDK looks like. A provider
 * (`e2b`, `daytona`) maps these few primitives onto its SDK; everything the contract promises
 * (bounded exact output, tree termination, background tasks, live streams, terminals, files) is
 * built on them once, in this folder.
 *
 * Every script handed to a transport is one complete POSIX shell command line (berth quotes its
 * arguments itself): the SDKs take a command string, not an argv.
 * @module
 */

/** One command run to completion (or started in the background) by the provider's shell. */
export interface RemoteRunSpec {
  /** A complete shell command line. */
  readonly script: string;
  /** Environment entries for the command (the sandbox's own environment stays beneath them). */
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** Deadline the provider enforces on the whole command; 0 = none (its own default is disabled). */
  readonly timeoutMs: number;
  /** Text the command writes to stdout, as the SDK decoded it. */
  readonly onStdout?: ((text: string) => void) | undefined;
  readonly onStderr?: ((text: string) => void) | undefined;
}

/** Exit facts of a provider command. A non-zero exit is a result, never an exception. */
export interface RemoteRunResult {
  /** Exit code; null when the provider reported none (killed, connection lost). */
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A provider command running in the background. */
export interface RemoteProcess {
  /** Settles when the command ended; rejects with a typed remote error when the sandbox went away. */
  readonly done: Promise<RemoteRunResult>;
  /** Ask the provider to kill the command (its own pid only: the SDKs kill a pid, not a tree). */
  kill(): Promise<void>;
}

/** An interactive shell on a pseudo-terminal, started by the provider. */
export interface RemotePtySpec {
  readonly env?: Readonly<Record<string, string>> | undefined;
  readonly cwd?: string | undefined;
  readonly cols: number;
  readonly rows: number;
  /** Raw terminal output. A returned promise is awaited where the SDK allows (backpressure). */
  readonly onData: (bytes: Uint8Array) => void | Promise<void>;
}

export interface RemotePty {
  /** The shell's pid inside the sandbox (0 when the provider does not tell). */
  readonly pid: number;
  write(bytes: Uint8Array): Promise<void>;
  resize(cols: number, rows: number): Promise<void>;
  /** Kill the PTY's own process. */
  kill(): Promise<void>;
  /** Exit code of the PTY's process; null when killed or unknown. */
  readonly exited: Promise<number | null>;
}

/** A writer feeding a FIFO inside the sandbox, whose end is the reader's end-of-file. */
export interface RemoteStdin {
  write(bytes: Uint8Array): Promise<void>;
  /** Deliver end-of-file after every byte written so far. */
  end(): Promise<void>;
  /** Drop the writer at once (no end-of-file guarantee). */
  kill(): Promise<void>;
}

/** One live sandbox, as berth uses it. */
export interface RemoteSandbox {
  /** The provider's id of the sandbox (for `reconnect`, dashboards, support). */
  readonly id: string;
  run(spec: RemoteRunSpec): Promise<RemoteRunResult>;
  start(spec: RemoteRunSpec): Promise<RemoteProcess>;
  openPty(spec: RemotePtySpec): Promise<RemotePty>;
  /** Start a writer into the FIFO at `fifoPath` (it blocks until a reader opens the FIFO). */
  openStdin(fifoPath: string): Promise<RemoteStdin>;
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: Uint8Array): Promise<void>;
  /** Delete the sandbox. Idempotent; resolves when the provider confirmed it. */
  destroy(): Promise<void>;
}
