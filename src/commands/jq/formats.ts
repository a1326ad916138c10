/**
 * The `@format` string filters: `@text @json @html @uri @urid @csv @tsv @sh @base64 @base64d
 * @base32 @base32d`, with jq's escaping rules and error messages.
 * @module
 */
import { typeError } from './error-text.js';
import { JqError } from './errors.js';
import { toJsonText } from './json-print.js';
import { formatNumber } from './number-text.js';
import { BigNum, type Value } from './value.js';

/** `tostring`: strings as they are, anything else as compact JSON. */
export function toText(v: Value): string {
  return typeof v === 'string' ? v : toJsonText(v);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Apply `@name` to a value. */
export function applyFormat(name: string, v: Value): Value {
  switch (name) {
    case 'text':
      return toText(v);
    case 'json':
      return toJsonText(v);
    case 'html':
      return toText(v).replace(/[&<>'"]/g, (c) => HTML[c] as string);
    case 'uri':
      return uriEncode(toText(v));
    case 'urid':
      return uriDecode(toText(v));
    case 'csv':
      return row(v, 'csv');
    case 'tsv':
      return row(v, 'tsv');
    case 'sh':
      return shellQuote(v);
    case 'base64':
      return Buffer.from(encoder.encode(toText(v))).toString('base64');
    case 'base64d':
      return base64Decode(toText(v));
    case 'base32':
      return base32Encode(encoder.encode(toText(v)));
    case 'base32d':
      return base32Decode(toText(v));
    default:
      throw new JqError(`${name} is not a valid format`);
  }
}

const HTML: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  "'": '&apos;',
  '"': '&quot;',
};

const UNRESERVED = /[A-Za-z0-9\-_.~]/;

function uriEncode(s: string): string {
  let out = '';
  for (const b of encoder.encode(s)) {
    const c = String.fromCharCode(b);
    out += b < 128 && UNRESERVED.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function uriDecode(s: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    if (c === 37) {
      const hex = s.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw typeError(s, 'is not a valid uri encoding');
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      for (const b of encoder.encode(s[i] as string)) bytes.push(b);
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    throw typeError(s, 'is not a valid uri encoding');
  }
}

function row(v: Value, kind: 'csv' | 'tsv'): string {
  if (!Array.isArray(v)) throw typeError(v, `cannot be ${kind}-formatted, only an array can be`);
  const parts: string[] = [];
  for (const x of v) {
    if (x === null) parts.push('');
    else if (x === true || x === false) parts.push(String(x));
    else if (typeof x === 'number' || x instanceof BigNum) {
      parts.push(typeof x === 'number' && Number.isNaN(x) ? '' : formatNumber(x));
    } else if (typeof x === 'string') {
      parts.push(
        kind === 'csv'
          ? `"${x.replace(/"/g, '""')}"`
          : x.replace(/[\\\t\n\r]/g, (c) =>
              c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
            ),
      );
    } else throw typeError(x, `is not valid in a ${kind} row`);
  }
  return parts.join(kind === 'csv' ? ',' : '\t');
}

function shellQuote(v: Value): string {
  const items = Array.isArray(v) ? v : [v];
  const parts: string[] = [];
  for (const x of items) {
    if (typeof x === 'string') parts.push(`'${x.replace(/'/g, "'\\''")}'`);
    else if (Array.isArray(x) || x instanceof Map) throw typeError(x, 'can not be escaped for shell');
    else parts.push(toJsonText(x));
  }
  return parts.join(' ');
}

const B64 = /^[A-Za-z0-9+/]*$/;

function base64Decode(s: string): string {
  // jq ignores everything from the first '=' and rejects other characters.
  const eq = s.indexOf('=');
  const body = eq === -1 ? s : s.slice(0, eq);
  if (!B64.test(body)) throw typeError(s, 'is not valid base64 data');
  if (body.length % 4 === 1) throw typeError(s, 'trailing base64 byte found');
  return decoder.decode(Buffer.from(body, 'base64'));
}

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Encode(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 5) {
    const chunk = bytes.subarray(i, i + 5);
    let bits = 0n;
    for (let j = 0; j < 5; j += 1) bits = (bits << 8n) | BigInt(chunk[j] ?? 0);
    const n = Math.ceil((chunk.length * 8) / 5);
    let piece = '';
    for (let j = 0; j < 8; j += 1) {
      piece += j < n ? B32[Number((bits >> BigInt(35 - j * 5)) & 31n)] : '=';
    }
    out += piece;
  }
  return out;
}

function base32Decode(s: string): string {
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const c of s) {
    if (c === '=') break;
    const d = B32.indexOf(c);
    if (d === -1) throw typeError(s, 'is not valid base32 data');
    acc = (acc << 5) | d;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 0xff);
    }
  }
  return decoder.decode(Uint8Array.from(bytes));
}
