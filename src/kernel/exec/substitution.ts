/**
 * Subshells, command substitution and process substitution. A subshell is a forked shell (no
 * copy of the world: its scopes are copy-on-write); a command substitution's output is collected
 * within the string limit, NUL bytes dropped with bash's warning, trailing newlines removed; a
 * process substitution runs concurrently on a pipe the command reaches through `/dev/fd/N`.
 * @module
 */
import { createBytePipe } from '../../commands/byte-pipe.js';
import { decodeBytes } from '../../commands/byte-text.js';
import type { ByteWriter } from '../../commands/command.js';
import { isVfsError } from '../../vfs/filesystem.js';
import { limitReached } from '../limits.js';
import {
  CancelControl,
  DiscardControl,
  ExitControl,
  LimitControl,
  LoopControl,
  ReturnControl,
  SignalControl,
} from '../runtime/control.js';
import { ShellError } from '../runtime/errors.js';
import type { FdTable } from '../runtime/fd-table.js';
import { JobTable } from '../runtime/jobs.js';
import { ReaderFile, WriterFile } from '../runtime/open-file.js';
import type { Shell } from '../runtime/shell.js';
import type { ProcessSubPart, Redirect, Script, Statement } from '../syntax/ast.js';
import { checkpoint } from './checkpoint.js';
import { writeFd } from './io.js';
import { shellMessage, writeStderr } from './messages.js';
import { applyRedirects } from './redirect.js';
import { runScript } from './run.js';
import { runSource, SyntaxAbort } from './source-loop.js';
import { runExitTrap } from './trap.js';

/** The status a subshell ends with when `error` unwinds it (rethrows what ends the whole call). */
export function subshellStatus(child: Shell, error: unknown): number {
  if (error instanceof ExitControl) return error.status;
  if (error instanceof DiscardControl) return error.status;
  if (error instanceof SignalControl) return error.status;
  if (error instanceof ReturnControl) return error.status;
  if (error instanceof LoopControl) return child.status;
  if (error instanceof CancelControl || error instanceof LimitControl) throw error;
  throw error;
}

/** Run `fn` in a subshell of `sh`; `setup` wires its descriptors before it starts. */
export async function runSubshell(
  sh: Shell,
  fn: (child: Shell) => Promise<number>,
  setup?: (child: Shell) => void,
): Promise<number> {
  const child = sh.fork(new JobTable(sh.jobs));
  let status: number;
  try {
    setup?.(child);
    try {
      status = await fn(child);
    } catch (error) {
      status = subshellStatus(child, error);
    }
    status = await runExitTrap(child, status);
  } finally {
    child.dispose();
  }
  return status;
}

/** `$(...)`: the output, trailing newlines removed. Sets `$?`. */
export async function commandSubstitution(sh: Shell, body: Script): Promise<string> {
  const max = sh.rt.limits.maxStringBytes;
  const parts: Uint8Array[] = [];
  let size = 0;
  const collector: ByteWriter = {
    write(bytes: Uint8Array): Promise<void> {
      if (size + bytes.length > max)
        return Promise.reject(
          limitReached(sh.rt.limits, 'maxStringBytes', `command substitution output over ${max} bytes`),
        );
      size += bytes.length;
      parts.push(bytes);
      return Promise.resolve();
    },
    attachData: () => {},
    close: () => Promise.resolve(),
  };
  const readOnly = fileReadShape(body);
  const status = await runSubshell(
    sh,
    (child) =>
      body.unparsed !== undefined
        ? runUnparsed(child, body.unparsed)
        : readOnly === undefined
          ? runScript(child, body)
          : copyFile(child, readOnly),
    (child) => {
      child.fds.set(1, new WriterFile(collector, 'pipe:[cmdsub]'));
      child.isCommandSub = true;
      child.cmdSubDepth = sh.cmdSubDepth + 1;
      // (Only when it is on: turning it off would copy the shared option table for nothing.)
      if (child.opts.errexit && !sh.opts.s('inherit_errexit')) child.opts.set.set('errexit', false);
    },
  );
  sh.lastSubStatus = status;
  sh.status = status;
  let bytes: Uint8Array;
  if (parts.length === 1) bytes = parts[0] as Uint8Array;
  else {
    bytes = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
      bytes.set(p, at);
      at += p.length;
    }
  }
  if (bytes.includes(0)) {
    bytes = bytes.filter((b) => b !== 0);
    await writeStderr(sh, `${sh.arg0}: warning: command substitution: ignored null byte in input\n`);
  }
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 10) end -= 1;
  return decodeBytes(bytes.subarray(0, end));
}

