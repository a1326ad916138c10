/**
 * GNU sed's script parser (compile.c's grammar and messages): addresses, `!`, blocks, labels,
 * the one-line and classic `a i c`, `s` with every flag, `y`, file commands. Errors say where,
 * as GNU does: `-e expression #1, char 5: unterminated `s' command`.
 * @module
 */
import { compileRegex, RegexSyntaxError } from '../../regex/index.js';
import type { Address, CommandBody, ReplacementPart, SedCommand, SedRegex, SedScript } from './script.js';

/** A piece of the script: an `-e` expression or a `-f` file. */
export interface ScriptPiece {
  readonly text: string;
  /** `-e` expressions are numbered from 1; a file is named. */
  readonly source:
    | { readonly kind: 'expression'; readonly index: number }
    | { readonly kind: 'file'; readonly name: string };
}

export interface ParseOptions {
  readonly extended: boolean;
  readonly sandbox: boolean;
}

/** A bad script or usage: sed prints `sed: MESSAGE` and exits `status`. */
export class SedError extends Error {
  constructor(
    message: string,
    readonly status = 1,
  ) {
    super(message);
    this.name = 'SedError';
  }
}

const SIMPLE = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F']);
const ONE_ADDRESS = new Set(['q', 'Q']);

export function parseScript(pieces: readonly ScriptPiece[], options: ParseOptions): SedScript {
  return new Parser(pieces, options).run();
}

class Parser {
  private readonly src: string;
  private pos = 0;
  private readonly starts: number[] = [];
  private readonly commands: SedCommand[] = [];
  private readonly blocks: number[] = [];
  private readonly writeFiles: string[] = [];

  constructor(
    private readonly pieces: readonly ScriptPiece[],
    private readonly o: ParseOptions,
  ) {
    let at = 0;
    for (const p of pieces) {
      this.starts.push(at);
      at += p.text.length + 1;
    }
    this.src = pieces.map((p) => p.text).join('\n');
  }

  private fail(message: string, at = this.pos): never {
    let k = this.starts.length - 1;
    while (k > 0 && (this.starts[k] as number) > Math.max(at - 1, 0)) k -= 1;
    const piece = this.pieces[k] as ScriptPiece;
    const within = at - (this.starts[k] as number);
    if (piece.source.kind === 'file') {
      const line = this.src.slice(this.starts[k], at).split('\n').length;
      throw new SedError(`file ${piece.source.name} line ${line}: ${message}`);
    }
    throw new SedError(`-e expression #${piece.source.index}, char ${within}: ${message}`);
  }

  private peek(): string | undefined {
    return this.src[this.pos];
  }

  private next(): string | undefined {
    const c = this.src[this.pos];
    if (c !== undefined) this.pos += 1;
    return c;
  }

  private skipSpaces(): void {
    while (this.pos < this.src.length && /[ \t]/.test(this.src[this.pos] as string)) this.pos += 1;
  }

  run(): SedScript {
    // GNU sed 4.9 turns on -n for any first script that starts with `#n` (`#nr` included),
    // wider than POSIX's `#n` alone on the first line.
    const quiet = this.src.startsWith('#n');
    for (;;) {
      this.skipSeparators();
      if (this.pos >= this.src.length) break;
      this.command();
    }
    if (this.blocks.length > 0) {
      this.pos = 0;
      this.failAtZero("unmatched `{'");
    }
    this.resolveLabels();
    return { commands: this.commands, quietFromScript: quiet, writeFiles: this.writeFiles };
  }

  private failAtZero(message: string): never {
    const piece = this.pieces[0] as ScriptPiece;
    if (piece.source.kind === 'file') throw new SedError(`file ${piece.source.name} line 0: ${message}`);
    throw new SedError(`-e expression #${piece.source.index}, char 0: ${message}`);
  }

  private skipSeparators(): void {
    while (this.pos < this.src.length && /[ \t\n;]/.test(this.src[this.pos] as string)) this.pos += 1;
  }

