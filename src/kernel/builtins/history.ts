/**
 * Command history: `history` (list, `-c`, `-d`, `-a`, `-n`, `-r`, `-w`, `-s`, `-p`) and `fc`
 * (`-l` listings with `-n`/`-r` and first/last, `-s` re-execution). An interactive shell records
 * each command it reads and writes `HISTFILE` when it ends.
 * @module
 */
import { decodeBytes, encodeText } from '../../commands/byte-text.js';
import { runSource } from '../exec/source-loop.js';
import { discard } from '../runtime/errors.js';
import { resolvePath } from '../runtime/paths.js';
import type { Shell } from '../runtime/shell.js';
import { getVar } from '../runtime/vars.js';
import { complain, print, usageLine } from './support.js';
import type { Builtin } from './types.js';

/** One shell's history list. */
export class History {
  entries: string[] = [];
  /** Entries already in the file (`history -a` appends the rest). */
  saved = 0;
  /** Lines of the file already read (`history -n` reads the rest). */
  fileLines = 0;

  copy(): History {
    const h = new History();
    h.entries = [...this.entries];
    h.saved = this.saved;
    h.fileLines = this.fileLines;
    return h;
  }

  add(line: string): void {
    const text = line.replace(/\n+$/, '');
    if (text.trim() === '') return;
    this.entries.push(text);
  }
}

function historyFile(sh: Shell): string | undefined {
  const file = getVar(sh, 'HISTFILE');
  if (file === undefined || file === '') return undefined;
  return resolvePath(sh.cwd, file);
}

async function readLines(sh: Shell, path: string): Promise<string[] | undefined> {
  try {
    const text = decodeBytes(await sh.rt.fs.readFile(path));
    return text.split('\n').filter((l, i, all) => l !== '' || i < all.length - 1);
  } catch {
    return undefined;
  }
}

export const history: Builtin = {
  name: 'history',
  synopsis: 'history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]',
  help: 'Show or change the command history: -c clears it, -d N deletes entry N, -a/-w write HISTFILE, -n/-r read it.',
  async run({ sh, argv }) {
    const h = sh.history;
    const args = argv.slice(1);
    const first = args[0];
    if (first === '-c') {
      h.entries = [];
      h.saved = 0;
      return 0;
    }
    if (first === '-d') {
      const arg = args[1];
      const n = arg === undefined ? Number.NaN : Number.parseInt(arg, 10);
      const index = n < 0 ? h.entries.length + n : n - 1;
      if (arg === undefined || !/^-?[0-9]+$/.test(arg) || index < 0 || index >= h.entries.length) {
        await complain(sh, 'history', `${arg ?? ''}: history position out of range`);
        return 1;
      }
      h.entries.splice(index, 1);
      return 0;
    }
    if (first === '-s') {
      h.entries.pop();
      h.add(args.slice(1).join(' '));
      return 0;
    }
    if (first === '-p') {
      h.entries.pop();
      await print(
        sh,
        args
          .slice(1)
          .map((a) => `${a}\n`)
          .join(''),
      );
      return 0;
    }
    if (first === '-a' || first === '-w' || first === '-r' || first === '-n') {
      const path = args[1] !== undefined ? resolvePath(sh.cwd, args[1]) : historyFile(sh);
      if (path === undefined) return 0;
      if (first === '-r' || first === '-n') {
        const lines = await readLines(sh, path);
        if (lines === undefined) return 1;
        const fresh = first === '-n' ? lines.slice(h.fileLines) : lines;
        h.entries.push(...fresh.filter((l) => l !== ''));
        h.fileLines = lines.length;
        return 0;
      }
      const lines = first === '-w' ? h.entries : h.entries.slice(h.saved);
      const data = encodeText(lines.map((l) => `${l}\n`).join(''));
      try {
        await sh.rt.fs.writeFile(path, data, { mode: first === '-w' ? 'truncate' : 'append' });
      } catch {
        await complain(sh, 'history', `${args[1] ?? getVar(sh, 'HISTFILE')}: cannot create`);
        return 1;
      }
      h.saved = h.entries.length;
      return 0;
    }
    if (first?.startsWith('-') && first !== '--') {
      await complain(sh, 'history', `${first.slice(0, 2)}: invalid option`);
      await usageLine(
        sh,
        'history',
        'history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]',
      );
      return 2;
    }
    // bash abandons the rest of the line here (its history builtin jumps to the top level).
    if (args.length > 1) throw discard('history: too many arguments');
    // bash reads the count as a number, so `history +5` is five.
    const count = first === undefined ? h.entries.length : Number.parseInt(first, 10);
    if (first !== undefined && !/^\+?[0-9]+$/.test(first)) {
      await complain(sh, 'history', `${first}: numeric argument required`);
      return 1;
    }
    const start = Math.max(0, h.entries.length - count);
    let out = '';
    for (let i = start; i < h.entries.length; i += 1)
      out += `${String(i + 1).padStart(5)}  ${h.entries[i]}\n`;
    await print(sh, out);
    return 0;
  },
};

