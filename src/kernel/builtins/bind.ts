/**
 * `bind`: readline's key bindings as bash keeps them in a shell without line editing (warned about
 * on every call, as bash does): the functions (`-l`), their bindings (`-p`, `-P`, `-q`, `-u`,
 * `-r`, `"keyseq": function`), macros (`-s`, `-S`), shell commands (`-x`, `-X`), variables (`-v`,
 * `-V`, `set name value`), per keymap (`-m`). The defaults are bash 5.2's emacs keymap.
 * @module
 */
import { writeStderr } from '../exec/messages.js';
import type { Shell } from '../runtime/shell.js';
import { READLINE_FUNCTIONS, READLINE_VARIABLES } from './bind-data.js';
import { complain, print } from './support.js';
import type { Builtin } from './types.js';

const USAGE =
  'bind [-lpsvPSVX] [-m keymap] [-f filename] [-q name] [-u name] [-r keyseq] [-x keyseq:shell-command] [keyseq:readline-function or readline-command]';

const FUNCTION_NAMES: ReadonlySet<string> = new Set(READLINE_FUNCTIONS.map((f) => f[0]));

interface Keymap {
  /** Key sequence (as written by `bind -p`) to what it does. */
  readonly keys: Map<string, { readonly kind: 'function' | 'macro' | 'command'; readonly value: string }>;
}

interface ReadlineState {
  readonly keymaps: Map<string, Keymap>;
  readonly variables: Map<string, string>;
}

const KEYMAP_ALIASES: Readonly<Record<string, string>> = {
  emacs: 'emacs',
  'emacs-standard': 'emacs',
  'emacs-meta': 'emacs',
  'emacs-ctlx': 'emacs',
  vi: 'vi',
  'vi-command': 'vi',
  'vi-move': 'vi',
  'vi-insert': 'vi-insert',
};

const states = new WeakMap<object, ReadlineState>();

/** The readline state of the shell's process (shared by its subshells). */
function stateOf(sh: Shell): ReadlineState {
  const key = sh.rt.shells.get(sh.rootPid) ?? sh;
  let s = states.get(key);
  if (s === undefined) {
    const emacs: Keymap = { keys: new Map() };
    for (const [name, keys] of READLINE_FUNCTIONS)
      for (const k of keys) emacs.keys.set(k, { kind: 'function', value: name });
    s = {
      keymaps: new Map([
        ['emacs', emacs],
        ['vi', { keys: new Map() }],
        ['vi-insert', { keys: new Map() }],
      ]),
      variables: new Map(READLINE_VARIABLES),
    };
    states.set(key, s);
  }
  return s;
}

/** Key sequences sorted as readline walks its keymap (by the bytes they stand for). */
function sortedKeys(keys: string[]): string[] {
  return keys.sort((a, b) => {
    const x = keyBytes(a);
    const y = keyBytes(b);
    for (let i = 0; i < Math.min(x.length, y.length); i += 1)
      if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
    return x.length - y.length;
  });
}

function keyBytes(seq: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < seq.length; i += 1) {
    if (seq.startsWith('\\C-', i)) {
      out.push((seq.charCodeAt(i + 3) & 0x1f) >>> 0);
      i += 3;
    } else if (seq.startsWith('\\e', i)) {
      out.push(27);
      i += 1;
    } else if (seq[i] === '\\' && i + 1 < seq.length) {
      out.push(seq.charCodeAt(i + 1));
      i += 1;
    } else out.push(seq.charCodeAt(i));
  }
  return out;
}

function keysFor(map: Keymap, fn: string): string[] {
  const keys: string[] = [];
  for (const [k, v] of map.keys) if (v.kind === 'function' && v.value === fn) keys.push(k);
  return sortedKeys(keys);
}

/** `"\C-x": rest` → key and rest, or `undefined` when there is no terminator. */
function splitBinding(text: string): { key: string; rest: string } | undefined {
  const t = text.trimStart();
  if (t.startsWith('"')) {
    let i = 1;
    while (i < t.length && t[i] !== '"') i += t[i] === '\\' ? 2 : 1;
    const key = t.slice(1, i);
    const after = t.slice(i + 1).replace(/^\s*:?\s*/, '');
    if (i >= t.length) return undefined;
    return { key, rest: after };
  }
  const colon = t.indexOf(':');
  if (colon === -1) return undefined;
  return { key: t.slice(0, colon).trim(), rest: t.slice(colon + 1).trim() };
}

