/**
 * The one home of the checksum commands' file logic (GNU coreutils 9.1's digest.c, shared by
 * `md5sum` .. `sha512sum`, `b2sum` and `cksum`): hashing an input as it is read, the lines they
 * print (GNU's, BSD's `--tag` form, `-z`, names escaped with a leading backslash), and `-c`:
 * parsing a list line as GNU's split_3 does and checking every file it names, with GNU's reports,
 * closing warnings and statuses.
 * @module
 */
import { decodeBytes, encodeText } from '../byte-text.js';
import type { CommandContext } from '../command.js';
import { quoteName } from '../gnu-quote.js';
import { LineReader } from '../line-reader.js';
import { printError } from '../text/cli.js';
import { errorText, isInputError, openInput } from '../text/input.js';
import type { TextOutput } from '../text/output.js';
import { DIGEST_ALGORITHMS, type DigestAlgorithm, tagWithLength } from './digests.js';

/** The digest text of one input, or the reason it could not be read. */
export async function digestOf(
  ctx: CommandContext,
  a: DigestAlgorithm,
  bits: number,
  name: string,
): Promise<string | Error> {
  const opened = await openInput(ctx, name);
  if (!opened.ok) return new Error(errorText(opened.error));
  const hasher = a.create(bits);
  try {
    for (;;) {
      const chunk = await opened.input.reader.read();
      if (chunk === null) break;
      hasher.update(chunk);
      await ctx.cooperate();
    }
  } catch (error) {
    if (!isInputError(error)) throw error;
    return new Error(errorText(error));
  } finally {
    await opened.input.close();
  }
  return hasher.finish();
}

/** GNU's escaping of a name in a checksum line: `\\`, `\n` and `\r`, flagged by a leading backslash. */
export function escapeName(name: string): { readonly text: string; readonly escaped: boolean } {
  if (!/[\\\n\r]/.test(name)) return { text: name, escaped: false };
  return { text: name.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r'), escaped: true };
}

function unescapeName(text: string): string | undefined {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (c === '\0') return undefined;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = text[i + 1];
    if (next === '\\') out += '\\';
    else if (next === 'n') out += '\n';
    else if (next === 'r') out += '\r';
    else return undefined;
    i += 1;
  }
  return out;
}

export interface RecordStyle {
  /** BSD's `TAG (NAME) = HASH`, else `HASH  NAME`. */
  readonly tagged: boolean;
  /** `*` before the name (`-b`). */
  readonly binary: boolean;
  /** NUL-terminated, names not escaped (`-z`). */
  readonly zero: boolean;
}

/** One output line for `name`'s `digest`. */
export function formatRecord(
  a: DigestAlgorithm,
  bits: number,
  digest: string,
  name: string,
  style: RecordStyle,
): Uint8Array {
  const { text, escaped } = style.zero ? { text: name, escaped: false } : escapeName(name);
  const record = style.tagged
    ? `${escaped ? '\\' : ''}${tagWithLength(a, bits)} (${text}) = ${digest}`
    : `${escaped ? '\\' : ''}${digest} ${style.binary ? '*' : ' '}${text}`;
  return encodeText(`${record}${style.zero ? '\0' : '\n'}`);
}

interface ListEntry {
  readonly algorithm: DigestAlgorithm;
  readonly bits: number;
  readonly digest: string;
  readonly name: string;
}

const isWhite = (c: string | undefined): boolean => c === ' ' || c === '\t';
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);
const MAX_TAG_LENGTH = Math.max(...DIGEST_ALGORITHMS.map((a) => a.tag.length));

/** The lines of one list, parsed as GNU's split_3 does (it keeps state across lines). */
class ListParser {
  /** The tag `-c`'s messages name: the fixed algorithm's, or for `cksum` the last one a line named. */
  current: DigestAlgorithm;
  /** -1 undecided, 1 when the list uses the one-space `HASH NAME` form, 0 when it uses GNU's. */
  private bsdReversed = -1;

  constructor(
    private readonly fixed: DigestAlgorithm | undefined,
    initial: DigestAlgorithm,
    /** cksum's and b2sum's tag syntax: `TAG-BITS`, or one separator after the tag. */
    private readonly lengthInTag: boolean,
  ) {
    this.current = initial;
  }