export const fc: Builtin = {
  name: 'fc',
  synopsis: 'fc [-e ename] [-lnr] [first] [last] or fc -s [pat=rep] [command]',
  help: 'List (-l) or re-run (-s) commands of the history.',
  async run({ sh, argv }) {
    const h = sh.history;
    // The `fc` command itself is not part of what it lists or re-runs.
    const current =
      h.entries.length > 0 && /^\s*fc\b/.test(h.entries[h.entries.length - 1] as string)
        ? h.entries.pop()
        : undefined;
    try {
      let list = false;
      let numbers = true;
      let reverse = false;
      let reexec = false;
      const rest: string[] = [];
      const args = argv.slice(1);
      for (let i = 0; i < args.length; i += 1) {
        const a = args[i] as string;
        if (/^-[lnrs]+$/.test(a)) {
          if (a.includes('l')) list = true;
          if (a.includes('n')) numbers = false;
          if (a.includes('r')) reverse = true;
          if (a.includes('s')) reexec = true;
        } else if (a === '-e') i += 1;
        else rest.push(a);
      }
      const n = h.entries.length;
      const resolve = (spec: string | undefined, fallback: number): number => {
        if (spec === undefined) return fallback;
        if (/^-?[0-9]+$/.test(spec)) {
          const v = Number.parseInt(spec, 10);
          return v < 0 ? n + v + 1 : v === 0 ? n : v;
        }
        for (let i = n - 1; i >= 0; i -= 1) if ((h.entries[i] as string).startsWith(spec)) return i + 1;
        return -1;
      };
      if (reexec) {
        let pattern: [string, string] | undefined;
        let spec: string | undefined;
        for (const r of rest) {
          const eq = r.indexOf('=');
          if (eq > 0 && pattern === undefined) pattern = [r.slice(0, eq), r.slice(eq + 1)];
          else spec = r;
        }
        const index = resolve(spec, n);
        const entry = h.entries[index - 1];
        if (entry === undefined) {
          await complain(sh, 'fc', 'no command found');
          return 1;
        }
        const command = pattern === undefined ? entry : entry.split(pattern[0]).join(pattern[1]);
        await print(sh, `${command}\n`);
        h.add(command);
        return runSource(sh, command, { kind: 'eval', topLevel: false });
      }
      if (!list) {
        await complain(sh, 'fc', 'editing history is not available (use fc -l or fc -s)');
        return 1;
      }
      // bash's `fc -l` reads the first two operands and ignores the rest.
      if (n === 0) return 0;
      let first = resolve(rest[0], Math.max(1, n - 15));
      let last = resolve(rest[1], rest[0] === undefined ? n : rest[1] === undefined ? n : n);
      if (rest[0] !== undefined && rest[1] === undefined) last = n;
      if (first < 1 || last < 1) {
        await complain(sh, 'fc', 'history specification out of range');
        return 1;
      }
      let swap = false;
      if (first > last) {
        [first, last] = [last, first];
        swap = true;
      }
      const picked: [number, string][] = [];
      for (let i = first; i <= Math.min(last, n); i += 1) picked.push([i, h.entries[i - 1] as string]);
      if (reverse !== swap) picked.reverse();
      await print(sh, picked.map(([i, e]) => `${numbers ? i : ''}\t ${e}\n`).join(''));
      return 0;
    } finally {
      if (current !== undefined) h.entries.push(current);
    }
  },
};
