/**
 * The part of `@daytonaio/sdk` berth uses, written with the SDK's own types; the installed module
 * must fit it (`DaytonaSdkFits`) and the test fake implements it. Type-only imports.
 * @module
 */
import type {
  CreateSandboxFromSnapshotParams,
  DaytonaConfig,
  Process,
  PtyConnectOptions,
  PtyCreateOptions,
  PtyHandle,
  Sandbox,
} from '@daytonaio/sdk';

/** A PTY handle's public shape. */
export type DaytonaPtyHandle = Pick<PtyHandle, 'sendInput' | 'resize' | 'kill' | 'wait' | 'disconnect'>;

export interface DaytonaProcess {
  executeCommand: Process['executeCommand'];
  createSession: Process['createSession'];
  deleteSession: Process['deleteSession'];
  executeSessionCommand: Process['executeSessionCommand'];
  getSessionCommand: Process['getSessionCommand'];
  getSessionCommandLogs(
    sessionId: string,
    commandId: string,
    onStdout: (chunk: string) => void,
    onStderr: (chunk: string) => void,
  ): Promise<void>;
  sendSessionCommandInput: Process['sendSessionCommandInput'];
  createPty(options: PtyCreateOptions & PtyConnectOptions): Promise<DaytonaPtyHandle>;
}

export interface DaytonaFileSystem {
  uploadFile(file: Buffer, remotePath: string, timeout?: number): Promise<void>;
  downloadFile(remotePath: string, timeout?: number): Promise<Buffer>;
}

export interface DaytonaSandbox {
  readonly id: string;
  readonly process: DaytonaProcess;
  readonly fs: DaytonaFileSystem;
  delete: Sandbox['delete'];
}

export interface DaytonaClient {
  create(params?: CreateSandboxFromSnapshotParams, options?: { timeout?: number }): Promise<DaytonaSandbox>;
  get(sandboxIdOrName: string): Promise<DaytonaSandbox>;
}

/** What berth takes from the module: the client class. */
export interface DaytonaSdk {
  readonly Daytona: new (config?: DaytonaConfig) => DaytonaClient;
}

type Assignable<T extends U, U> = T;
/** Compile-time proof that the installed SDK fits {@link DaytonaSdk}. */
export type DaytonaSdkFits = Assignable<typeof import('@daytonaio/sdk'), DaytonaSdk>;