  private command(): void {
    const a1 = this.address(true);
    let a2: Address | undefined;
    this.skipSpaces();
    if (a1 !== undefined && this.peek() === ',') {
      this.pos += 1;
      this.skipSpaces();
      a2 = this.address(false);
      if (a2 === undefined) {
        if (this.pos < this.src.length) this.pos += 1;
        this.fail("unexpected `,'");
      }
    }
    this.skipSpaces();
    let negate = false;
    while (this.peek() === '!') {
      if (negate) this.fail("multiple `!'s");
      negate = true;
      this.pos += 1;
      this.skipSpaces();
    }
    const name = this.next();
    if (name === undefined) this.fail('missing command');
    if (a1?.kind === 'zero' && a2?.kind !== 'regex') this.fail('invalid usage of line address 0');
    const hasAddress = a1 !== undefined;
    if (a2 !== undefined && ONE_ADDRESS.has(name)) this.fail('command only uses one address');
    const body = this.body(name, hasAddress);
    const cmd: SedCommand = { a1, a2, negate, body, active: false, rangeEnd: 0 };
    this.commands.push(cmd);
    if (body.name === '{') this.blocks.push(this.commands.length - 1);
    if (body.name === '}') {
      const open = this.blocks.pop();
      if (open === undefined) this.fail("unexpected `}'");
      ((this.commands[open] as SedCommand).body as { end: number }).end = this.commands.length - 1;
    }
  }

  private body(name: string, hasAddress: boolean): CommandBody {
    if (SIMPLE.has(name)) {
      this.endOfCommand();
      return { name } as CommandBody;
    }
    switch (name) {
      case '{':
        return { name: '{', end: -1 };
      case '}':
        if (hasAddress) this.fail("`}' doesn't want any addresses");
        this.endOfCommand();
        return { name: '}' };
      case '#':
        if (hasAddress) this.fail("comments don't accept any addresses");
        this.toEndOfLine();
        return { name: '#' };
      case ':': {
        if (hasAddress) this.fail(": doesn't want any addresses");
        const label = this.label();
        if (label === '') this.fail('":" lacks a label');
        return { name: ':', label };
      }
      case 'b':
      case 't':
      case 'T':
        return { name, label: this.label(), target: -1 };
      case 'a':
      case 'i':
      case 'c':
        return { name, text: this.text() };
      case 'l':
      case 'q':
      case 'Q': {
        this.skipSpaces();
        const m = /^\d+/.exec(this.src.slice(this.pos));
        if (m !== null) this.pos += m[0].length;
        this.endOfCommand();
        if (name === 'l') return { name, width: m === null ? undefined : Number(m[0]) };
        return { name, status: m === null ? 0 : Number(m[0]) & 0xff };
      }
      case 'r':
      case 'R':
      case 'w':
      case 'W': {
        if (this.o.sandbox) this.fail('e/r/w commands disabled in sandbox mode');
        const file = this.fileName();
        if (name === 'w' || name === 'W') this.writeFiles.push(file);
        return { name, file };
      }
      case 's':
        return this.substitute();
      case 'y':
        return this.transliterate();
      case 'e':
        this.fail('e command is not supported (sed runs in-process)');
        break;
      case 'v': {
        const version = this.label();
        if (version !== '' && !versionAtMost(version, [4, 9]))
          this.fail(
            'expected newer version of sed',
            this.pos - (this.pos <= this.src.length && this.src[this.pos - 1] === '\n' ? 1 : 0),
          );
        return { name: '#' };
      }
      default:
        this.pos -= 1;
        this.pos += 1;
        this.fail(`unknown command: \`${name}'`);
    }
    return { name: '}' };
  }

  /** After a command: spaces, then `;`, newline, `#`, `}` or the end. */
  private endOfCommand(): void {
    this.skipSpaces();
    const c = this.peek();
    if (c === undefined || c === ';' || c === '\n') {
      if (c !== undefined) this.pos += 1;
      return;
    }
    if (c === '#' || c === '}') return;
    this.pos += 1;
    this.fail('extra characters after command');
  }

  private toEndOfLine(): void {
    const nl = this.src.indexOf('\n', this.pos);
    this.pos = nl === -1 ? this.src.length : nl + 1;
  }

