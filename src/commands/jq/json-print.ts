/**
 * JSON text exactly as jq prints it: two-space (or `--indent n`, `--tab`) pretty printing, compact
 * `-c`, `-S` key sorting, `-a` ASCII escapes, `-C` colours with jq's byte sequence, jq's string
 * escapes (`\u007f`, lowercase hex) and number text. Iterative, so a 10,000-deep value prints
 * without exhausting the stack; deeper than that prints `<skipped: too deep>` as jq does.
 * @module
 */
import { formatNumber } from './number-text.js';
import { BigNum, compareStrings, type JqObject, type Value } from './value.js';

/** jq's MAX_PRINT_DEPTH. */
export const MAX_PRINT_DEPTH = 10000;

export interface PrintOptions {
  /** Spaces per level; 0 prints compactly. */
  readonly indent: number;
  /** Indent with one tab per level (pretty even when `indent` is 0). */
  readonly tab: boolean;
  readonly sortKeys: boolean;
  readonly ascii: boolean;
  /** Colour escapes, or `null` for none. */
  readonly colors: Colors | null;
}

/** The eight colour slots of `JQ_COLORS`, as full escape sequences. */
export interface Colors {
  readonly null: string;
  readonly false: string;
  readonly true: string;
  readonly number: string;
  readonly string: string;
  readonly array: string;
  readonly object: string;
  readonly field: string;
}

const ESC = '\u001b[';
const RESET = `${ESC}0m`;

/** jq 1.7.1's defaults. */
export const DEFAULT_COLORS: Colors = colorsFrom([
  '0;90',
  '0;39',
  '0;39',
  '0;39',
  '0;32',
  '1;39',
  '1;39',
  '34;1',
]);

function colorsFrom(parts: readonly string[]): Colors {
  const c = parts.map((p) => `${ESC}${p}m`);
  return {
    null: c[0] as string,
    false: c[1] as string,
    true: c[2] as string,
    number: c[3] as string,
    string: c[4] as string,
    array: c[5] as string,
    object: c[6] as string,
    field: c[7] as string,
  };
}

/**
 * Colours from a `JQ_COLORS` value (`1;30:0;39:...`): the given slots replace the defaults; a
 * malformed value leaves the defaults (jq warns and ignores it), returned as `undefined`.
 */
export function parseJqColors(spec: string): Colors | undefined {
  const parts = spec.split(':');
  if (parts.length > 8 || parts.some((p) => !/^[0-9;]*$/.test(p) || p.length > 12)) return undefined;
  const defaults = ['0;90', '0;39', '0;39', '0;39', '0;32', '1;39', '1;39', '34;1'];
  for (let i = 0; i < parts.length; i += 1) defaults[i] = parts[i] as string;
  return colorsFrom(defaults);
}

export const COMPACT: PrintOptions = { indent: 0, tab: false, sortKeys: false, ascii: false, colors: null };

/** `tojson` / `tostring` text: compact, keys in insertion order. */
export function toJsonText(v: Value): string {
  if (typeof v === 'string') return quoteString(v, false);
  if (typeof v === 'number' || v instanceof BigNum) return formatNumber(v);
  if (v === null) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
  return printValue(v, COMPACT);
}

const NEEDS_ESCAPE = /["\\\u0000-\u001f\u007f]/;
const NEEDS_ESCAPE_ASCII = /["\\\u0000-\u001f\u007f-\uffff]/;

/** A JSON string literal as jq writes it. */
export function quoteString(s: string, ascii: boolean): string {
  if (!(ascii ? NEEDS_ESCAPE_ASCII : NEEDS_ESCAPE).test(s)) return `"${s}"`;
  let out = '"';
  let run = 0;
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    let esc: string | undefined;
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x7f) {
      switch (c) {
        case 0x22:
          esc = '\\"';
          break;
        case 0x5c:
          esc = '\\\\';
          break;
        case 0x08:
          esc = '\\b';
          break;
        case 0x0c:
          esc = '\\f';
          break;
        case 0x0a:
          esc = '\\n';
          break;
        case 0x0d:
          esc = '\\r';
          break;
        case 0x09:
          esc = '\\t';
          break;
        default:
          esc = `\\u${c.toString(16).padStart(4, '0')}`;
      }
    } else if (ascii && c > 0x7e) {
      esc = `\\u${c.toString(16).padStart(4, '0')}`;
    }
    if (esc !== undefined) {
      if (i > run) out += s.slice(run, i);
      out += esc;
      run = i + 1;
    }
  }
  if (run < s.length) out += s.slice(run);
  return `${out}"`;
}

