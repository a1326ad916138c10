/**
 * `printf [-v var] format [arguments]`: every conversion of bash's printf (`d i o u x X e E f F g
 * G a A c s b q (fmt)T %`), flags, `*` widths and precisions, the format reused while arguments
 * remain, C's numeric parsing (`0x`, `0`, `'c`) with bash's errors. Widths count bytes, as
 * bash's do. A huge width (`%*s` with 2000000000) streams out in chunks instead of being built.
 * @module
 */
import { decodeBytes, encodeText } from '../../commands/byte-text.js';
import { checkpoint } from '../exec/checkpoint.js';
import { writeFd } from '../exec/io.js';
import { decodeEscapes } from '../expand/escapes.js';
import { backslashQuote } from '../expand/quote.js';
import type { Shell } from '../runtime/shell.js';
import { getVar, isValidName, rawKey, setElement, setVar } from '../runtime/vars.js';
import { ATTR_EXPORT } from '../state/variables.js';
import { byteChar } from '../syntax/word-parser.js';
import { strftime } from '../text/strftime.js';
import { complain, usageLine } from './support.js';
import type { Builtin } from './types.js';

const USAGE = 'printf [-v var] format [arguments]';
/** Output is written in pieces of this size (a huge padding never exists whole in memory). */
const CHUNK = 64 * 1024;

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

interface Spec {
  flags: string;
  width: number | undefined;
  precision: number | undefined;
  conv: string;
  timeFormat?: string;
}

class Output {
  readonly parts: Uint8Array[] = [];
  size = 0;
  /** Text not yet encoded: most output is short text pieces, encoded once per chunk, not per piece. */
  private pending = '';
  constructor(
    private readonly sh: Shell,
    private readonly toVar: boolean,
  ) {}

  async text(s: string): Promise<void> {
    if (s.length === 0) return;
    this.pending += s;
    if (this.pending.length >= CHUNK) this.settleText();
    if (this.size >= CHUNK) await this.flush();
  }

  /** Move the pending text into the byte parts (counting it against the budget). */
  private settleText(): void {
    if (this.pending === '') return;
    const b = encodeText(this.pending);
    this.pending = '';
    this.sh.rt.budget.string(this.toVar ? this.size + b.length : b.length);
    this.parts.push(b);
    this.size += b.length;
  }

  async bytes(b: Uint8Array): Promise<void> {
    if (b.length === 0) return;
    this.settleText();
    this.sh.rt.budget.string(this.size + b.length > 0 && this.toVar ? this.size + b.length : b.length);
    if (this.toVar) {
      this.parts.push(b);
      this.size += b.length;
      return;
    }
    this.parts.push(b);
    this.size += b.length;
    if (this.size >= CHUNK) await this.flush();
  }

  /** `n` copies of one byte, written in chunks. */
  async repeat(byte: number, n: number): Promise<void> {
    if (byte < 0x80 && n < CHUNK) {
      await this.text(String.fromCharCode(byte).repeat(n));
      return;
    }
    this.settleText();
    if (this.toVar) {
      this.sh.rt.budget.string(this.size + n);
      this.parts.push(new Uint8Array(n).fill(byte));
      this.size += n;
      return;
    }
    // A short pad (the common `%06d`) joins the pending output; only a huge one is written in
    // chunks with a checkpoint between them, so it never exists whole and the host keeps running.
    if (n < CHUNK) {
      this.parts.push(new Uint8Array(n).fill(byte));
      this.size += n;
      if (this.size >= CHUNK) await this.flush();
      return;
    }
    let left = n;
    const chunk = new Uint8Array(CHUNK).fill(byte);
    while (left > 0) {
      const k = Math.min(left, CHUNK);
      this.parts.push(k === chunk.length ? chunk : chunk.subarray(0, k));
      this.size += k;
      left -= k;
      await this.flush();
      await checkpoint(this.sh);
    }
  }

  async flush(): Promise<void> {
    if (this.toVar) return;
    this.settleText();
    if (this.parts.length === 0) return;
    const all = join(this.parts, this.size);
    this.parts.length = 0;
    this.size = 0;
    await writeFd(this.sh, 1, all);
  }