  parse(s: string): ListEntry | undefined {
    let i = 0;
    while (isWhite(s[i])) i += 1;
    let escaped = false;
    if (s[i] === '\\') {
      escaped = true;
      i += 1;
    }
    let a = this.fixed;
    if (a === undefined) {
      // cksum without -a: the tag says which algorithm; untagged lines and older sums are refused.
      let end = i;
      while (
        end - i <= MAX_TAG_LENGTH &&
        end < s.length &&
        !isWhite(s[end]) &&
        s[end] !== '-' &&
        s[end] !== '('
      )
        end += 1;
      const found = DIGEST_ALGORITHMS.find((x) => x.tag === s.slice(i, end));
      if (found === undefined || found.legacy) return undefined;
      this.current = found;
      a = found;
    }
    let bits = a.bits;
    if (s.startsWith(a.tag, i)) {
      i += a.tag.length;
      if (this.lengthInTag || a.variableLength) {
        const after = s[i];
        if (after !== '(') i += 1;
        if (after === '-') {
          const m = /^\d+/.exec(s.slice(i));
          const n = m === null ? Number.NaN : Number(m[0]);
          if (!(n > 0 && n <= a.bits && n % 8 === 0)) return undefined;
          i += (m as RegExpExecArray)[0].length;
          bits = n;
        }
      }
      if (s[i] === ' ') i += 1;
      if (s[i] !== '(') return undefined;
      return this.bsdSplit(a, bits, s.slice(i + 1), escaped);
    }
    const start = i;
    let hexLength = bits / 4;
    if (a.variableLength) {
      let n = 0;
      while (isHex(s[start + n])) n += 1;
      if (n < 2 || n % 2 !== 0 || n > a.bits / 4) return undefined;
      hexLength = n;
      bits = n * 4;
    }
    i += hexLength;
    if (!isWhite(s[i])) return undefined;
    const digest = s.slice(start, i);
    for (const c of digest) if (!isHex(c)) return undefined;
    i += 1;
    if (s.length - i === 1 || (s[i] !== ' ' && s[i] !== '*')) {
      // Not mixed with GNU's form, so a renamed file with a leading space cannot pass for one.
      if (this.bsdReversed === 0) return undefined;
      this.bsdReversed = 1;
    } else if (this.bsdReversed !== 1) {
      this.bsdReversed = 0;
      i += 1;
    }
    const name = escaped ? unescapeName(s.slice(i)) : s.slice(i);
    if (name === undefined) return undefined;
    return { algorithm: a, bits, digest: digest.toLowerCase(), name };
  }

  /** The rest of `TAG (NAME) = HASH` after the parenthesis: the name runs to the last `)`. */
  private bsdSplit(a: DigestAlgorithm, bits: number, s: string, escaped: boolean): ListEntry | undefined {
    const close = s.lastIndexOf(')');
    if (close === -1) return undefined;
    const name = escaped ? unescapeName(s.slice(0, close)) : s.slice(0, close);
    if (name === undefined) return undefined;
    let i = close + 1;
    while (isWhite(s[i])) i += 1;
    if (s[i] !== '=') return undefined;
    i += 1;
    while (isWhite(s[i])) i += 1;
    const digest = s.slice(i);
    if (digest.length !== bits / 4) return undefined;
    for (const c of digest) if (!isHex(c)) return undefined;
    return { algorithm: a, bits, digest: digest.toLowerCase(), name };
  }
}

export interface CheckOptions {
  readonly ignoreMissing: boolean;
  readonly quiet: boolean;
  readonly status: boolean;
  readonly strict: boolean;
  readonly warn: boolean;
}