interface Frame {
  readonly kind: 'array' | 'object';
  readonly items: readonly Value[];
  readonly keys: readonly string[] | undefined;
  index: number;
  readonly depth: number;
}

/** Print one value. */
export function printValue(root: Value, opts: PrintOptions): string {
  const pretty = opts.indent > 0 || opts.tab;
  const unit = opts.tab ? '\t' : ' '.repeat(opts.indent);
  const colors = opts.colors;
  const parts: string[] = [];
  let buf = '';
  const indentCache: string[] = [''];
  const indentOf = (n: number): string => {
    let s = indentCache[n];
    if (s === undefined) {
      s = unit.repeat(n);
      indentCache[n] = s;
    }
    return s;
  };
  const stack: Frame[] = [];

  /** Write a scalar, or open a container (pushing a frame). */
  const emit = (v: Value, depth: number): void => {
    if (depth > MAX_PRINT_DEPTH) {
      buf += '<skipped: too deep>';
      return;
    }
    if (v === null) {
      buf += colors ? `${colors.null}null${RESET}` : 'null';
    } else if (v === true) {
      buf += colors ? `${colors.true}true${RESET}` : 'true';
    } else if (v === false) {
      buf += colors ? `${colors.false}false${RESET}` : 'false';
    } else if (typeof v === 'number' || v instanceof BigNum) {
      buf += colors ? `${colors.number}${formatNumber(v)}${RESET}` : formatNumber(v);
    } else if (typeof v === 'string') {
      buf += colors ? `${colors.string}${quoteString(v, opts.ascii)}${RESET}` : quoteString(v, opts.ascii);
    } else if (Array.isArray(v)) {
      if (v.length === 0) {
        buf += colors ? `${colors.array}[]${RESET}` : '[]';
        return;
      }
      buf += colors ? `${colors.array}[` : '[';
      stack.push({ kind: 'array', items: v, keys: undefined, index: 0, depth });
    } else {
      const o = v as JqObject;
      if (o.size === 0) {
        buf += colors ? `${colors.object}{}${RESET}` : '{}';
        return;
      }
      buf += colors ? `${colors.object}{` : '{';
      if (pretty) buf += `\n${indentOf(depth + 1)}`;
      const keys = opts.sortKeys ? [...o.keys()].sort(compareStrings) : [...o.keys()];
      const items = keys.map((k) => o.get(k) as Value);
      stack.push({ kind: 'object', items, keys, index: 0, depth });
    }
  };

  emit(root, 0);
  while (stack.length > 0) {
    if (buf.length > 65536) {
      parts.push(buf);
      buf = '';
    }
    const f = stack[stack.length - 1] as Frame;
    const color = colors === null ? '' : f.kind === 'array' ? colors.array : colors.object;
    if (f.index === f.items.length) {
      stack.pop();
      if (pretty) buf += `\n${indentOf(f.depth)}`;
      buf += f.kind === 'array' ? `${color}]` : `${color}}`;
      if (colors) buf += RESET;
      if (colors && stack.length > 0) {
        const parent = stack[stack.length - 1] as Frame;
        buf += parent.kind === 'array' ? colors.array : colors.object;
      }
      continue;
    }
    const i = f.index;
    f.index += 1;
    if (f.kind === 'array') {
      if (i > 0) buf += ',';
      if (pretty) buf += `\n${indentOf(f.depth + 1)}`;
    } else {
      if (i > 0) buf += pretty ? `,\n${indentOf(f.depth + 1)}` : ',';
      if (colors) buf += `${RESET}${colors.field}`;
      buf += quoteString((f.keys as readonly string[])[i] as string, opts.ascii);
      if (colors) buf += `${RESET}${color}`;
      buf += pretty ? ': ' : ':';
      if (colors) buf += RESET;
    }
    const child = f.items[i] as Value;
    const before = stack.length;
    emit(child, f.depth + 1);
    if (colors && stack.length === before) buf += color;
  }
  if (parts.length === 0) return buf;
  parts.push(buf);
  return parts.join('');
}