  private label(): string {
    this.skipSpaces();
    let label = '';
    while (this.pos < this.src.length) {
      const c = this.src[this.pos] as string;
      if (c === '\n' || c === ';') break;
      label += c;
      this.pos += 1;
    }
    if (this.peek() !== undefined) this.pos += 1;
    return label.replace(/[ \t]+$/, '');
  }

  private fileName(): string {
    this.skipSpaces();
    const nl = this.src.indexOf('\n', this.pos);
    const end = nl === -1 ? this.src.length : nl;
    const file = this.src.slice(this.pos, end);
    this.pos = nl === -1 ? end : end + 1;
    if (file === '') this.fail('missing filename in r/R/w/W commands');
    return file;
  }

  /** The text of `a`, `i`, `c`: GNU's one-line form or the classic `a\` form. */
  private text(): string {
    this.skipSpaces();
    if (this.peek() === '\\') {
      this.pos += 1;
      if (this.peek() === '\n') this.pos += 1;
    } else if (this.pos >= this.src.length || this.peek() === '\n') {
      this.fail("expected \\ after `a', `c' or `i'");
    }
    let out = '';
    while (this.pos < this.src.length) {
      const c = this.src[this.pos] as string;
      if (c === '\n') {
        this.pos += 1;
        break;
      }
      if (c === '\\') {
        const d = this.src[this.pos + 1];
        this.pos += 2;
        if (d === undefined) break;
        out += d === '\n' ? '\n' : textEscape(d);
        continue;
      }
      out += c;
      this.pos += 1;
    }
    return out;
  }

  private address(first: boolean): Address | undefined {
    const s = this.src;
    const c = this.peek();
    if (c === undefined) return undefined;
    if (/\d/.test(c)) {
      const m = /^\d+/.exec(s.slice(this.pos)) as RegExpExecArray;
      this.pos += m[0].length;
      const n = Number(m[0]);
      if (first && this.peek() === '~') {
        this.pos += 1;
        const k = /^\d*/.exec(s.slice(this.pos))?.[0] ?? '';
        this.pos += k.length;
        return { kind: 'step', first: n, step: Number(k || '0') };
      }
      if (n === 0 && first) return { kind: 'zero' };
      if (n === 0 && !first) this.fail('invalid usage of line address 0');
      return { kind: 'line', n };
    }
    if (!first && (c === '+' || c === '~')) {
      this.pos += 1;
      const k = /^\d+/.exec(s.slice(this.pos))?.[0];
      if (k === undefined) this.fail('expected newer version of sed');
      this.pos += k.length;
      return c === '+' ? { kind: 'plus', n: Number(k) } : { kind: 'multiple', n: Number(k) };
    }
    if (c === '$') {
      this.pos += 1;
      return { kind: 'last' };
    }
    if (c === '/' || c === '\\') {
      this.pos += 1;
      let delim = '/';
      if (c === '\\') {
        const d = this.next();
        if (d === undefined || d === '\n' || d === '\\') this.fail("unexpected `,'");
        delim = d;
      }
      const body = this.delimited(delim, true);
      if (body === undefined) this.fail('unterminated address regex');
      let ignoreCase = false;
      let multiline = false;
      for (;;) {
        const f = this.peek();
        if (f === 'I') ignoreCase = true;
        else if (f === 'M') multiline = true;
        else break;
        this.pos += 1;
      }
      return { kind: 'regex', ...this.regex(body, ignoreCase, multiline) };
    }
    return undefined;
  }

  /**
   * Text up to an unescaped `delim` (consumed). `\delim` becomes `delim`; in a regex `\n` becomes
   * a newline. Undefined when the text ends first (or at a raw newline in a regex).
   */
  private delimited(delim: string, regex: boolean): string | undefined {
    let out = '';
    for (;;) {
      const c = this.next();
      if (c === undefined) return undefined;
      if (c === delim) return out;
      if (c === '\n' && regex) return undefined;
      if (c === '\\') {
        const d = this.next();
        if (d === undefined) return undefined;
        if (d === delim) out += delim;
        else if (d === 'n' && regex) out += '\n';
        else out += `\\${d}`;
        continue;
      }
      out += c;
    }
  }