export const bind: Builtin = {
  name: 'bind',
  synopsis: USAGE,
  help: 'Set readline key bindings and variables (kept, but no line editing runs here): -l functions, -p/-P bindings, -v/-V variables, -s/-S macros, -x/-X shell commands, -q, -u, -r, -m keymap.',
  async run({ sh, argv }) {
    await complain(sh, 'bind', 'warning: line editing not enabled');
    const state = stateOf(sh);
    let keymapName = 'emacs';
    const actions: { readonly flag: string; readonly arg?: string }[] = [];
    const bindings: string[] = [];
    for (let i = 1; i < argv.length; i += 1) {
      const a = argv[i] as string;
      if (a === '--') {
        bindings.push(...argv.slice(i + 1));
        break;
      }
      if (!a.startsWith('-') || a === '-') {
        bindings.push(a);
        continue;
      }
      for (let j = 1; j < a.length; j += 1) {
        const c = a[j] as string;
        if ('lpsvPSVX'.includes(c)) actions.push({ flag: c });
        else if ('mfqurx'.includes(c)) {
          const arg = j + 1 < a.length ? a.slice(j + 1) : argv[++i];
          if (arg === undefined) {
            await complain(sh, 'bind', `-${c}: option requires an argument`);
            await writeStderr(sh, `bind: usage: ${USAGE}\n`);
            return 2;
          }
          if (c === 'm') keymapName = arg;
          else actions.push({ flag: c, arg });
          break;
        } else {
          await complain(sh, 'bind', `-${c}: invalid option`);
          await writeStderr(sh, `bind: usage: ${USAGE}\n`);
          return 2;
        }
      }
    }
    const mapKey = KEYMAP_ALIASES[keymapName];
    if (mapKey === undefined) {
      await complain(sh, 'bind', `\`${keymapName}': invalid keymap name`);
      return 1;
    }
    const map = state.keymaps.get(mapKey) as Keymap;
    let status = 0;
    for (const { flag, arg } of actions) {
      switch (flag) {
        case 'l':
          await print(sh, READLINE_FUNCTIONS.map((f) => `${f[0]}\n`).join(''));
          break;
        case 'p':
        case 'P': {
          let out = flag === 'p' ? '\n' : '';
          for (const [fn] of READLINE_FUNCTIONS) {
            const keys = keysFor(map, fn);
            if (flag === 'p')
              out +=
                keys.length === 0 ? `# ${fn} (not bound)\n` : keys.map((k) => `"${k}": ${fn}\n`).join('');
            else
              out +=
                keys.length === 0
                  ? `${fn} is not bound to any keys\n`
                  : `${fn} can be found on ${keys.map((k) => `"${k}"`).join(', ')}.\n`;
          }
          await print(sh, out);
          break;
        }
        case 'v':
        case 'V': {
          let out = '';
          for (const [name, value] of [...state.variables].sort((a, b) =>
            a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0,
          ))
            out += flag === 'v' ? `set ${name} ${value}\n` : `${name} is set to \`${value}'\n`;
          await print(sh, out);
          break;
        }
        case 's':
        case 'S':
        case 'X': {
          const kind = flag === 'X' ? 'command' : 'macro';
          let out = '';
          for (const k of sortedKeys([...map.keys].filter(([, v]) => v.kind === kind).map(([k]) => k))) {
            const v = map.keys.get(k)?.value ?? '';
            out += flag === 'S' ? `${k} outputs ${v}\n` : `"${k}": "${v}"\n`;
          }
          await print(sh, out);
          break;
        }
        case 'q': {
          const fn = arg as string;
          if (!FUNCTION_NAMES.has(fn)) {
            await complain(sh, 'bind', `\`${fn}': unknown function name`);
            status = 1;
            break;
          }
          const keys = keysFor(map, fn);
          if (keys.length === 0) {
            await print(sh, `${fn} is not bound to any keys.\n`);
            status = 1;
          } else await print(sh, `${fn} can be invoked via ${keys.map((k) => `"${k}"`).join(', ')}.\n`);
          break;
        }
        case 'u': {
          const fn = arg as string;
          if (!FUNCTION_NAMES.has(fn)) {
            await complain(sh, 'bind', `\`${fn}': unknown function name`);
            status = 1;
            break;
          }
          for (const k of keysFor(map, fn)) map.keys.delete(k);
          break;
        }
        case 'r':
          map.keys.delete((arg as string).replace(/^"(.*)"$/s, '$1'));
          break;
        case 'x': {
          const b = splitBinding(arg as string);
          if (b === undefined) {
            await complain(sh, 'bind', `${arg}: missing colon separator`);
            status = 1;
            break;
          }
          map.keys.set(b.key, { kind: 'command', value: b.rest.replace(/^"(.*)"$/s, '$1') });
          break;
        }
        case 'f': {
          let text = '';
          try {
            const { resolvePath } = await import('../runtime/paths.js');
            const { decodeBytes } = await import('../../commands/byte-text.js');
            text = decodeBytes(await sh.rt.fs.readFile(resolvePath(sh.cwd, arg as string)));
          } catch {
            await complain(sh, 'bind', `${arg}: cannot read: No such file or directory`);
            status = 1;
            break;
          }
          for (const line of text.split('\n')) await applyLine(sh, state, map, line);
          break;
        }
      }
    }
    for (const b of bindings) await applyLine(sh, state, map, b);
    return status;
  },
};

/** One inputrc line: `set name value`, or `"keyseq": function` / `"keyseq": "macro"`. */
async function applyLine(sh: Shell, state: ReadlineState, map: Keymap, line: string): Promise<boolean> {
  const t = line.trim();
  if (t === '' || t.startsWith('#')) return true;
  const set = /^set\s+(\S+)\s+(.*)$/.exec(t);
  if (set !== null) {
    state.variables.set(set[1] as string, (set[2] as string).trim());
    return true;
  }
  const b = splitBinding(t);
  if (b === undefined) {
    await writeStderr(sh, `readline: ${t}: no key sequence terminator\n`);
    return false;
  }
  if (b.rest.startsWith('"'))
    map.keys.set(b.key, { kind: 'macro', value: b.rest.replace(/^"(.*)"$/s, '$1') });
  else map.keys.set(b.key, { kind: 'function', value: b.rest });
  return true;
}
