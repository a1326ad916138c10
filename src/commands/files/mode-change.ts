/**
 * Symbolic and octal modes as `chmod`, `mkdir -m`, `mkfifo -m` and `install` read them (gnulib's
 * `modechange`): `755`, `u+x`, `go-w`, `a=rX`, `u=g`, `+t`, comma-separated clauses; applied with
 * GNU's rules (`X` only for directories or files already executable, no who means "all, less the
 * umask", setuid/setgid kept on directories unless mentioned).
 * @module
 */

const S_ISUID = 0o4000;
const S_ISGID = 0o2000;
const S_ISVTX = 0o1000;
const S_IRWXU = 0o700;
const S_IRWXG = 0o070;
const S_IRWXO = 0o007;
const READ = 0o444;
const WRITE = 0o222;
const EXEC = 0o111;
const ALL = 0o7777;

/** The umask of the virtual shell's commands (the context carries none). */
export const DEFAULT_UMASK = 0o022;

type Flag = 'ordinary' | 'x-if-any-x' | 'copy';

interface Change {
  readonly op: '=' | '+' | '-';
  readonly flag: Flag;
  readonly affected: number;
  readonly value: number;
  readonly mentioned: number;
}

/** A compiled mode, or `undefined` when GNU would say `invalid mode`. */
export type ModeChange = readonly Change[];

/** Compile `text` (octal or symbolic). */
export function compileMode(text: string): ModeChange | undefined {
  if (text.length > 0 && text[0] !== undefined && text[0] >= '0' && text[0] < '8') {
    if (!/^[0-7]+$/.test(text)) return undefined;
    const octal = Number.parseInt(text, 8);
    if (octal > ALL) return undefined;
    const mentioned = text.length < 5 ? (octal & (S_ISUID | S_ISGID)) | S_ISVTX | 0o777 : ALL;
    return [{ op: '=', flag: 'ordinary', affected: ALL, value: octal, mentioned }];
  }
  const changes: Change[] = [];
  let p = 0;
  for (;;) {
    let affected = 0;
    for (; p < text.length; p += 1) {
      const c = text[p];
      if (c === 'u') affected |= S_ISUID | S_IRWXU;
      else if (c === 'g') affected |= S_ISGID | S_IRWXG;
      else if (c === 'o') affected |= S_ISVTX | S_IRWXO;
      else if (c === 'a') affected |= ALL;
      else break;
    }
    const startOp = text[p];
    if (startOp !== '=' && startOp !== '+' && startOp !== '-') return undefined;
    while (text[p] === '=' || text[p] === '+' || text[p] === '-') {
      const op = text[p] as '=' | '+' | '-';
      p += 1;
      let value = 0;
      let flag: Flag = 'copy';
      const c = text[p];
      if (c === 'u') {
        value = S_IRWXU;
        p += 1;
      } else if (c === 'g') {
        value = S_IRWXG;
        p += 1;
      } else if (c === 'o') {
        value = S_IRWXO;
        p += 1;
      } else {
        flag = 'ordinary';
        for (; p < text.length; p += 1) {
          const v = text[p];
          if (v === 'r') value |= READ;
          else if (v === 'w') value |= WRITE;
          else if (v === 'x') value |= EXEC;
          else if (v === 'X') flag = 'x-if-any-x';
          else if (v === 's') value |= S_ISUID | S_ISGID;
          else if (v === 't') value |= S_ISVTX;
          else break;
        }
      }
      changes.push({ op, flag, affected, value, mentioned: affected !== 0 ? affected & value : value });
    }
    if (p === text.length) return changes;
    if (text[p] !== ',') return undefined;
    p += 1;
  }
}

/** The mode `change` gives a file of mode `old` (`dir` for a directory); `bits` receives what it touched. */
export function applyMode(
  old: number,
  dir: boolean,
  umask: number,
  change: ModeChange,
): { mode: number; bits: number } {
  let mode = old & ALL;
  let bits = 0;
  for (const c of change) {
    const omit = (dir ? S_ISUID | S_ISGID : 0) & ~c.mentioned;
    let value = c.value;
    if (c.flag === 'copy') {
      value &= mode;
      value |= (value & READ ? READ : 0) | (value & WRITE ? WRITE : 0) | (value & EXEC ? EXEC : 0);
    } else if (c.flag === 'x-if-any-x') {
      if ((mode & EXEC) !== 0 || dir) value |= EXEC;
    }
    value &= (c.affected !== 0 ? c.affected : ~umask) & ~omit;
    if (c.op === '=') {
      const preserved = (c.affected !== 0 ? ~c.affected : umask) | omit;
      bits |= ALL & ~preserved;
      mode = (mode & preserved) | value;
    } else if (c.op === '+') {
      bits |= value;
      mode |= value;
    } else {
      bits |= value;
      mode &= ~value;
    }
  }
  return { mode: mode & ALL, bits };
}
