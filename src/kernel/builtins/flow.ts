/**
 * Control flow builtins: `exit`, `return`, `break`, `continue`, `shift`.
 * @module
 */
import { DiscardControl, ExitControl, LoopControl, ReturnControl } from '../runtime/control.js';
import type { Shell } from '../runtime/shell.js';
import { complain } from './support.js';
import type { Builtin } from './types.js';

/**
 * `shift 1 2`, `return 1 2`, `break 1 2`, `exit 1 2`: bash abandons the command they are part of
 * (status 1); `bash -c` ends there with status 1.
 */
async function tooManyArguments(sh: Shell, name: string): Promise<never> {
  await complain(sh, name, 'too many arguments');
  if (sh.mode === 'c' && !sh.isSubshell && !sh.interactive) throw new ExitControl(1);
  throw new DiscardControl(1);
}

/** A numeric argument as bash reads one (`exit 3`, `return -1` wraps to 255). */
function numeric(text: string): number | undefined {
  const t = text.trim();
  if (!/^[+-]?[0-9]+$/.test(t)) return undefined;
  const n = BigInt(t);
  return Number(BigInt.asUintN(8, n));
}

export const exit: Builtin = {
  name: 'exit',
  special: true,
  synopsis: 'exit [n]',
  help: 'Exit the shell with status N (default: the status of the last command).',
  async run({ sh, argv }) {
    const arg = argv[1];
    let status = sh.status;
    if (arg !== undefined) {
      const n = numeric(arg);
      if (n === undefined) {
        await complain(sh, 'exit', `${arg}: numeric argument required`);
        status = 2;
      } else if (argv.length > 2) return tooManyArguments(sh, 'exit');
      else status = n;
    }
    throw new ExitControl(status);
  },
};

export const returnBuiltin: Builtin = {
  name: 'return',
  special: true,
  synopsis: 'return [n]',
  help: 'Return from a shell function or a sourced script with status N (default: the last status).',
  async run({ sh, argv }) {
    if (sh.callStack.length === 0 && sh.sourceDepth === 0) {
      await complain(sh, 'return', "can only `return' from a function or sourced script");
      return 2;
    }
    const arg = argv[1];
    if (arg === undefined) throw new ReturnControl(sh.status);
    const n = numeric(arg);
    if (n === undefined) {
      await complain(sh, 'return', `${arg}: numeric argument required`);
      throw new ReturnControl(2);
    }
    if (argv.length > 2) return tooManyArguments(sh, 'return');
    throw new ReturnControl(n);
  },
};

function loopBuiltin(kind: 'break' | 'continue'): Builtin {
  return {
    name: kind,
    special: true,
    synopsis: `${kind} [n]`,
    help:
      kind === 'break'
        ? 'Exit N enclosing loops (default 1).'
        : 'Resume the next iteration of the Nth enclosing loop.',
    async run({ sh, argv }) {
      let levels = 1;
      const arg = argv[1];
      if (arg !== undefined) {
        if (!/^-?[0-9]+$/.test(arg.trim())) {
          await complain(sh, kind, `${arg}: numeric argument required`);
          return loopOrExit(sh, 128);
        }
        levels = Number.parseInt(arg, 10);
        if (levels < 1) {
          await complain(sh, kind, `${arg}: loop count out of range`);
          return 1;
        }
      }
      if (sh.loopDepth === 0) {
        await complain(sh, kind, "only meaningful in a `for', `while', or `until' loop");
        return 0;
      }
      if (argv.length > 2) return tooManyArguments(sh, kind);
      throw new LoopControl(kind, Math.min(levels, sh.loopDepth));
    },
  };
}

function loopOrExit(_sh: Shell, status: number): number {
  throw new ExitControl(status);
}

export const breakBuiltin = loopBuiltin('break');
export const continueBuiltin = loopBuiltin('continue');

export const shift: Builtin = {
  name: 'shift',
  special: true,
  synopsis: 'shift [n]',
  help: 'Shift the positional parameters left by N (default 1).',
  async run({ sh, argv }) {
    let n = 1;
    const arg = argv[1];
    if (arg !== undefined) {
      if (!/^[0-9]+$/.test(arg.trim())) {
        await complain(sh, 'shift', `${arg}: numeric argument required`);
        return 1;
      }
      if (argv.length > 2) return tooManyArguments(sh, 'shift');
      n = Number.parseInt(arg, 10);
    }
    if (n > sh.positional.length) {
      if (sh.opts.s('shift_verbose')) await complain(sh, 'shift', `${n}: shift count out of range`);
      return 1;
    }
    sh.positional = sh.positional.slice(n);
    return 0;
  },
};
