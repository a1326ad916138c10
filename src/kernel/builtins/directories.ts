/**
 * The working directory: `cd` (`-`, `CDPATH`, `-L`/`-P`), `pwd`, and the directory stack
 * (`pushd`, `popd`, `dirs`).
 * @module
 */

import { deviceFs } from '../exec/device-fs.js';
import { normalizePath, resolvePath } from '../runtime/paths.js';
import type { Shell } from '../runtime/shell.js';
import { getVar, setVar } from '../runtime/vars.js';
import { complain, print, usageLine } from './support.js';
import type { Builtin } from './types.js';

async function isDirectory(sh: Shell, path: string): Promise<'dir' | 'notdir' | 'missing'> {
  try {
    const st = await deviceFs(sh).stat(path);
    return st.type === 'directory' ? 'dir' : 'notdir';
  } catch {
    return 'missing';
  }
}

/**
 * bash's logical `cd` drops `dir/..` only when dir is a directory: `cd nonexistent/..` fails.
 */
async function dotDotsResolve(sh: Shell, target: string): Promise<boolean> {
  if (!target.split('/').includes('..')) return true;
  const parts = target.startsWith('/') ? [] : sh.cwd.split('/').filter((p) => p !== '');
  for (const part of target.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if ((await isDirectory(sh, `/${parts.join('/')}`)) !== 'dir') return false;
      parts.pop();
    } else parts.push(part);
  }
  return true;
}

/** Change to `target`; reports bash's errors. Returns the new directory or undefined. */
async function changeTo(
  sh: Shell,
  name: string,
  target: string,
  physical: boolean,
  shown: string,
): Promise<string | undefined> {
  let path = target.startsWith('/') ? normalizePath(target) : resolvePath(sh.cwd, target);
  const state = (await dotDotsResolve(sh, target)) ? await isDirectory(sh, path) : 'missing';
  if (state !== 'dir') {
    await complain(
      sh,
      name,
      `${shown}: ${state === 'notdir' ? 'Not a directory' : 'No such file or directory'}`,
    );
    return undefined;
  }
  if (physical) {
    try {
      path = await sh.rt.fs.realpath(path);
    } catch {
      // keep the logical path
    }
  }
  const old = sh.cwd;
  sh.cwd = path;
  setVar(sh, 'OLDPWD', getVar(sh, 'PWD') ?? old);
  setVar(sh, 'PWD', path);
  return path;
}

export const cd: Builtin = {
  name: 'cd',
  synopsis: 'cd [-L|[-P [-e]] [-@]] [dir]',
  help: 'Change the working directory to DIR (default $HOME); `cd -` goes back to $OLDPWD; CDPATH lists where relative names are looked for.',
  async run({ sh, argv }) {
    let physical = sh.opts.o('physical');
    let i = 1;
    for (; i < argv.length; i += 1) {
      const a = argv[i] as string;
      if (a === '--') {
        i += 1;
        break;
      }
      if (!/^-[LPe@]+$/.test(a)) {
        if (a.startsWith('-') && a !== '-') {
          await complain(sh, 'cd', `${a.slice(0, 2)}: invalid option`);
          await usageLine(sh, 'cd', 'cd [-L|[-P [-e]] [-@]] [dir]');
          return 2;
        }
        break;
      }
      for (const c of a.slice(1)) {
        if (c === 'P') physical = true;
        if (c === 'L') physical = false;
      }
    }
    const args = argv.slice(i);
    if (args.length > 1) {
      await complain(sh, 'cd', 'too many arguments');
      return 1;
    }
    let dir = args[0];
    let printDir = false;
    if (dir === undefined) {
      const home = getVar(sh, 'HOME');
      if (home === undefined) {
        await complain(sh, 'cd', 'HOME not set');
        return 1;
      }
      if (home === '') return 0;
      dir = home;
    } else if (dir === '-') {
      const old = getVar(sh, 'OLDPWD');
      if (old === undefined || old === '') {
        await complain(sh, 'cd', 'OLDPWD not set');
        return 1;
      }
      dir = old;
      printDir = true;
    } else if (dir === '') {
      return 0;
    }
    if (!dir.startsWith('/') && !/^\.\.?(\/|$)/.test(dir)) {
      const cdpath = getVar(sh, 'CDPATH');
      if (cdpath !== undefined && cdpath !== '') {
        for (const base of cdpath.split(':')) {
          const candidate = base === '' ? resolvePath(sh.cwd, dir) : resolvePath(sh.cwd, `${base}/${dir}`);
          if ((await isDirectory(sh, candidate)) === 'dir') {
            const done = await changeTo(sh, 'cd', candidate, physical, dir);
            if (done === undefined) return 1;
            if (base !== '') await print(sh, `${done}\n`);
            return 0;
          }
        }
      }
    }
    const done = await changeTo(sh, 'cd', dir, physical, dir);
    if (done === undefined) return 1;
    if (printDir) await print(sh, `${done}\n`);
    return 0;
  },
};