  value(): string {
    this.settleText();
    return decodeBytes(join(this.parts, this.size));
  }
}

function join(parts: readonly Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export const printf: Builtin = {
  name: 'printf',
  synopsis: USAGE,
  help: 'Write the ARGUMENTS under the control of FORMAT (as C printf, plus %b, %q and %(fmt)T); -v VAR assigns the output to VAR.',
  async run({ sh, argv }) {
    let i = 1;
    let target: string | undefined;
    while (i < argv.length) {
      const a = argv[i] as string;
      if (a === '--') {
        i += 1;
        break;
      }
      if (a === '-v') {
        target = argv[i + 1];
        if (target === undefined) {
          await complain(sh, 'printf', '-v: option requires an argument');
          await usageLine(sh, 'printf', USAGE);
          return 2;
        }
        i += 2;
        continue;
      }
      if (a.startsWith('-v') && a.length > 2) {
        target = a.slice(2);
        i += 1;
        continue;
      }
      if (a.startsWith('-') && a.length > 1) {
        await complain(sh, 'printf', `${a.slice(0, 2)}: invalid option`);
        await usageLine(sh, 'printf', USAGE);
        return 2;
      }
      break;
    }
    const format = argv[i];
    if (format === undefined) {
      await usageLine(sh, 'printf', USAGE);
      return 2;
    }
    if (target !== undefined && !isValidName(target.replace(/\[.*\]$/, ''))) {
      await complain(sh, 'printf', `\`${target}': not a valid identifier`);
      return 2;
    }
    const args = argv.slice(i + 1);
    const out = new Output(sh, target !== undefined);
    const state = { status: 0 };
    let argIndex = 0;
    for (;;) {
      const before = argIndex;
      const r = await render(sh, format, args, argIndex, out, state);
      if (r.stop || r.error) break;
      argIndex = r.next;
      if (!r.consumed || argIndex >= args.length || argIndex === before) break;
    }
    if (target !== undefined) {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]$/s.exec(target);
      if (m !== null) setElement(sh, m[1] as string, rawKey(sh, m[2] as string), out.value());
      else setVar(sh, target, out.value());
    } else await out.flush();
    return state.status;
  },
};

/** Render the format once from `args[start]`; returns where the arguments stopped. */
async function render(
  sh: Shell,
  format: string,
  args: readonly string[],
  start: number,
  out: Output,
  state: { status: number },
): Promise<{ next: number; consumed: boolean; stop: boolean; error: boolean }> {
  let a = start;
  let consumed = false;
  const nextArg = (): string | undefined => {
    consumed = true;
    const v = args[a];
    a += 1;
    return v;
  };
  let i = 0;
  let lit = '';
  const flushLit = async (): Promise<void> => {
    if (lit !== '') await out.text(lit);
    lit = '';
  };
  while (i < format.length) {
    const c = format[i] as string;
    if (c === '\\') {
      const { text, used } = formatEscape(format, i);
      lit += text;
      i += used;
      continue;
    }
    if (c !== '%') {
      lit += c;
      i += 1;
      continue;
    }
    if (format[i + 1] === '%') {
      lit += '%';
      i += 2;
      continue;
    }
    await flushLit();
    const parsed = parseSpec(format, i + 1);
    if (parsed === undefined) {
      const bad = format[i + 1] ?? '';
      await complain(
        sh,
        'printf',
        bad === '' ? "`%': missing format character" : `\`${bad}': invalid format character`,
      );
      state.status = 1;
      return { next: a, consumed, stop: true, error: true };
    }
    const spec = parsed.spec;
    i = parsed.end;
    if (spec.width === -1) {
      const w = toInteger(sh, nextArg() ?? '0', state);
      spec.width = Number(w);
      if (spec.width < 0) {
        spec.flags += '-';
        spec.width = -spec.width;
      }
    }
    if (spec.precision === -1) {
      const p = Number(toInteger(sh, nextArg() ?? '0', state));
      spec.precision = p < 0 ? undefined : p;
    }
    const arg = nextArg();
    const stop = await convert(sh, spec, arg, out, state);
    if (stop) return { next: a, consumed, stop: true, error: false };
  }
  await flushLit();
  return { next: a, consumed, stop: false, error: false };
}