/** A backquoted text that did not parse: parsed again now, its syntax error reported as bash's. */
async function runUnparsed(child: Shell, unparsed: NonNullable<Script['unparsed']>): Promise<number> {
  try {
    return await runSource(child, unparsed.text, {
      kind: 'comsub',
      topLevel: false,
      firstLine: unparsed.line,
    });
  } catch (error) {
    if (error instanceof SyntaxAbort) return error.status;
    throw error;
  }
}

/** `$(< file)`: the redirect alone, which bash reads as the file's contents. */
function fileReadShape(body: Script): Redirect | undefined {
  if (body.commands.length !== 1) return undefined;
  const s = body.commands[0] as Statement;
  const c = s.command;
  if (s.background || c.type !== 'simple' || c.words.length > 0 || c.assignments.length > 0) return undefined;
  const r = c.redirects[0];
  if (c.redirects.length !== 1 || r === undefined || r.op !== '<' || (r.fd ?? 0) !== 0) return undefined;
  return r;
}

async function copyFile(child: Shell, r: Redirect): Promise<number> {
  child.line = r.line;
  try {
    await applyRedirects(child, [r], child.fds, true);
  } catch (error) {
    if (error instanceof ShellError) {
      await shellMessage(child, error.message);
      return 1;
    }
    throw error;
  }
  const input = child.fds.get(0);
  if (input === undefined || input === null) return 1;
  for (;;) {
    await checkpoint(child);
    let chunk: Uint8Array | null;
    try {
      chunk = await input.read();
    } catch (error) {
      // bash stops at a read error (a directory) without a word, keeping what it had.
      if (isVfsError(error)) break;
      throw error;
    }
    if (chunk === null) break;
    await writeFd(child, 1, chunk);
  }
  return 0;
}

/** `<(...)` / `>(...)`: start it and return the `/dev/fd/N` path naming its pipe. */
export async function processSubstitution(sh: Shell, part: ProcessSubPart): Promise<string> {
  const pipe = createBytePipe();
  let fd = 63;
  while (sh.fds.get(fd) !== undefined && fd > 10) fd -= 1;
  const table = sh.fds;
  if (part.dir === '<') table.set(fd, new ReaderFile(pipe.reader));
  else table.set(fd, new WriterFile(pipe.writer));
  sh.procSubs.push(fd);
  sh.procSubTables.push(table);
  const started = runSubshell(
    sh,
    (child) => {
      // The child must not hold the parent's end of its own pipe.
      child.fds.set(fd, null);
      return runScript(child, part.body);
    },
    (child) => {
      if (part.dir === '<') child.fds.set(1, new WriterFile(pipe.writer));
      else child.fds.set(0, new ReaderFile(pipe.reader));
    },
  );
  started.catch(() => {});
  sh.rt.track(started);
  return `/dev/fd/${fd}`;
}

/** Close the process substitutions opened since `mark` (their command has ended). */
export function closeProcessSubstitutions(sh: Shell, mark: number): void {
  while (sh.procSubs.length > mark) {
    const fd = sh.procSubs.pop() as number;
    const table = sh.procSubTables.pop() as FdTable;
    table.set(fd, null);
  }
}
