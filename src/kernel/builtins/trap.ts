/**
 * `trap [-lp] [[action] signal ...]`: `EXIT`, `ERR`, `DEBUG`, `RETURN` and the signals by name
 * or number; `''` ignores, `-` resets.
 * @module
 */
import { SIGNALS } from '../runtime/control.js';
import { complain, invalidOption, isOptionLike, print } from './support.js';
import type { Builtin } from './types.js';

const PSEUDO = new Set(['EXIT', 'ERR', 'DEBUG', 'RETURN']);

/** The canonical name of a signal spec (`EXIT`, `INT`, ...), or undefined. */
export function signalName(spec: string): string | undefined {
  const s = spec.toUpperCase();
  if (s === '0') return 'EXIT';
  if (PSEUDO.has(s)) return s;
  if (/^[0-9]+$/.test(s)) {
    const n = Number.parseInt(s, 10);
    return Object.entries(SIGNALS).find(([, v]) => v === n)?.[0];
  }
  const name = s.startsWith('SIG') ? s.slice(3) : s;
  return SIGNALS[name] !== undefined ? name : undefined;
}

const display = (name: string): string => (PSEUDO.has(name) ? name : `SIG${name}`);
const quote = (s: string): string => `'${s.replace(/'/g, "'\\''")}'`;

export function signalList(): string {
  const entries = Object.entries(SIGNALS).sort((a, b) => a[1] - b[1]);
  let out = '';
  entries.forEach(([name, n], i) => {
    out += `${String(n).padStart(2)}) SIG${name}`;
    out += (i + 1) % 5 === 0 || i === entries.length - 1 ? '\n' : '\t';
  });
  return out;
}

export const trap: Builtin = {
  name: 'trap',
  special: true,
  synopsis: 'trap [-lp] [[arg] signal_spec ...]',
  help: "Run ARG when the shell receives one of the SIGNAL_SPECs (EXIT, ERR, DEBUG, RETURN, INT, TERM, ...); '' ignores, - resets; -p prints.",
  async run({ sh, argv }) {
    let args = argv.slice(1);
    if (args[0] === '-l') {
      await print(sh, signalList());
      return 0;
    }
    if (args[0] === '--') args = args.slice(1);
    else if (isOptionLike(args[0]) && args[0] !== '-p')
      return invalidOption(sh, 'trap', args[0], 'trap [-lp] [[arg] signal_spec ...]');
    if (args.length === 0 || args[0] === '-p') {
      const wanted = args[0] === '-p' && args.length > 1 ? args.slice(1).map(signalName) : undefined;
      const order = ['EXIT', ...Object.keys(SIGNALS), 'DEBUG', 'ERR', 'RETURN'];
      let out = '';
      const shown = sh.traps.size === 0 && sh.parentTraps !== undefined ? sh.parentTraps : sh.traps;
      for (const name of order) {
        const action = shown.get(name);
        if (action === undefined) continue;
        if (wanted !== undefined && !wanted.includes(name)) continue;
        out += `trap -- ${quote(action)} ${display(name)}\n`;
      }
      await print(sh, out);
      return 0;
    }
    let action: string | undefined = args[0];
    let specs = args.slice(1);
    if (
      specs.length === 0 ||
      (signalName(action as string) !== undefined && /^[0-9]+$/.test(action as string))
    ) {
      // `trap INT` / `trap 0 1`: reset those signals.
      specs = args;
      action = undefined;
    }
    if (action === '-') action = undefined;
    let status = 0;
    for (const spec of specs) {
      const name = signalName(spec);
      if (name === undefined) {
        await complain(sh, 'trap', `${spec}: invalid signal specification`);
        status = 1;
        continue;
      }
      if (action === undefined) sh.traps.delete(name);
      else sh.traps.set(name, action);
    }
    return status;
  },
};
