/**
 * The prefix of the shell's own messages, as bash forms it: `NAME: line N: `, where NAME is the
 * file being run (a sourced file, a script, the file a function was defined in, which a `-c`
 * string calls `environment` and standard input `main`), else `$0`.
 * @module
 */
import { encodeText } from '../../commands/byte-text.js';
import type { Shell } from '../runtime/shell.js';

/** The name bash puts first in its messages (`BASH_SOURCE[0]`, else `$0`). */
export function sourceName(sh: Shell): string {
  const frame = sh.callStack[sh.callStack.length - 1];
  const source = frame !== undefined ? frame.source : sh.source;
  return source === '' ? sh.arg0 : source;
}

/** `NAME: line N: `. */
export function errorPrefix(sh: Shell): string {
  return `${sourceName(sh)}: line ${sh.line}: `;
}

/** Write a message (`text` without the prefix or newline) to the shell's stderr. */
export async function shellMessage(sh: Shell, text: string): Promise<void> {
  await writeStderr(sh, `${errorPrefix(sh)}${text}\n`);
}

/** Write text to fd 2 (errors writing it are ignored, as bash ignores them). */
export async function writeStderr(sh: Shell, text: string): Promise<void> {
  const f = sh.fds.get(2);
  if (f === undefined || !f.writable) return;
  try {
    await f.write(encodeText(text));
  } catch {
    // stderr gone: nothing to report to
  }
}