/** `-c`'s options from the set of option keys given. */
export function checkOptionsFrom(on: ReadonlySet<string>): CheckOptions {
  return {
    ignoreMissing: on.has('ignore-missing'),
    quiet: on.has('quiet'),
    status: on.has('status'),
    strict: on.has('strict'),
    warn: on.has('warn'),
  };
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/**
 * `-c` over one list: every file it names is hashed and reported (`NAME: OK`, `NAME: FAILED`,
 * `NAME: FAILED open or read`); resolves with the list's status (0 or 1).
 */
export async function checkList(
  ctx: CommandContext,
  command: string,
  algorithms: {
    readonly fixed: DigestAlgorithm | undefined;
    readonly initial: DigestAlgorithm;
    /** cksum's parsing of tags (`MD5-64 (a) = ...` checks the first 64 bits, as GNU does). */
    readonly lengthInTag?: boolean;
  },
  o: CheckOptions,
  listName: string,
  out: TextOutput,
): Promise<number> {
  const shown = quoteName(listName === '-' ? 'standard input' : listName);
  const opened = await openInput(ctx, listName);
  if (!opened.ok) {
    await out.flush();
    await printError(ctx, `${command}: ${quoteName(listName)}: ${errorText(opened.error)}\n`);
    return 1;
  }
  const parser = new ListParser(algorithms.fixed, algorithms.initial, algorithms.lengthInTag === true);
  let misformatted = 0;
  let failedOpen = 0;
  let mismatched = 0;
  let properlyFormatted = false;
  let matched = false;
  let lineNumber = 0;
  const say = async (text: string): Promise<void> => {
    if (o.status) return;
    out.put(encodeText(text));
    if (out.full) await out.flush();
  };
  const reader = new LineReader(opened.input.reader);
  try {
    for (;;) {
      const l = await reader.next();
      if (l === null) break;
      lineNumber += 1;
      const text = decodeBytes(l).replace(/\r$/, '');
      // Comments and empty lines are skipped, not counted as improperly formatted.
      if (text.startsWith('#') || text === '') continue;
      const entry = parser.parse(text);
      if (entry === undefined || (listName === '-' && entry.name === '-')) {
        misformatted += 1;
        if (o.warn) {
          await out.flush();
          await printError(
            ctx,
            `${command}: ${shown}: ${lineNumber}: improperly formatted ${parser.current.tag} checksum line\n`,
          );
        }
        continue;
      }
      properlyFormatted = true;
      const digest = await digestOf(ctx, entry.algorithm, entry.bits, entry.name);
      // The report escapes a name only when it holds a newline (GNU's needs_escape).
      const { text: label, escaped } = entry.name.includes('\n')
        ? escapeName(entry.name)
        : { text: entry.name, escaped: false };
      const prefix = escaped ? '\\' : '';
      if (digest instanceof Error) {
        if (o.ignoreMissing && digest.message === 'No such file or directory') continue;
        failedOpen += 1;
        await out.flush();
        await printError(ctx, `${command}: ${quoteName(entry.name)}: ${digest.message}\n`);
        await say(`${prefix}${label}: FAILED open or read\n`);
        continue;
      }
      // A tag's length shorter than the algorithm's compares that many leading bits (GNU's loop).
      if (digest.slice(0, entry.digest.length) === entry.digest) {
        matched = true;
        if (!o.quiet) await say(`${prefix}${label}: OK\n`);
      } else {
        mismatched += 1;
        await say(`${prefix}${label}: FAILED\n`);
      }
    }
  } catch (error) {
    if (!isInputError(error)) throw error;
    await out.flush();
    await printError(ctx, `${command}: ${quoteName(listName)}: ${errorText(error)}\n`);
    return 1;
  } finally {
    await opened.input.close();
  }
  await out.flush();
  if (!properlyFormatted) {
    await printError(ctx, `${command}: ${shown}: no properly formatted checksum lines found\n`);
    return 1;
  }
  let warnings = '';
  if (!o.status) {
    if (misformatted > 0)
      warnings += `${command}: WARNING: ${plural(misformatted, 'line is', 'lines are')} improperly formatted\n`;
    if (failedOpen > 0)
      warnings += `${command}: WARNING: ${plural(failedOpen, 'listed file', 'listed files')} could not be read\n`;
    if (mismatched > 0)
      warnings += `${command}: WARNING: ${plural(mismatched, 'computed checksum', 'computed checksums')} did NOT match\n`;
  }
  if (o.ignoreMissing && !matched) warnings += `${command}: ${shown}: no file was verified\n`;
  if (warnings !== '') await printError(ctx, warnings);
  return matched && mismatched === 0 && failedOpen === 0 && (!o.strict || misformatted === 0) ? 0 : 1;
}
