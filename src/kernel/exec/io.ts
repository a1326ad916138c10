/**
 * Writing from the shell itself (builtins, `set -x`): to a descriptor of the current table, with
 * a broken pipe ending the shell as SIGPIPE ends bash (status 141).
 * @module
 */
import { encodeText } from '../../commands/byte-text.js';
import { isControl, SignalControl } from '../runtime/control.js';
import { isBrokenPipe } from '../runtime/open-file.js';
import type { Shell } from '../runtime/shell.js';

/** The descriptor is closed or not open for writing (bash: `write error: Bad file descriptor`). */
export class WriteError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'WriteError';
  }
}

/** Write bytes or text to `fd`. */
export async function writeFd(sh: Shell, fd: number, data: string | Uint8Array): Promise<void> {
  const f = sh.fds.get(fd);
  if (f === undefined || !f.writable) throw new WriteError('Bad file descriptor');
  const bytes = typeof data === 'string' ? encodeText(data) : data;
  if (bytes.length === 0) return;
  sh.rt.budget.string(bytes.length);
  try {
    await f.write(bytes);
  } catch (error) {
    if (isControl(error)) throw error;
    if (isBrokenPipe(error)) throw new SignalControl('SIGPIPE', 141);
    if ((error as { code?: string }).code === 'EFBIG') throw new SignalControl('SIGXFSZ', 153);
    const code = (error as { code?: string }).code;
    if (code === 'ENOSPC') throw new WriteError(`No space left on device${vfsBudgetNote(error)}`);
    throw new WriteError(error instanceof Error ? error.message : String(error));
  }
}

export const out = (sh: Shell, data: string | Uint8Array): Promise<void> => writeFd(sh, 1, data);
export const err = (sh: Shell, data: string | Uint8Array): Promise<void> =>
  writeFd(sh, 2, data).catch(() => {});

/**
 * When `ENOSPC` came from the filesystem's byte budget (not a real disk): the limit, how full it
 * is, and how to raise it, appended to bash's message.
 */
export function vfsBudgetNote(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const m = /\((the (?:byte )?budget holds [^)]*)\)$/.exec(message);
  return m === null
    ? ''
    : ` (berth: limit reached: the VFS budget: ${m[1]}; raise it with new ByteBudget({ maxBytes, maxNodes }) for the filesystem)`;
}
