/**
 * `read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout]
 * [-u fd] [name ...]`: one line (or up to a delimiter, or a count) split by `IFS` as bash splits
 * it (the last name takes the rest), backslashes quoting unless `-r`, and nothing read past what
 * it consumed, so the next reader continues there.
 * @module
 */
import { decodeBytes } from '../../commands/byte-text.js';
import { describeVfsCode, isVfsError } from '../../vfs/filesystem.js';
import { readUntil } from '../exec/read-input.js';
import { CancelControl } from '../runtime/control.js';
import { ShellError } from '../runtime/errors.js';
import type { Shell } from '../runtime/shell.js';
import { assignArray, getVar, isValidName, setVar } from '../runtime/vars.js';
import { complain, OptionError, optionFailure, type ParsedOptions, parseOptions } from './support.js';
import type { Builtin } from './types.js';

const USAGE =
  'read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]';

interface Char {
  readonly c: string;
  /** Escaped by a backslash: never a separator. */
  readonly q: boolean;
}

export const read: Builtin = {
  name: 'read',
  synopsis: USAGE,
  help: 'Read a line from standard input and split it into fields by IFS: the first to the first NAME, ..., the rest to the last (REPLY when no name is given).',
  async run({ sh, argv }) {
    let parsed: ParsedOptions;
    try {
      parsed = parseOptions(argv.slice(1), 'ersa:d:i:n:N:p:t:u:');
    } catch (error) {
      if (error instanceof OptionError) return optionFailure(sh, 'read', error, USAGE);
      throw error;
    }
    const f = parsed.flags;
    const names = parsed.rest;
    const arrayName = f.get('a') as string | undefined;
    for (const name of arrayName === undefined ? names : [arrayName, ...names]) {
      if (!isValidName(name)) {
        await complain(sh, 'read', `\`${name}': not a valid identifier`);
        return 1;
      }
    }
    const fdText = (f.get('u') as string | undefined) ?? '0';
    if (!/^[0-9]+$/.test(fdText)) {
      await complain(sh, 'read', `${fdText}: invalid file descriptor specification`);
      return 1;
    }
    const fd = Number.parseInt(fdText, 10);
    const file = sh.fds.get(fd);
    if (file === undefined || !file.readable) {
      await complain(sh, 'read', `${fd}: invalid file descriptor: Bad file descriptor`);
      return 1;
    }
    const raw = f.has('r');
    const delimText = f.get('d') as string | undefined;
    const exact = f.get('N') as string | undefined;
    const count = exact ?? (f.get('n') as string | undefined);
    let maxChars: number | undefined;
    if (count !== undefined) {
      if (!/^[0-9]+$/.test(count)) {
        await complain(sh, 'read', `${count}: invalid number`);
        return 1;
      }
      maxChars = Number.parseInt(count, 10);
    }
    const delimiter =
      exact !== undefined
        ? -1
        : delimText === undefined
          ? 10
          : delimText === ''
            ? 0
            : delimText.charCodeAt(0) & 0xff;
    const timeoutText = f.get('t') as string | undefined;
    let timeoutMs: number | undefined;
    if (timeoutText !== undefined) {
      if (!/^[0-9]*\.?[0-9]+$/.test(timeoutText)) {
        await complain(sh, 'read', `${timeoutText}: invalid timeout specification`);
        return 1;
      }
      timeoutMs = Number.parseFloat(timeoutText) * 1000;
    }
    // Read, joining backslash-newline continuations unless -r; a backslash quotes the next
    // character (the delimiter too, which then does not end the read). `-n` counts the
    // characters that result.
    const chars: Char[] = [];
    let status = 0;
    let timedOut = false;
    let pendingBackslash = false;
    for (;;) {
      if (maxChars === 0) break;
      const readPromise = readUntil(file, delimiter, {
        limits: sh.rt.limits,
        maxChars: maxChars === undefined ? undefined : Math.max(1, maxChars - chars.length),
        // bash's read ignores NUL bytes.
        dropNul: true,
      });
      let r: Awaited<typeof readPromise>;
      try {
        if (timeoutMs !== undefined) {
          if (timeoutMs === 0) {
            // `read -t 0`: is input available? Nothing is consumed.
            return 0;
          }
          let timer: NodeJS.Timeout | undefined;
          const timeout = new Promise<'timeout'>((resolve) => {
            timer = setTimeout(() => resolve('timeout'), timeoutMs);
          });
          const won = await Promise.race([readPromise, timeout]);
          clearTimeout(timer);
          if (won === 'timeout') {
            timedOut = true;
            readPromise.catch(() => {});
            break;
          }
          r = won;
        } else r = await abortable(sh, readPromise);
      } catch (error) {
        if (!isVfsError(error)) throw error;
        await complain(sh, 'read', `read error: ${fd}: ${describeVfsCode(error.code)}`);
        return 1;
      }
      const text = decodeBytes(r.bytes);
      for (const c of text) {
        if (pendingBackslash) {
          pendingBackslash = false;
          if (c !== '\n') chars.push({ c, q: true });
          continue;
        }
        if (c === '\\' && !raw) {
          pendingBackslash = true;
          continue;
        }
        chars.push({ c, q: false });
      }
      if (pendingBackslash && r.delimited) {
        // The delimiter itself was quoted: it is data (a newline: a continuation), read on.
        pendingBackslash = false;
        if (delimiter !== 10) chars.push({ c: String.fromCharCode(delimiter), q: true });
        continue;
      }
      if (r.eof) {
        status = 1;
        break;
      }
      if (r.delimited) break;
      const full = maxChars !== undefined && chars.length >= maxChars && !pendingBackslash;
      if (full) break;
      if (maxChars !== undefined && r.bytes.length > 0) continue;
      // The input ended before the delimiter.
      status = 1;
      break;
    }
    if (timedOut) status = 142;
    const ifs = getVar(sh, 'IFS') ?? ' \t\n';
    try {
      if (arrayName !== undefined) {
        const fields = splitAll(chars, ifs);
        assignArray(
          sh,
          arrayName,
          fields.map((value) => ({ value })),
        );
        return status;
      }
      if (names.length === 0) {
        setVar(sh, 'REPLY', chars.map((c) => c.c).join(''));
        return status;
      }
      if (exact !== undefined) {
        // `-N`: the characters as read, no field splitting.
        names.forEach((name, i) => {
          setVar(sh, name, i === 0 ? chars.map((c) => c.c).join('') : '');
        });
        return status;
      }
      const values = splitInto(chars, ifs, names.length);
      names.forEach((name, i) => {
        setVar(sh, name, values[i] ?? '');
      });
    } catch (error) {
      if (error instanceof ShellError) {
        await complain(sh, 'read', error.message);
        return 1;
      }
      throw error;
    }
    return status;
  },
};