export const pwd: Builtin = {
  name: 'pwd',
  synopsis: 'pwd [-LP]',
  help: 'Print the working directory (-P: with symbolic links resolved).',
  async run({ sh, argv }) {
    let physical = sh.opts.o('physical');
    for (const a of argv.slice(1)) {
      if (a === '-P') physical = true;
      else if (a === '-L') physical = false;
      else if (a.startsWith('-')) {
        await complain(sh, 'pwd', `${a.slice(0, 2)}: invalid option`);
        await usageLine(sh, 'pwd', 'pwd [-LP]');
        return 2;
      }
    }
    let dir = sh.cwd;
    if (physical) {
      try {
        dir = await sh.rt.fs.realpath(dir);
      } catch {
        // keep the logical path
      }
    }
    await print(sh, `${dir}\n`);
    return 0;
  },
};

function tilde(sh: Shell, dir: string): string {
  const home = getVar(sh, 'HOME');
  if (home !== undefined && home !== '' && (dir === home || dir.startsWith(`${home}/`)))
    return `~${dir.slice(home.length)}`;
  return dir;
}

async function showDirs(sh: Shell, flags: string, long = false): Promise<void> {
  const stack = [sh.cwd, ...sh.dirStack];
  const show = (d: string): string => (long || flags.includes('l') ? d : tilde(sh, d));
  if (flags.includes('v')) {
    await print(sh, stack.map((d, i) => `${String(i).padStart(2)}  ${show(d)}\n`).join(''));
  } else if (flags.includes('p')) {
    await print(sh, stack.map((d) => `${show(d)}\n`).join(''));
  } else {
    await print(sh, `${stack.map(show).join(' ')}\n`);
  }
}

export const dirs: Builtin = {
  name: 'dirs',
  synopsis: 'dirs [-clpv] [+N] [-N]',
  help: 'Show the directory stack (-c clears it, -l full paths, -p one per line, -v numbered).',
  async run({ sh, argv }) {
    let flags = '';
    for (const a of argv.slice(1)) {
      if (/^-[clpv]+$/.test(a)) flags += a.slice(1);
      else if (/^[+-][0-9]+$/.test(a)) {
        const n = Number.parseInt(a.slice(1), 10);
        const stack = [sh.cwd, ...sh.dirStack];
        const idx = a[0] === '+' ? n : stack.length - 1 - n;
        const d = stack[idx];
        if (d === undefined) {
          await complain(sh, 'dirs', `${a}: directory stack index out of range`);
          return 1;
        }
        await print(sh, `${flags.includes('l') ? d : tilde(sh, d)}\n`);
        return 0;
      } else {
        await complain(sh, 'dirs', `${a}: invalid option`);
        await usageLine(sh, 'dirs', 'dirs [-clpv] [+N] [-N]');
        return 2;
      }
    }
    if (flags.includes('c')) {
      sh.dirStack = [];
      return 0;
    }
    await showDirs(sh, flags);
    return 0;
  },
};

/**
 * The arguments of `pushd`/`popd`: `-n`, `--`, `+N`/`-N` and words; any other `-x` is bash's
 * "invalid number" usage error (status 2).
 */
