/**
 * Redirections, applied in order to a descriptor table: files of the virtual filesystem (with
 * `noclobber` and, under `set -o trash`, a snapshot before truncation), duplication and closing,
 * heredocs and here-strings, `{var}>` allocation, and the `/dev` names the shell knows itself.
 * @module
 */

import { readerFromBytes } from '../../commands/byte-io.js';
import { encodeText } from '../../commands/byte-text.js';
import { describeVfsCode, isVfsError } from '../../vfs/filesystem.js';
import { expandRedirectTarget, expandToString } from '../expand/expand.js';
import { limitReached } from '../limits.js';
import { ShellError } from '../runtime/errors.js';
import type { FdTable } from '../runtime/fd-table.js';
import {
  NullFile,
  type OpenFile,
  RandomFile,
  ReaderFile,
  VfsOpenFile,
  ZeroFile,
} from '../runtime/open-file.js';
import { resolvePath } from '../runtime/paths.js';
import type { Shell } from '../runtime/shell.js';
import { setVar } from '../runtime/vars.js';
import type { Redirect } from '../syntax/ast.js';
import { vfsBudgetNote } from './io.js';

/**
 * Apply `redirects` to `table` (an overlay for a command, the shell's own for `exec`). Throws a
 * {@link ShellError} with bash's message when one fails; those before it stay applied.
 */
export async function applyRedirects(
  sh: Shell,
  redirects: readonly Redirect[],
  table: FdTable,
  persistent: boolean,
  inShell = false,
): Promise<void> {
  for (const r of redirects) await applyOne(sh, r, table, persistent, inShell);
}

/**
 * `inShell`: the command runs in the shell itself (a builtin, a function, a compound command).
 * There bash restores the source of a move only along with a target that was open: `: 6>&7-`
 * with 6 closed leaves 7 closed afterwards (it saved nothing to undo).
 */
async function applyOne(
  sh: Shell,
  r: Redirect,
  table: FdTable,
  persistent: boolean,
  inShell: boolean,
): Promise<void> {
  const set = (fd: number, file: OpenFile | null): void => {
    if (persistent) table.setPersistent(fd, file);
    else table.set(fd, file);
  };
  let fd = r.fd ?? defaultFd(r.op);
  if (r.fdVar !== undefined) {
    fd = sh.fds.lowestFree(10);
    while (table.get(fd) !== undefined) fd += 1;
  }
  const place = (file: OpenFile | null): void => {
    if (r.fdVar !== undefined) {
      if (file === null) {
        // `{var}>&-`: close the descriptor the variable holds.
        return;
      }
      setVar(sh, r.fdVar, String(fd));
      sh.fds.setPersistent(fd, file);
      if (table !== sh.fds) table.set(fd, file);
      return;
    }
    set(fd, file);
  };
  switch (r.op) {
    case '<<':
    case '<<-': {
      const doc = r.heredoc;
      const text =
        doc === undefined
          ? ''
          : doc.quoted
            ? doc.body.parts.map((p) => (p.type === 'sq' ? p.value : '')).join('')
            : await expandToString(sh, doc.body);
      const bytes = encodeText(text);
      if (bytes.length > sh.rt.limits.maxHeredocBytes)
        throw limitReached(sh.rt.limits, 'maxHeredocBytes', `a heredoc of ${bytes.length} bytes`);
      place(new ReaderFile(readerFromBytes(bytes), 'pipe:[heredoc]'));
      return;
    }
    case '<<<': {
      const text = await expandToString(sh, r.target);
      const bytes = encodeText(`${text}\n`);
      if (bytes.length > sh.rt.limits.maxHeredocBytes)
        throw limitReached(sh.rt.limits, 'maxHeredocBytes', `a here-string of ${bytes.length} bytes`);
      place(new ReaderFile(readerFromBytes(bytes), 'pipe:[herestring]'));
      return;
    }
    case '>&':
    case '<&': {
      const target = await expandRedirectTarget(sh, r.target);
      if (r.fdVar !== undefined && target === '-') {
        const held = Number.parseInt(lookupVar(sh, r.fdVar), 10);
        if (Number.isInteger(held)) {
          sh.fds.setPersistent(held, null);
          if (table !== sh.fds) table.set(held, null);
        }
        return;
      }
      if (target === '-') {
        set(fd, null);
        return;
      }
      const m = /^([0-9]+)(-?)$/.exec(target);
      if (m !== null) {
        const from = Number.parseInt(m[1] as string, 10);
        const file = table.get(from);
        if (file === undefined) throw new ShellError(`${from}: Bad file descriptor`);
        const targetWasOpen = table.get(fd) !== undefined;
        place(file);
        if (m[2] === '-' && from !== fd) {
          if (inShell && !persistent && !targetWasOpen) table.setPersistent(from, null);
          set(from, null);
        }
        return;
      }
      if (r.op === '>&' && r.fd === undefined) {
        const file = await openPath(sh, target, 'truncate');
        set(1, file);
        set(2, file);
        return;
      }
      // `1>&file` is `1>file`, as bash reads it.
      if (r.op === '>&' && r.fd === 1) {
        set(1, await openPath(sh, target, 'truncate'));
        return;
      }
      throw new ShellError(`${target}: ambiguous redirect`);
    }
    case '&>':
    case '&>>': {
      const target = await expandRedirectTarget(sh, r.target);
      const file = await openPath(sh, target, r.op === '&>' ? 'truncate' : 'append');
      set(1, file);
      set(2, file);
      return;
    }
    default: {
      const target = await expandRedirectTarget(sh, r.target);
      const mode =
        r.op === '<'
          ? 'read'
          : r.op === '<>'
            ? 'readwrite'
            : r.op === '>>'
              ? 'append'
              : r.op === '>|'
                ? 'force'
                : 'truncate';
      place(await openPath(sh, target, mode));
    }
  }
}