async function abortable<T>(sh: Shell, p: Promise<T>): Promise<T> {
  if (sh.signal.aborted) throw sh.signal.reason ?? new CancelControl('abort');
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(sh.signal.reason ?? new CancelControl('abort'));
    sh.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([p, aborted]);
  } finally {
    if (onAbort !== undefined) sh.signal.removeEventListener('abort', onAbort);
  }
}

const isWs = (c: string): boolean => c === ' ' || c === '\t' || c === '\n';

/** Split into `n` values: the last takes the rest of the line, as bash's `read` does. */
function splitInto(chars: readonly Char[], ifs: string, n: number): string[] {
  const sep = (ch: Char): boolean => !ch.q && ifs.includes(ch.c);
  const wsSep = (ch: Char): boolean => sep(ch) && isWs(ch.c);
  const out: string[] = [];
  let i = 0;
  const skipWs = (): void => {
    while (i < chars.length && wsSep(chars[i] as Char)) i += 1;
  };
  skipWs();
  for (let k = 0; k < n - 1; k += 1) {
    let field = '';
    while (i < chars.length && !sep(chars[i] as Char)) {
      field += (chars[i] as Char).c;
      i += 1;
    }
    out.push(field);
    // One delimiter: blanks, at most one non-blank separator, blanks.
    skipWs();
    if (i < chars.length && sep(chars[i] as Char) && !isWs((chars[i] as Char).c)) i += 1;
    skipWs();
  }
  // The rest, without trailing IFS blanks.
  let end = chars.length;
  while (end > i && wsSep(chars[end - 1] as Char)) end -= 1;
  const rest = chars.slice(i, end);
  // A rest that is one field followed by one separator loses the separator.
  let j = 0;
  while (j < rest.length && !sep(rest[j] as Char)) j += 1;
  let k = j;
  while (k < rest.length && wsSep(rest[k] as Char)) k += 1;
  if (k < rest.length && sep(rest[k] as Char) && !isWs((rest[k] as Char).c)) {
    k += 1;
    while (k < rest.length && wsSep(rest[k] as Char)) k += 1;
    if (k === rest.length) {
      out.push(
        rest
          .slice(0, j)
          .map((c) => c.c)
          .join(''),
      );
      return out;
    }
  }
  out.push(rest.map((c) => c.c).join(''));
  return out;
}

/** Split every field (for `-a`). */
function splitAll(chars: readonly Char[], ifs: string): string[] {
  const sep = (ch: Char): boolean => !ch.q && ifs.includes(ch.c);
  const fields: string[] = [];
  let i = 0;
  while (i < chars.length && sep(chars[i] as Char) && isWs((chars[i] as Char).c)) i += 1;
  while (i < chars.length) {
    let field = '';
    while (i < chars.length && !sep(chars[i] as Char)) {
      field += (chars[i] as Char).c;
      i += 1;
    }
    fields.push(field);
    while (i < chars.length && sep(chars[i] as Char) && isWs((chars[i] as Char).c)) i += 1;
    if (i < chars.length && sep(chars[i] as Char)) {
      i += 1;
      while (i < chars.length && sep(chars[i] as Char) && isWs((chars[i] as Char).c)) i += 1;
    }
  }
  return fields;
}