/** An escape in the format string itself. */
function formatEscape(format: string, i: number): { text: string; used: number } {
  const d = format[i + 1];
  if (d === undefined) return { text: '\\', used: 1 };
  const simple: Record<string, string> = {
    n: '\n',
    t: '\t',
    r: '\r',
    a: '\x07',
    b: '\b',
    f: '\f',
    v: '\v',
    e: '\x1b',
    E: '\x1b',
    '\\': '\\',
    '"': '"',
    "'": "'",
    '?': '?',
  };
  if (simple[d] !== undefined) return { text: simple[d] as string, used: 2 };
  if (/[0-7]/.test(d)) {
    const m = /^[0-7]{1,3}/.exec(format.slice(i + 1)) as RegExpExecArray;
    return { text: byteChar(Number.parseInt(m[0], 8) & 0xff), used: 1 + m[0].length };
  }
  if (d === 'x') {
    const m = /^[0-9a-fA-F]{1,2}/.exec(format.slice(i + 2));
    if (m === null) return { text: '\\x', used: 2 };
    return { text: byteChar(Number.parseInt(m[0], 16)), used: 2 + m[0].length };
  }
  if (d === 'u' || d === 'U') {
    const m = (d === 'u' ? /^[0-9a-fA-F]{1,4}/ : /^[0-9a-fA-F]{1,8}/).exec(format.slice(i + 2));
    if (m === null) return { text: `\\${d}`, used: 2 };
    const cp = Number.parseInt(m[0], 16);
    return { text: cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd', used: 2 + m[0].length };
  }
  return { text: `\\${d}`, used: 2 };
}

function parseSpec(format: string, at: number): { spec: Spec; end: number } | undefined {
  let i = at;
  let flags = '';
  while (i < format.length && "-+ #0'".includes(format[i] as string)) {
    flags += format[i];
    i += 1;
  }
  let width: number | undefined;
  if (format[i] === '*') {
    width = -1;
    i += 1;
  } else {
    const m = /^[0-9]+/.exec(format.slice(i));
    if (m !== null) {
      width = Number.parseInt(m[0], 10);
      i += m[0].length;
    }
  }
  let precision: number | undefined;
  if (format[i] === '.') {
    i += 1;
    if (format[i] === '*') {
      precision = -1;
      i += 1;
    } else {
      const m = /^[0-9]*/.exec(format.slice(i)) as RegExpExecArray;
      precision = m[0] === '' ? 0 : Number.parseInt(m[0], 10);
      i += m[0].length;
    }
  }
  // Length modifiers are accepted and ignored.
  while (i < format.length && 'hlLjzt'.includes(format[i] as string)) i += 1;
  const conv = format[i];
  if (conv === undefined) return undefined;
  if (conv === '(') {
    const close = format.indexOf(')', i);
    if (close === -1 || format[close + 1] !== 'T') return undefined;
    return {
      spec: { flags, width, precision, conv: 'T', timeFormat: format.slice(i + 1, close) },
      end: close + 2,
    };
  }
  if (!'diouxXeEfFgGaAcsbqQ'.includes(conv)) return undefined;
  return { spec: { flags, width, precision, conv }, end: i + 1 };
}

/** Pad `text` (a number's ASCII text) to the width, as {@link emitPadded} does for bytes. */
async function emitPaddedText(out: Output, spec: Spec, text: string, zeroPad: boolean): Promise<void> {
  const fill = (spec.width ?? 0) - text.length;
  if (fill <= 0) return out.text(text);
  if (fill >= CHUNK) return emitPadded(out, spec, encodeText(text), zeroPad);
  if (spec.flags.includes('-')) return out.text(text + ' '.repeat(fill));
  if (!zeroPad) return out.text(' '.repeat(fill) + text);
  // Zeros go after the sign / prefix.
  const m = /^([+\- ]?(?:0[xX])?)(.*)$/s.exec(text) as RegExpExecArray;
  return out.text(`${m[1] as string}${'0'.repeat(fill)}${m[2] as string}`);
}

/** Pad `body` (bytes) to the width. */
async function emitPadded(out: Output, spec: Spec, body: Uint8Array, zeroPad = false): Promise<void> {
  const width = spec.width ?? 0;
  const fill = width - body.length;
  if (fill <= 0) {
    await out.bytes(body);
    return;
  }
  if (spec.flags.includes('-')) {
    await out.bytes(body);
    await out.repeat(32, fill);
    return;
  }
  if (zeroPad) {
    // Zeros go after the sign / prefix.
    const text = decodeBytes(body);
    const m = /^([+\- ]?(?:0[xX])?)(.*)$/s.exec(text) as RegExpExecArray;
    await out.text(m[1] as string);
    await out.repeat(48, fill);
    await out.text(m[2] as string);
    return;
  }
  await out.repeat(32, fill);
  await out.bytes(body);
}

async function convert(
  sh: Shell,
  spec: Spec,
  arg: string | undefined,
  out: Output,
  state: { status: number },
): Promise<boolean> {
  switch (spec.conv) {
    case 's':
    case 'q':
    case 'Q': {
      let text = arg ?? '';
      if (spec.conv !== 's') text = arg === undefined ? "''" : backslashQuote(text);
      let bytes = encodeText(text);
      if (spec.precision !== undefined && bytes.length > spec.precision)
        bytes = bytes.subarray(0, spec.precision);
      await emitPadded(out, spec, bytes);
      return false;
    }
    case 'b': {
      const d = decodeEscapes(arg ?? '', 'printf');
      let bytes = encodeText(d.text);
      if (spec.precision !== undefined && bytes.length > spec.precision)
        bytes = bytes.subarray(0, spec.precision);
      await emitPadded(out, spec, bytes);
      return d.stop;
    }
    case 'c': {
      const bytes = encodeText(arg ?? '');
      await emitPadded(out, spec, bytes.subarray(0, Math.min(1, bytes.length)));
      return false;
    }
    case 'T': {
      let epoch: number;
      const t = arg === undefined || arg === '' ? -1n : toInteger(sh, arg, state);
      if (t === -1n) epoch = sh.rt.now();
      else if (t === -2n) epoch = sh.rt.secondsBase;
      else epoch = Number(t) * 1000;
      const tzVar = sh.vars.find('TZ');
      const tz = tzVar !== undefined && tzVar.variable.attrs & ATTR_EXPORT ? getVar(sh, 'TZ') : undefined;
      let text = strftime(spec.timeFormat ?? '', epoch, tz);
      if (encodeText(text).length >= 128) text = '';
      let bytes = encodeText(text);
      if (spec.precision !== undefined && bytes.length > spec.precision)
        bytes = bytes.subarray(0, spec.precision);
      await emitPadded(out, spec, bytes);
      return false;
    }
    case 'd':
    case 'i': {
      const n = toInteger(sh, arg ?? '0', state);
      await emitPaddedText(out, spec, formatInteger(n, spec, 10, false), zero(spec));
      return false;
    }
    case 'o':
    case 'u':
    case 'x':
    case 'X': {
      let n = toInteger(sh, arg ?? '0', state, true);
      if (n < 0n) n = BigInt.asUintN(64, n);
      const base = spec.conv === 'o' ? 8 : spec.conv === 'u' ? 10 : 16;
      let text = formatInteger(n, spec, base, spec.conv === 'X');
      if (spec.flags.includes('#') && n !== 0n) {
        if (spec.conv === 'o' && !text.startsWith('0')) text = `0${text}`;
        if (spec.conv === 'x') text = `0x${text}`;
        if (spec.conv === 'X') text = `0X${text}`;
      }
      await emitPaddedText(out, spec, text, zero(spec));
      return false;
    }
    default: {
      const v = toFloat(sh, arg ?? '0', state);
      await emitPaddedText(out, spec, formatFloat(v, spec), zero(spec) && Number.isFinite(v));
      return false;
    }
  }
}

function zero(spec: Spec): boolean {
  return (
    spec.flags.includes('0') &&
    !spec.flags.includes('-') &&
    !('diouxX'.includes(spec.conv) && spec.precision !== undefined)
  );
}

function formatInteger(n: bigint, spec: Spec, base: number, upper: boolean): string {
  const neg = n < 0n;
  let digits = (neg ? -n : n).toString(base);
  if (upper) digits = digits.toUpperCase();
  if (spec.precision !== undefined) {
    if (spec.precision === 0 && n === 0n) digits = '';
    digits = digits.padStart(spec.precision, '0');
  }
  if (spec.flags.includes("'") && base === 10) digits = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = neg ? '-' : spec.flags.includes('+') ? '+' : spec.flags.includes(' ') ? ' ' : '';
  return sign + digits;
}

/** C's strtoimax with base detection, plus `'c`; reports bash's errors, returns what it read. */
function toInteger(sh: Shell, text: string, state: { status: number }, unsigned = false): bigint {
  const t = text;
  if (t.startsWith("'") || t.startsWith('"')) return BigInt(charCode(t.slice(1)));
  if (t === '') return 0n;
  const m = /^[ \t\n]*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)/.exec(t);
  if (m === null) {
    void complainSync(sh, `${text}: invalid number`);
    state.status = 1;
    return 0n;
  }
  const body = m[2] as string;
  let v = /^0[xX]/.test(body)
    ? BigInt(body)
    : body.length > 1 && body.startsWith('0')
      ? BigInt(`0o${body.slice(1)}`)
      : BigInt(body);
  if (unsigned) {
    // strtoumax: a negative number wraps, and the range ends at 2^64 - 1.
    if (v > UINT64_MAX) {
      void complainSync(sh, `warning: ${text}: Numerical result out of range`);
      v = UINT64_MAX;
    } else if (m[1] === '-') v = BigInt.asUintN(64, -v);
  } else {
    if (m[1] === '-') v = -v;
    if (v > INT64_MAX || v < INT64_MIN) {
      void complainSync(sh, `warning: ${text}: Numerical result out of range`);
      v = v > INT64_MAX ? INT64_MAX : INT64_MIN;
    }
  }
  if (m[0].length !== t.length) {
    void complainSync(sh, `${text}: invalid number`);
    state.status = 1;
  }
  return v;
}

