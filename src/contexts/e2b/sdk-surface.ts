/**
 * The part of the `e2b` SDK (2.x) berth uses, written with the SDK's own types. The real module
 * must fit it (`E2BSdkFits` below fails the build when a new SDK version changes one of these
 * signatures), and the test fakes implement it, so they cannot drift from the SDK either.
 * Type-only imports: nothing here loads `e2b` at run time.
 * @module
 */
import type {
  CommandExitError,
  CommandHandle,
  CommandResult,
  CommandStartOpts,
  Commands,
  FilesystemReadOpts,
  FilesystemWriteOpts,
  Pty,
  Sandbox,
  SandboxConnectOpts,
  SandboxOpts,
  WriteInfo,
} from 'e2b';

/** A command handle's public shape (the class has private fields a fake cannot have). */
export type E2BCommandHandle = Pick<
  CommandHandle,
  'pid' | 'wait' | 'kill' | 'disconnect' | 'sendStdin' | 'closeStdin'
>;

export interface E2BCommands {
  run(cmd: string, opts?: CommandStartOpts & { background?: false }): Promise<CommandResult>;
  run(cmd: string, opts: CommandStartOpts & { background: true }): Promise<E2BCommandHandle>;
  kill: Commands['kill'];
}

export interface E2BPty {
  create(opts: Parameters<Pty['create']>[0]): Promise<E2BCommandHandle>;
  sendInput: Pty['sendInput'];
  resize: Pty['resize'];
  kill: Pty['kill'];
}

export interface E2BFiles {
  read(path: string, opts: FilesystemReadOpts & { format: 'bytes' }): Promise<Uint8Array>;
  write(
    path: string,
    data: string | ArrayBuffer | Blob | ReadableStream,
    opts?: FilesystemWriteOpts,
  ): Promise<WriteInfo>;
}

export interface E2BSandbox {
  readonly sandboxId: string;
  readonly commands: E2BCommands;
  readonly pty: E2BPty;
  readonly files: E2BFiles;
  kill: Sandbox['kill'];
}

/** What berth takes from the module: the sandbox class's factories and the exit error class. */
export interface E2BSdk {
  readonly Sandbox: {
    create(template: string, opts?: SandboxOpts): Promise<E2BSandbox>;
    connect(sandboxId: string, opts?: SandboxConnectOpts): Promise<E2BSandbox>;
  };
  readonly CommandExitError: abstract new (...args: never[]) => CommandExitError;
}

type Assignable<T extends U, U> = T;
/** Compile-time proof that the installed SDK fits {@link E2BSdk}. */
export type E2BSdkFits = Assignable<typeof import('e2b'), E2BSdk>;
