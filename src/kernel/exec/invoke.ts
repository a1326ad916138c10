/**
 * Running a registered command (or a host-defined one, or an allowed external command) from a
 * shell: its `CommandContext` is built over the shell's descriptors (references held for the
 * command's lifetime, so a pipe's end closes when the command lets go of it), the exported
 * environment, the working directory, the device-aware filesystem and the shell's cancellation.
 * A write to a pipe with no reader ends the command with SIGPIPE's status, 141.
 * @module
 */

import { encodeText } from '../../commands/byte-text.js';
import {
  BrokenPipeError,
  type ByteReader,
  type ByteWriter,
  type CommandContext,
  type CommandHandler,
  type CommandIdentity,
} from '../../commands/command.js';
import { VfsError } from '../../vfs/filesystem.js';
import { isControl } from '../runtime/control.js';
import type { OpenFile } from '../runtime/open-file.js';
import { isBrokenPipe } from '../runtime/open-file.js';
import type { Shell } from '../runtime/shell.js';
import { exportedEnv } from '../runtime/vars.js';
import { deviceFs } from './device-fs.js';
import { makeDispatch } from './dispatch.js';

interface Held {
  readonly reader: ByteReader & { release(): void };
  readonly writers: (ByteWriter & { release(): void; readonly broken: boolean })[];
}

/** A reader over descriptor `fd` (its reference is released by `close` or at the end). */
export function fdReader(sh: Shell, fd: number): ByteReader & { release(): void } {
  const f = sh.fds.get(fd);
  if (f === undefined || !f.readable) {
    return {
      read: () => Promise.reject(new VfsError('EBADF', 'read', `/dev/fd/${fd}`)),
      unread: () => {},
      data: () => Promise.resolve(undefined),
      close: () => {},
      release: () => {},
    };
  }
  f.ref();
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    f.unref();
  };
  return {
    read: () => (released ? Promise.resolve(null) : f.read()),
    unread: (bytes) => {
      if (!released) f.unread(bytes);
    },
    data: () => f.data(),
    close: release,
    release,
  };
}

/** A writer over descriptor `fd`. */
export function fdWriter(sh: Shell, fd: number): ByteWriter & { release(): void; readonly broken: boolean } {
  const f: OpenFile | undefined = sh.fds.get(fd);
  let broken = false;
  if (f === undefined || !f.writable) {
    return {
      write: () => Promise.reject(new VfsError('EBADF', 'write', `/dev/fd/${fd}`)),
      attachData: () => {},
      close: () => Promise.resolve(),
      release: () => {},
      get broken() {
        return false;
      },
    };
  }
  f.ref();
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    f.unref();
  };
  return {
    async write(bytes: Uint8Array): Promise<void> {
      if (released) throw new Error('write after close');
      if (broken) throw new BrokenPipeError();
      try {
        await f.write(bytes);
      } catch (error) {
        if (isBrokenPipe(error)) broken = true;
        throw error;
      }
    },
    attachData: (value) => f.attachData(value),
    close: async () => release(),
    release,
    get broken() {
      return broken;
    },
  };
}

/** Run `handler` as a command of `sh`. */
export async function invokeHandler(
  sh: Shell,
  handler: CommandHandler,
  argv: readonly string[],
  env: ReadonlyMap<string, string> | undefined,
): Promise<number> {
  const held: Held = { reader: fdReader(sh, 0), writers: [fdWriter(sh, 1), fdWriter(sh, 2)] };
  const environment = exportedEnv(sh);
  for (const [k, v] of env ?? []) environment.set(k, v);
  const [stdout, stderr] = held.writers as [Held['writers'][number], Held['writers'][number]];
  const watchdog = sh.rt.watchdog;
  const ctx: CommandContext = {
    argv,
    stdin: held.reader,
    stdout,
    stderr,
    env: environment,
    cwd: sh.cwd,
    fs: deviceFs(sh),
    signal: sh.signal,
    dispatch: makeDispatch(sh),
    cooperate: sh.rt.cooperate,
    network: sh.rt.network,
    // The shell's own identity, so `id`, `hostname` and new files' owners agree with `$UID`.
    identity: identityOf(sh),
    hold:
      watchdog === undefined
        ? undefined
        : (budgetMs, reason) => watchdog.hold(budgetMs, reason ?? argv[0] ?? 'command'),
  };
  let status: number;
  try {
    const result = await handler(ctx);
    status = Number.isInteger(result) ? result & 0xff : 1;
  } catch (error) {
    if (isControl(error)) throw error;
    if (sh.signal.aborted) throw sh.signal.reason;
    if (isBrokenPipe(error)) status = 141;
    else {
      const message = error instanceof Error ? error.message : String(error);
      await stderr.write(encodeText(`${argv[0] ?? 'command'}: internal error: ${message}\n`)).catch(() => {});
      status = 1;
    }
  } finally {
    held.reader.release();
    for (const w of held.writers) w.release();
  }
  if (stdout.broken || stderr.broken) status = 141;
  if (sh.signal.aborted) throw sh.signal.reason;
  return status;
}

/** Run an external command through the gate (it was allowed when resolved). */
export async function invokeExternal(
  sh: Shell,
  argv: readonly string[],
  env: ReadonlyMap<string, string> | undefined,
): Promise<number> {
  const gate = sh.rt.external;
  if (gate === undefined || !gate.allows(argv)) return 127;
  const environment = exportedEnv(sh);
  for (const [k, v] of env ?? []) environment.set(k, v);
  const reader = fdReader(sh, 0);
  const stdout = fdWriter(sh, 1);
  const stderr = fdWriter(sh, 2);
  try {
    const status = await gate.run(
      { argv, env: environment, cwd: sh.cwd },
      { stdin: reader, stdout, stderr, signal: sh.signal },
    );
    // Ended because the job was killed: the status is the signal's (143), not the host's kill.
    if (sh.signal.aborted) throw sh.signal.reason;
    return status;
  } finally {
    reader.release();
    stdout.release();
    stderr.release();
  }
}

function identityOf(sh: Shell): CommandIdentity {
  const id = sh.rt.identity;
  return { uid: id.uid, gid: id.gid, user: id.user, hostname: id.hostname };
}