const UINT64_MAX = (1n << 64n) - 1n;

/**
 * The number of the first character of `s` (`printf %d "'x"`): its code point when its bytes
 * form a UTF-8 sequence (even one above U+10FFFF, as the C library reads it), else its first byte.
 */
function charCode(s: string): number {
  if (s === '') return 0;
  const bytes = encodeText(s);
  const b0 = bytes[0] as number;
  const need = b0 >= 0xf0 && b0 <= 0xf7 ? 4 : b0 >= 0xe0 ? 3 : b0 >= 0xc2 && b0 < 0xe0 ? 2 : 1;
  if (b0 < 0x80 || need === 1 || bytes.length < need) return b0;
  let cp = b0 & (need === 2 ? 0x1f : need === 3 ? 0x0f : 0x07);
  for (let i = 1; i < need; i += 1) {
    const b = bytes[i] as number;
    if ((b & 0xc0) !== 0x80) return b0;
    cp = (cp << 6) | (b & 0x3f);
  }
  const min = need === 2 ? 0x80 : need === 3 ? 0x800 : 0x10000;
  return cp < min ? b0 : cp;
}

function toFloat(sh: Shell, text: string, state: { status: number }): number {
  if (text.startsWith("'") || text.startsWith('"'))
    return text.length > 1 ? (text.codePointAt(1) as number) : 0;
  const t = text.trim();
  const m =
    /^[+-]?(?:inf(?:inity)?|nan|0[xX][0-9a-fA-F]+(?:\.[0-9a-fA-F]*)?(?:[pP][+-]?[0-9]+)?|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)/i.exec(
      t,
    );
  if (m === null) {
    void complainSync(sh, `${text}: invalid number`);
    state.status = 1;
    return 0;
  }
  if (m[0].length !== t.length) {
    void complainSync(sh, `${text}: invalid number`);
    state.status = 1;
  }
  const s = m[0].toLowerCase();
  if (s.includes('inf')) return s.startsWith('-') ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  if (s.includes('nan')) return Number.NaN;
  if (/0x/.test(s)) return hexFloat(s);
  return Number.parseFloat(s);
}

