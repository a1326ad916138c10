/**
 * Smaller builtins: `let`, `umask`, `times`, `caller`.
 * @module
 */
import { ArithError } from '../arith/arith-parser.js';
import { shellMessage } from '../exec/messages.js';
import { ArithAssignError, arithRaw } from '../runtime/arith-scope.js';
import { complain, invalidOption, print } from './support.js';
import type { Builtin } from './types.js';

export const let_: Builtin = {
  name: 'let',
  synopsis: 'let arg [arg ...]',
  help: 'Evaluate each ARG as an arithmetic expression; status 0 when the last is not zero.',
  async run({ sh, argv }) {
    const args = argv.slice(1);
    if (args.length === 0) {
      await complain(sh, 'let', 'expression expected');
      return 1;
    }
    let last = 0n;
    for (const a of args) {
      try {
        last = arithRaw(sh, a);
      } catch (error) {
        if (error instanceof ArithError) {
          await complain(sh, 'let', error.message);
          return 1;
        }
        if (error instanceof ArithAssignError) {
          await shellMessage(sh, error.message);
          return 1;
        }
        throw error;
      }
    }
    return last !== 0n ? 0 : 1;
  },
};

const WHO: Readonly<Record<string, number>> = { u: 6, g: 3, o: 0 };

function symbolic(mask: number): string {
  const perms = (shift: number): string => {
    const bits = ~mask >> shift;
    return `${bits & 4 ? 'r' : ''}${bits & 2 ? 'w' : ''}${bits & 1 ? 'x' : ''}`;
  };
  return `u=${perms(6)},g=${perms(3)},o=${perms(0)}`;
}

/** Apply a symbolic mode (`u=rwx,g-w,o+r`) to the permissions a mask allows. */
function applySymbolic(mask: number, spec: string): number | undefined {
  let allowed = ~mask & 0o777;
  for (const clause of spec.split(',')) {
    const m = /^([ugoa]*)([=+-])([rwx]*)$/.exec(clause);
    if (m === null) return undefined;
    const who = (m[1] as string) === '' || m[1]?.includes('a') ? 'ugo' : (m[1] as string);
    const bits =
      ((m[3] as string).includes('r') ? 4 : 0) |
      ((m[3] as string).includes('w') ? 2 : 0) |
      ((m[3] as string).includes('x') ? 1 : 0);
    for (const w of who) {
      const shift = WHO[w] as number;
      if (m[2] === '=') allowed = (allowed & ~(7 << shift)) | (bits << shift);
      else if (m[2] === '+') allowed |= bits << shift;
      else allowed &= ~(bits << shift);
    }
  }
  return ~allowed & 0o777;
}

export const umask: Builtin = {
  name: 'umask',
  synopsis: 'umask [-p] [-S] [mode]',
  help: 'Show or set the file creation mask (octal, or symbolic with -S).',
  async run({ sh, argv }) {
    let symbolicOut = false;
    let p = false;
    const rest: string[] = [];
    let options = true;
    for (const a of argv.slice(1)) {
      if (options && a === '--') options = false;
      else if (options && /^-[pS]+$/.test(a)) {
        if (a.includes('S')) symbolicOut = true;
        if (a.includes('p')) p = true;
      } else if (options && a.startsWith('-') && a.length > 1) {
        // `umask -rwx` is an option error, as in bash (a mode never starts with `-`).
        const bad = a.slice(1).replace(/[pS]/g, '')[0] as string;
        return invalidOption(sh, 'umask', `-${bad}`, 'umask [-p] [-S] [mode]');
      } else {
        options = false;
        rest.push(a);
      }
    }
    const mode = rest[0];
    if (mode === undefined) {
      const text = symbolicOut ? symbolic(sh.umask) : sh.umask.toString(8).padStart(4, '0');
      await print(sh, `${p ? 'umask ' : ''}${p && symbolicOut ? '-S ' : ''}${text}\n`);
      return 0;
    }
    if (/^[0-9]+$/.test(mode)) {
      if (/[89]/.test(mode) || Number.parseInt(mode, 8) > 0o777) {
        await complain(sh, 'umask', `${mode}: octal number out of range`);
        return 1;
      }
      sh.umask = Number.parseInt(mode, 8);
      return 0;
    }
    const next = applySymbolic(sh.umask, mode);
    if (next === undefined) {
      await complain(
        sh,
        'umask',
        `\`${mode.replace(/^.*?([^ugoa=+,rwx-]).*$/, '$1')}': invalid symbolic mode character`,
      );
      return 1;
    }
    sh.umask = next;
    return 0;
  },
};

export const times: Builtin = {
  name: 'times',
  synopsis: 'times',
  help: 'Print the user and system times of the shell and of its children.',
  async run({ sh }) {
    const used = process.cpuUsage();
    const fmt = (us: number): string => {
      const s = us / 1e6;
      const m = Math.floor(s / 60);
      return `${m}m${(s - m * 60).toFixed(3)}s`;
    };
    await print(sh, `${fmt(used.user)} ${fmt(used.system)}\n0m0.000s 0m0.000s\n`);
    return 0;
  },
};

export const caller: Builtin = {
  name: 'caller',
  synopsis: 'caller [expr]',
  help: 'Print the line and file of the current function call (or of frame EXPR).',
  async run({ sh, argv }) {
    const frames = [...sh.callStack].reverse().filter((f) => f.name !== 'source' || true);
    const n = argv[1] === undefined ? undefined : Number.parseInt(argv[1], 10);
    if (frames.length === 0) return 1;
    if (n === undefined) {
      const f = frames[0];
      if (f === undefined) return 1;
      const parent = frames[1];
      await print(sh, `${f.callLine} ${parent?.source ?? (sh.mode === 'file' ? sh.source : 'NULL')}\n`);
      return 0;
    }
    const f = frames[n];
    if (f === undefined) return 1;
    const parent = frames[n + 1];
    // Only a script file has a `main` frame to name.
    if (parent === undefined && sh.mode !== 'file') return 1;
    await print(
      sh,
      `${f.callLine} ${parent?.name ?? 'main'} ${parent?.source ?? (sh.mode === 'file' ? sh.source : 'NULL')}\n`,
    );
    return 0;
  },
};