function lookupVar(sh: Shell, name: string): string {
  const f = sh.vars.find(name);
  return typeof f?.variable.value === 'string' ? f.variable.value : '';
}

function defaultFd(op: Redirect['op']): number {
  return op === '<' || op === '<&' || op === '<<' || op === '<<-' || op === '<<<' || op === '<>' ? 0 : 1;
}

type OpenMode = 'read' | 'readwrite' | 'truncate' | 'force' | 'append';

/** Open `target` as a redirection would (shared by `exec` and the `/dev/fd` view of commands). */
export async function openPath(sh: Shell, target: string, mode: OpenMode): Promise<OpenFile> {
  if (target === '') throw new ShellError(': No such file or directory');
  const path = resolvePath(sh.cwd, target);
  const device = openDevice(sh, path, mode);
  if (device !== undefined) return device;
  const fs = sh.rt.fs;
  try {
    if (mode === 'truncate' || mode === 'force') {
      let exists = false;
      try {
        const st = await fs.stat(path);
        exists = st.type === 'file';
        if (st.type === 'directory') throw new ShellError(`${target}: Is a directory`);
      } catch (error) {
        if (error instanceof ShellError) throw error;
      }
      if (exists && mode === 'truncate' && sh.opts.o('noclobber')) {
        throw new ShellError(`${target}: cannot overwrite existing file`);
      }
      if (exists && sh.opts.o('trash') && sh.rt.trash !== undefined) {
        await sh.rt.trash.snapshot(fs, path, 'truncate');
      }
    }
    const handle = await fs.open(path, {
      read: mode === 'read' || mode === 'readwrite',
      write: mode !== 'read',
      create: mode !== 'read',
      truncate: mode === 'truncate' || mode === 'force',
      append: mode === 'append',
      mode: 0o666 & ~sh.umask,
    });
    return new VfsOpenFile(
      handle,
      path,
      mode === 'read' || mode === 'readwrite',
      mode !== 'read',
      sh.limitsTable.fileSizeBytes(),
      mode === 'append',
    );
  } catch (error) {
    if (error instanceof ShellError) throw error;
    if (isVfsError(error))
      throw new ShellError(
        `${target}: ${describeVfsCode(error.code)}${error.code === 'ENOSPC' ? vfsBudgetNote(error) : ''}`,
      );
    throw error;
  }
}

/** `/dev/null`, `/dev/zero`, `/dev/urandom`, `/dev/stdin|stdout|stderr`, `/dev/fd/N`. */
function openDevice(sh: Shell, path: string, mode: OpenMode): OpenFile | undefined {
  switch (path) {
    case '/dev/null':
      return new NullFile();
    case '/dev/zero':
      return new ZeroFile();
    case '/dev/urandom':
    case '/dev/random':
      return new RandomFile((b) => {
        for (let i = 0; i < b.length; i += 1) b[i] = (sh.rt.random() >> 7) & 0xff;
      });
    case '/dev/stdin':
      return dupOf(sh, 0, path);
    case '/dev/stdout':
      return dupOf(sh, 1, path);
    case '/dev/stderr':
      return dupOf(sh, 2, path);
  }
  const m = /^\/(?:dev\/fd|proc\/self\/fd)\/([0-9]+)$/.exec(path);
  if (m !== null) return dupOf(sh, Number.parseInt(m[1] as string, 10), path);
  void mode;
  return undefined;
}

function dupOf(sh: Shell, fd: number, path: string): OpenFile {
  const f = sh.fds.get(fd);
  if (f === undefined) throw new ShellError(`${path}: No such file or directory`);
  return f;
}