  private regex(body: string, ignoreCase: boolean, multiline: boolean): SedRegex {
    if (body === '') return { regex: null };
    try {
      return {
        regex: compileRegex(body, {
          syntax: this.o.extended ? 'ere' : 'bre',
          dialect: 'sed',
          ignoreCase,
          multiline,
          sedEscapes: true,
        }),
      };
    } catch (e) {
      if (!(e instanceof RegexSyntaxError)) throw e;
      if (e.origin === 'dfa') throw new SedError(e.message, 4);
      this.fail(e.message);
    }
  }

  private substitute(): CommandBody {
    const delim = this.next();
    if (delim === undefined || delim === '\n' || delim === '\\') this.fail("unterminated `s' command");
    const pattern = this.delimited(delim, true);
    if (pattern === undefined) this.fail("unterminated `s' command");
    const rawReplacement = this.delimited(delim, false);
    if (rawReplacement === undefined) this.fail("unterminated `s' command");
    let global = false;
    let nth = 0;
    let print = false;
    let ignoreCase = false;
    let multiline = false;
    let writeFile: string | undefined;
    for (;;) {
      const f = this.peek();
      if (f === 'g') {
        if (global) {
          this.pos += 1;
          this.fail("multiple `g' options to `s' command");
        }
        global = true;
      } else if (f === 'p') {
        if (print) {
          this.pos += 1;
          this.fail("multiple `p' options to `s' command");
        }
        print = true;
      } else if (f === 'i' || f === 'I') ignoreCase = true;
      else if (f === 'm' || f === 'M') multiline = true;
      else if (f === 'e') {
        this.pos += 1;
        this.fail('e command is not supported (sed runs in-process)');
      } else if (f !== undefined && /\d/.test(f)) {
        const m = /^\d+/.exec(this.src.slice(this.pos)) as RegExpExecArray;
        if (nth !== 0) {
          this.pos += m[0].length;
          this.fail("multiple number options to `s' command");
        }
        nth = Number(m[0]);
        this.pos += m[0].length;
        if (nth === 0) this.fail("number option to `s' command may not be zero");
        continue;
      } else if (f === 'w') {
        this.pos += 1;
        if (this.o.sandbox) this.fail('e/r/w commands disabled in sandbox mode');
        writeFile = this.fileName();
        this.writeFiles.push(writeFile);
        break;
      } else {
        if (f === undefined || f === ';' || f === '\n' || f === '}' || f === '#' || f === ' ' || f === '\t')
          break;
        this.pos += 1;
        this.fail("unknown option to `s'");
      }
      this.pos += 1;
    }
    const re = this.regex(pattern, ignoreCase, multiline);
    const replacement = parseReplacement(rawReplacement);
    const groups = re.regex === null ? 9 : re.regex.groupCount;
    for (const part of replacement)
      if (part.kind === 'group' && part.n > groups)
        this.fail(`invalid reference \\${part.n} on \`s' command's RHS`);
    if (writeFile === undefined) this.endOfCommand();
    const plain = replacement.every((p) => p.kind === 'text')
      ? replacement.map((p) => (p as { text: string }).text).join('')
      : undefined;
    return {
      name: 's',
      ...re,
      replacement,
      global,
      nth: nth === 0 ? 1 : nth,
      print,
      writeFile,
      plainReplacement: plain,
    };
  }