async function stackArgs(
  sh: Shell,
  name: string,
  usage: string,
  argv: readonly string[],
): Promise<{ args: string[]; noChange: boolean } | number> {
  const args: string[] = [];
  let noChange = false;
  let options = true;
  for (const a of argv.slice(1)) {
    if (options && a === '--') options = false;
    else if (options && a === '-n') noChange = true;
    else if (options && a.startsWith('-') && a.length > 1 && !/^-[0-9]+$/.test(a)) {
      await complain(sh, name, `${a}: invalid number`);
      await usageLine(sh, name, usage);
      return 2;
    } else args.push(a);
  }
  return { args, noChange };
}

export const pushd: Builtin = {
  name: 'pushd',
  synopsis: 'pushd [-n] [+N | -N | dir]',
  help: 'Push DIR on the directory stack and change to it; without DIR, swap the top two.',
  async run({ sh, argv }) {
    const parsed = await stackArgs(sh, 'pushd', 'pushd [-n] [+N | -N | dir]', argv);
    if (typeof parsed === 'number') return parsed;
    const { args, noChange } = parsed;
    if (args.length > 1) {
      await complain(sh, 'pushd', 'too many arguments');
      return 1;
    }
    if (args.length === 0) {
      const next = sh.dirStack[0];
      if (next === undefined) {
        await complain(sh, 'pushd', 'no other directory');
        return 1;
      }
      const old = sh.cwd;
      if ((await changeTo(sh, 'pushd', next, false, next)) === undefined) return 1;
      sh.dirStack[0] = old;
      await showDirs(sh, '');
      return 0;
    }
    const dir = args[0] as string;
    if (/^[+-][0-9]+$/.test(dir)) {
      const stack = [sh.cwd, ...sh.dirStack];
      const n = Number.parseInt(dir.slice(1), 10);
      const idx = dir[0] === '+' ? n : stack.length - 1 - n;
      if (stack[idx] === undefined) {
        await complain(sh, 'pushd', `${dir}: directory stack index out of range`);
        return 1;
      }
      const rotated = [...stack.slice(idx), ...stack.slice(0, idx)];
      if ((await changeTo(sh, 'pushd', rotated[0] as string, false, rotated[0] as string)) === undefined)
        return 1;
      sh.dirStack = rotated.slice(1);
      await showDirs(sh, '');
      return 0;
    }
    const old = sh.cwd;
    if (noChange) {
      sh.dirStack.unshift(resolvePath(sh.cwd, dir));
      await showDirs(sh, '');
      return 0;
    }
    if ((await changeTo(sh, 'pushd', dir, false, dir)) === undefined) return 1;
    sh.dirStack.unshift(old);
    await showDirs(sh, '');
    return 0;
  },
};

export const popd: Builtin = {
  name: 'popd',
  synopsis: 'popd [-n] [+N | -N]',
  help: 'Remove the top of the directory stack and change to the new top.',
  async run({ sh, argv }) {
    const usage = 'popd [-n] [+N | -N]';
    const parsed = await stackArgs(sh, 'popd', usage, argv);
    if (typeof parsed === 'number') return parsed;
    const { args } = parsed;
    const extra = args.find((a) => !/^[+-][0-9]+$/.test(a));
    if (extra !== undefined) {
      await complain(sh, 'popd', `${extra}: invalid argument`);
      await usageLine(sh, 'popd', usage);
      return 2;
    }
    if (sh.dirStack.length === 0) {
      await complain(sh, 'popd', 'directory stack empty');
      return 1;
    }
    const arg = args[0];
    if (arg !== undefined && /^[+-][0-9]+$/.test(arg)) {
      const stack = [sh.cwd, ...sh.dirStack];
      const n = Number.parseInt(arg.slice(1), 10);
      const idx = arg[0] === '+' ? n : stack.length - 1 - n;
      if (stack[idx] === undefined) {
        await complain(sh, 'popd', `${arg}: directory stack index out of range`);
        return 1;
      }
      if (idx === 0) {
        const next = sh.dirStack.shift() as string;
        if ((await changeTo(sh, 'popd', next, false, next)) === undefined) return 1;
      } else sh.dirStack.splice(idx - 1, 1);
      await showDirs(sh, '');
      return 0;
    }
    const next = sh.dirStack[0] as string;
    if ((await changeTo(sh, 'popd', next, false, next)) === undefined) return 1;
    sh.dirStack.shift();
    await showDirs(sh, '');
    return 0;
  },
};
