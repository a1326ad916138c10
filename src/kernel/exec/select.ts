/**
 * `select`: the numbered menu on stderr, the `PS3` prompt, a line from stdin.
 * @module
 */
import type { Shell } from '../runtime/shell.js';
import { getVar } from '../runtime/vars.js';
import { writeStderr } from './messages.js';
import { readUntil, textOf } from './read-input.js';

export async function readSelectChoice(
  sh: Shell,
  words: readonly string[],
): Promise<{ value: string; reply: string } | undefined> {
  if (words.length === 0) return undefined;
  const width = String(words.length).length;
  let menu = '';
  words.forEach((w, i) => {
    menu += `${String(i + 1).padStart(width)}) ${w}\n`;
  });
  await writeStderr(sh, menu);
  for (;;) {
    await writeStderr(sh, getVar(sh, 'PS3') ?? '#? ');
    const input = sh.fds.get(0);
    if (input === undefined || !input.readable) return undefined;
    const r = await readUntil(input, 10, { limits: sh.rt.limits });
    if (r.eof) {
      await writeStderr(sh, '\n');
      return undefined;
    }
    const reply = textOf(r);
    if (reply.trim() === '') {
      await writeStderr(sh, menu);
      continue;
    }
    const n = Number.parseInt(reply.trim(), 10);
    const value =
      /^[0-9]+$/.test(reply.trim()) && n >= 1 && n <= words.length ? (words[n - 1] as string) : '';
    return { value, reply };
  }
}