function hexFloat(s: string): number {
  const m = /^([+-]?)0x([0-9a-f]*)(?:\.([0-9a-f]*))?(?:p([+-]?[0-9]+))?$/.exec(s);
  if (m === null) return Number.NaN;
  const int = Number.parseInt(m[2] || '0', 16);
  const frac = (m[3] ?? '').split('').reduce((acc, d, i) => acc + Number.parseInt(d, 16) / 16 ** (i + 1), 0);
  const v = (int + frac) * 2 ** Number(m[4] ?? 0);
  return m[1] === '-' ? -v : v;
}

/** C's %f %e %g %a for doubles. */
export function formatFloat(v: number, spec: Spec): string {
  const conv = spec.conv;
  const upper = conv === conv.toUpperCase();
  const sign =
    v < 0 || Object.is(v, -0) ? '-' : spec.flags.includes('+') ? '+' : spec.flags.includes(' ') ? ' ' : '';
  const a = Math.abs(v);
  if (!Number.isFinite(v)) {
    const t = Number.isNaN(v) ? 'nan' : 'inf';
    return (Number.isNaN(v) ? (spec.flags.includes('+') ? '+' : '') : sign) + (upper ? t.toUpperCase() : t);
  }
  const p = spec.precision ?? 6;
  let body: string;
  switch (conv.toLowerCase()) {
    case 'f':
      body = a.toFixed(Math.min(p, 100));
      if (p === 0 && spec.flags.includes('#')) body += '.';
      break;
    case 'e':
      body = expForm(a, p, spec.flags.includes('#'));
      break;
    case 'g': {
      const P = p === 0 ? 1 : p;
      const x = a === 0 ? 0 : Math.floor(Math.log10(a));
      const exp = a === 0 ? 0 : Number(a.toExponential(P - 1).split('e')[1]);
      void x;
      if (P > exp && exp >= -4) body = a.toFixed(Math.max(0, P - 1 - exp));
      else body = expForm(a, P - 1, spec.flags.includes('#'));
      if (!spec.flags.includes('#')) {
        body = body.replace(/(\.\d*?)0+(e|$)/, '$1$2').replace(/\.(e|$)/, '$1');
      }
      break;
    }
    default:
      body = hexForm(a, spec.precision);
  }
  if (upper) body = body.toUpperCase();
  return sign + body;
}

function expForm(a: number, p: number, hash: boolean): string {
  const [mant, exp] = a.toExponential(Math.min(p, 100)).split('e') as [string, string];
  const e = Number(exp);
  const m = p === 0 && hash ? `${mant}.` : mant;
  return `${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

function hexForm(a: number, precision: number | undefined): string {
  if (a === 0) return `0x0${precision ? `.${'0'.repeat(precision)}` : ''}p+0`;
  let e = Math.floor(Math.log2(a));
  let m = a / 2 ** e;
  if (m >= 2) {
    m /= 2;
    e += 1;
  }
  let hex = '';
  let frac = m - 1;
  const digits = precision ?? 13;
  for (let i = 0; i < digits; i += 1) {
    frac *= 16;
    const d = Math.floor(frac);
    hex += d.toString(16);
    frac -= d;
  }
  if (precision === undefined) hex = hex.replace(/0+$/, '');
  return `0x1${hex === '' ? '' : `.${hex}`}p${e < 0 ? '-' : '+'}${Math.abs(e)}`;
}

function complainSync(sh: Shell, message: string): Promise<void> {
  return complain(sh, 'printf', message);
}
