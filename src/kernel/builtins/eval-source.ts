/**
 * `eval` and `source`/`.`: run text in the current shell, command by command.
 * @module
 */

import { decodeBytes } from '../../commands/byte-text.js';
import { shellMessage } from '../exec/messages.js';
import { runSource, SyntaxAbort } from '../exec/source-loop.js';
import { runTrap } from '../exec/trap.js';
import { limitReached } from '../limits.js';
import { DiscardControl, ReturnControl } from '../runtime/control.js';
import { resolvePath } from '../runtime/paths.js';
import type { Shell } from '../runtime/shell.js';
import { getVar } from '../runtime/vars.js';
import { complain, invalidOption, isOptionLike } from './support.js';
import type { Builtin } from './types.js';

async function nested<T>(sh: Shell, fn: () => Promise<T>): Promise<T> {
  if (sh.callDepth >= sh.rt.limits.maxCallDepth) throw limitReached(sh.rt.limits, 'maxCallDepth');
  sh.callDepth += 1;
  try {
    return await fn();
  } finally {
    sh.callDepth -= 1;
  }
}

export const evalBuiltin: Builtin = {
  name: 'eval',
  special: true,
  synopsis: 'eval [arg ...]',
  help: 'Join the arguments with spaces and run the result as shell commands.',
  async run({ sh, argv }) {
    if (isOptionLike(argv[1])) return invalidOption(sh, 'eval', argv[1], 'eval [arg ...]');
    const args = argv[1] === '--' ? argv.slice(2) : argv.slice(1);
    const text = args.join(' ');
    if (text.trim() === '') return 0;
    return nested(sh, async () => {
      const savedLine = sh.line;
      try {
        return await runSource(sh, text, { kind: 'eval', topLevel: false, firstLine: savedLine });
      } catch (error) {
        if (error instanceof SyntaxAbort) return error.status;
        // An expansion or assignment error abandons the rest of the text: eval fails with it.
        if (error instanceof DiscardControl) return error.status;
        throw error;
      } finally {
        sh.line = savedLine;
      }
    });
  },
};

async function findSourceFile(sh: Shell, name: string): Promise<string | undefined> {
  const fs = sh.rt.fs;
  const isFile = async (p: string): Promise<boolean> => {
    try {
      return (await fs.stat(p)).type !== 'directory';
    } catch {
      return false;
    }
  };
  // A directory is skipped in PATH but named as such when given directly ("is a directory").
  const exists = (p: string): Promise<boolean> =>
    fs.stat(p).then(
      () => true,
      () => false,
    );
  if (name.includes('/'))
    return (await exists(resolvePath(sh.cwd, name))) ? resolvePath(sh.cwd, name) : undefined;
  if (sh.opts.s('sourcepath')) {
    for (const dir of (getVar(sh, 'PATH') ?? '').split(':')) {
      if (dir === '') continue;
      const p = resolvePath(sh.cwd, `${dir}/${name}`);
      if (await isFile(p)) return p;
    }
  }
  const here = resolvePath(sh.cwd, name);
  return (await exists(here)) ? here : undefined;
}

function sourceBuiltin(name: 'source' | '.'): Builtin {
  return {
    name,
    special: name === '.',
    synopsis: `${name} filename [arguments]`,
    help: 'Read and run the commands of FILENAME in the current shell; ARGUMENTS become the positional parameters while it runs.',
    async run({ sh, argv }) {
      const args = argv[1] === '--' ? argv.slice(2) : argv.slice(1);
      const file = args[0];
      if (file === undefined) {
        await complain(sh, name, 'filename argument required');
        await complain(sh, name, `usage: ${name} filename [arguments]`);
        return 2;
      }
      const path = await findSourceFile(sh, file);
      if (path === undefined) {
        // Bash names no builtin here (`bash: line 1: x: No such file or directory`).
        await shellMessage(sh, `${file}: No such file or directory`);
        return 1;
      }
      let text: string;
      try {
        text = decodeBytes(await sh.rt.fs.readFile(path));
      } catch {
        const dir = await sh.rt.fs.stat(path).then(
          (st) => st.type === 'directory',
          () => false,
        );
        if (dir) await complain(sh, name, `${file}: is a directory`);
        else await shellMessage(sh, `${file}: No such file or directory`);
        return 1;
      }
      return nested(sh, async () => {
        const savedPositional = sh.positional;
        const savedSource = sh.source;
        const savedLine = sh.line;
        if (args.length > 1) sh.positional = args.slice(1);
        sh.callStack.push({ name: 'source', source: file, callLine: sh.line });
        sh.sourceDepth += 1;
        sh.source = file;
        try {
          return await runSource(sh, text, { kind: 'source', name: file, topLevel: true });
        } catch (error) {
          if (error instanceof ReturnControl) return error.status;
          if (error instanceof SyntaxAbort) return error.status;
          throw error;
        } finally {
          if (sh.traps.has('RETURN') && sh.inTrap !== 'RETURN') await runTrap(sh, 'RETURN').catch(() => {});
          sh.sourceDepth -= 1;
          sh.callStack.pop();
          sh.source = savedSource;
          sh.line = savedLine;
          if (args.length > 1) sh.positional = savedPositional;
        }
      });
    },
  };
}

export const source = sourceBuiltin('source');
export const dot = sourceBuiltin('.');