  private transliterate(): CommandBody {
    const delim = this.next();
    if (delim === undefined || delim === '\n' || delim === '\\') this.fail("unterminated `y' command");
    const read = (): string[] => {
      const out: string[] = [];
      for (;;) {
        const cp = this.src.codePointAt(this.pos);
        if (cp === undefined) this.fail("unterminated `y' command");
        const c = String.fromCodePoint(cp);
        this.pos += c.length;
        if (c === delim) return out;
        if (c === '\\') {
          const d = this.next();
          if (d === undefined) this.fail("unterminated `y' command");
          if (d === delim) out.push(delim);
          else if (d === '\\') out.push('\\');
          else if (d === 'n') out.push('\n');
          else if (d === '\n') out.push('\n');
          else out.push(textEscape(d));
          continue;
        }
        out.push(c);
      }
    };
    const from = read();
    const to = read();
    if (from.length !== to.length) this.fail("strings for `y' command are different lengths");
    this.endOfCommand();
    const map = new Map<string, string>();
    from.forEach((f, i) => {
      if (!map.has(f)) map.set(f, to[i] as string);
    });
    return { name: 'y', map };
  }

  private resolveLabels(): void {
    const labels = new Map<string, number>();
    this.commands.forEach((c, i) => {
      if (c.body.name === ':') labels.set(c.body.label, i);
    });
    for (const c of this.commands) {
      const b = c.body;
      if (b.name === 'b' || b.name === 't' || b.name === 'T') {
        if (b.label === '') b.target = this.commands.length;
        else {
          const t = labels.get(b.label);
          if (t === undefined) throw new SedError(`can't find label for jump to \`${b.label}'`, 4);
          b.target = t;
        }
      }
    }
  }
}

/** Whether `version` (`4.2`, `4.2.1`) names a sed no newer than `max`; false when malformed. */
function versionAtMost(version: string, max: readonly number[]): boolean {
  if (!/^\d+(\.\d+)*$/.test(version)) return false;
  const parts = version.split('.').map(Number);
  for (let i = 0; i < Math.max(parts.length, max.length); i += 1) {
    const a = parts[i] ?? 0;
    const b = max[i] ?? 0;
    if (a !== b) return a < b;
  }
  return true;
}

/** A byte as decoded text: ASCII as itself, a byte past 0x7f as its escape (U+DC80..U+DCFF). */
function byteChar(b: number): string {
  return String.fromCharCode(b < 0x80 ? b : 0xdc00 + b);
}

/** sed's escapes in text (`a`, `i`, `c`, `y`, replacements): `\t` is a tab, `\q` is `q`. */
function textEscape(d: string): string {
  const map: Record<string, string> = { a: '\x07', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };
  return map[d] ?? d;
}

/** An `s` replacement: `&`, `\1`..`\9`, case conversions, escapes. */
export function parseReplacement(raw: string): ReplacementPart[] {
  const parts: ReplacementPart[] = [];
  let text = '';
  const flush = () => {
    if (text !== '') parts.push({ kind: 'text', text });
    text = '';
  };
  for (let i = 0; i < raw.length; i += 1) {
    const c = raw[i] as string;
    if (c === '&') {
      flush();
      parts.push({ kind: 'group', n: 0 });
      continue;
    }
    if (c !== '\\' || i + 1 >= raw.length) {
      text += c;
      continue;
    }
    i += 1;
    const d = raw[i] as string;
    if (d >= '0' && d <= '9') {
      flush();
      parts.push({ kind: 'group', n: d.charCodeAt(0) - 48 });
    } else if (d === 'L' || d === 'U' || d === 'E' || d === 'l' || d === 'u') {
      flush();
      parts.push({ kind: 'case', op: d });
    } else if (d === '\n') text += '\n';
    else if (d === 'c' && i + 1 < raw.length) {
      i += 1;
      const x = (raw[i] as string).toUpperCase().charCodeAt(0);
      text += String.fromCharCode(x ^ 0x40);
    } else if ((d === 'd' || d === 'o' || d === 'x') && i + 1 < raw.length) {
      const radix = d === 'd' ? 10 : d === 'o' ? 8 : 16;
      const max = d === 'x' ? 2 : 3;
      let digits = '';
      while (
        digits.length < max &&
        i + 1 < raw.length &&
        !Number.isNaN(Number.parseInt(raw[i + 1] as string, radix))
      ) {
        i += 1;
        digits += raw[i];
      }
      text += digits === '' ? d : byteChar(Number.parseInt(digits, radix) & 0xff);
    } else text += textEscape(d);
  }
  flush();
  return parts;
}
