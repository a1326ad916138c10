/**
 * `bash -i` inside the kernel: the rc file, then (with `-c`) the command, or commands read from
 * standard input one complete command at a time with `PROMPT_COMMAND`, the `PS1`/`PS2` prompts on
 * stderr, history recorded and written to `HISTFILE` at the end, and `exit` on end of input.
 * Errors that end a non-interactive shell (`set -u`, `${x?}`) only end the command.
 * @module
 */
import { decodeBytes, encodeText } from '../../commands/byte-text.js';
import { expandToString } from '../expand/expand.js';
import { expandPrompt } from '../expand/prompt.js';
import { ExitControl } from '../runtime/control.js';
import { resolvePath } from '../runtime/paths.js';
import type { Shell } from '../runtime/shell.js';
import { getVar, setVar } from '../runtime/vars.js';
import { Parser } from '../syntax/parser.js';
import { ShellSyntaxError } from '../syntax/syntax-error.js';
import { parseHereDocBody } from '../syntax/word-parser.js';
import { writeStderr } from './messages.js';
import { readUntil } from './read-input.js';
import { runSource, SyntaxAbort } from './source-loop.js';

export async function runInteractive(
  sh: Shell,
  command: string | undefined,
  rcfile: string | null | undefined,
): Promise<number> {
  sh.interactive = true;
  sh.opts.invocation = command === undefined ? 'is' : 'ic';
  sh.opts.set.set('history', true);
  const home = getVar(sh, 'HOME') ?? sh.rt.identity.home;
  if (getVar(sh, 'HISTFILE') === undefined) setVar(sh, 'HISTFILE', `${home}/.bash_history`);
  if (getVar(sh, 'PS1') === undefined) setVar(sh, 'PS1', '\\s-\\v\\$ ');
  await loadHistory(sh);
  try {
    const rc = rcfile === undefined ? `${home}/.bashrc` : rcfile;
    if (rc !== null) await runRcFile(sh, rc, rcfile !== undefined);
    if (command !== undefined) return await runSource(sh, command, { kind: 'c', topLevel: true });
    return await readLoop(sh);
  } catch (error) {
    if (error instanceof ExitControl) return error.status;
    throw error;
  } finally {
    await saveHistory(sh);
  }
}

async function runRcFile(sh: Shell, path: string, explicit: boolean): Promise<void> {
  let text: string;
  try {
    text = decodeBytes(await sh.rt.fs.readFile(resolvePath(sh.cwd, path)));
  } catch {
    if (explicit && path !== '/dev/null')
      await writeStderr(sh, `${sh.arg0}: ${path}: No such file or directory\n`);
    return;
  }
  const saved = sh.source;
  sh.source = path;
  try {
    await runSource(sh, text, { kind: 'source', name: path, topLevel: true });
  } catch (error) {
    if (!(error instanceof SyntaxAbort)) throw error;
  } finally {
    sh.source = saved;
  }
}

async function prompt(sh: Shell, name: 'PS1' | 'PS2'): Promise<void> {
  const raw = getVar(sh, name);
  if (raw === undefined || raw === '') return;
  let text = expandPrompt(sh, raw, true);
  if (sh.opts.s('promptvars') && (text.includes('$') || text.includes('`'))) {
    try {
      text = await expandToString(sh, parseHereDocBody(new Parser(text)));
    } catch {
      // shown as written
    }
  }
  await writeStderr(sh, text);
}

async function readLoop(sh: Shell): Promise<number> {
  const input = sh.fds.get(0);
  let buffer = '';
  for (;;) {
    if (buffer === '') {
      const command = getVar(sh, 'PROMPT_COMMAND');
      if (command !== undefined && command !== '') {
        const saved = sh.status;
        await runSource(sh, command, { kind: 'eval', topLevel: true }).catch(() => {});
        sh.status = saved;
      }
      await prompt(sh, 'PS1');
    } else await prompt(sh, 'PS2');
    if (input === undefined || !input.readable) break;
    const r = await readUntil(input, 10, { limits: sh.rt.limits });
    if (r.eof && buffer === '') break;
    buffer += decodeBytes(r.bytes) + (r.delimited ? '\n' : '');
    if (!r.eof && incomplete(sh, buffer)) continue;
    const text = buffer;
    buffer = '';
    if (sh.opts.o('history')) sh.history.add(text);
    try {
      await runSource(sh, text, { kind: 'stdin', topLevel: true });
    } catch (error) {
      if (error instanceof SyntaxAbort) continue;
      throw error;
    }
    if (r.eof) break;
  }
  await writeStderr(sh, 'exit\n');
  return sh.status;
}

/** The text ends inside a construct (an open `if`, quote, heredoc): read another line. */
function incomplete(sh: Shell, text: string): boolean {
  try {
    new Parser(text, { extglob: () => sh.opts.s('extglob') }).parseAll();
    return false;
  } catch (error) {
    return (
      error instanceof ShellSyntaxError && (error.kind === 'unexpected-eof' || error.kind === 'unmatched')
    );
  }
}

async function loadHistory(sh: Shell): Promise<void> {
  const file = getVar(sh, 'HISTFILE');
  if (file === undefined || file === '') return;
  try {
    const text = decodeBytes(await sh.rt.fs.readFile(resolvePath(sh.cwd, file)));
    const lines = text.split('\n').filter((l) => l !== '');
    sh.history.entries.push(...lines);
    sh.history.saved = sh.history.entries.length;
    sh.history.fileLines = lines.length;
  } catch {
    // no history yet
  }
}

async function saveHistory(sh: Shell): Promise<void> {
  const file = getVar(sh, 'HISTFILE');
  if (file === undefined || file === '' || !sh.opts.o('history')) return;
  const fresh = sh.history.entries.slice(sh.history.saved);
  if (fresh.length === 0) return;
  try {
    await sh.rt.fs.writeFile(resolvePath(sh.cwd, file), encodeText(fresh.map((l) => `${l}\n`).join('')), {
      mode: 'append',
    });
    sh.history.saved = sh.history.entries.length;
  } catch {
    // the history file cannot be written: bash says nothing either
  }
}
