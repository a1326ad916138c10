/**
 * The request curl would send for its options: URL (scheme guessed as `http://`, credentials
 * moved to an `Authorization` header), method, curl's default headers with `-H` replacing,
 * removing (`Name:`) or emptying (`Name;`) them, and the body from `-d` and its relatives,
 * `--json` or `-T`, read from the virtual filesystem or stdin.
 * @module
 */
import { InputTooLargeError, readAll } from '../byte-io.js';
import { decodeBytes, encodeText } from '../byte-text.js';
import type { CommandContext } from '../command.js';
import { operandPath } from '../text/input.js';
import { NetFailure } from './http-exchange.js';

export const CURL_USER_AGENT = 'curl/7.88.1';

/** One of `-d`, `--data-ascii`, `--data-binary`, `--data-raw`, `--data-urlencode`, `--json`. */
export interface DataPart {
  readonly kind: 'data' | 'binary' | 'raw' | 'urlencode' | 'json';
  readonly value: string;
}

export interface RequestOptions {
  readonly method: string | undefined;
  readonly head: boolean;
  readonly get: boolean;
  readonly data: readonly DataPart[];
  readonly uploadFile: string | undefined;
  readonly headers: readonly string[];
  readonly user: string | undefined;
  readonly userAgent: string | undefined;
  readonly referer: string | undefined;
  readonly cookie: string | undefined;
  readonly compressed: boolean;
  readonly maxRequestBytes: number;
  /** A warning curl prints unless silent. */
  readonly warn: (text: string) => Promise<void>;
}

export interface CurlRequest {
  readonly url: URL;
  readonly method: string;
  readonly headers: [string, string][];
  readonly body: Uint8Array | undefined;
}

/** A local file or stdin could not be read for the body (curl's exit 26). */
export class ReadDataError extends Error {}

/** The URL as curl reads it: no scheme means `http://`. Throws a `NetFailure` curl would report. */
export function curlUrl(text: string): URL {
  const scheme = text.indexOf('://');
  const written = scheme === -1 ? `http://${text}` : text;
  if (scheme !== -1) {
    const name = text.slice(0, scheme).toLowerCase();
    if (name !== 'http' && name !== 'https') {
      throw new NetFailure(
        'protocol',
        `Protocol "${text.slice(0, scheme)}" not supported or disabled in libcurl`,
      );
    }
  }
  try {
    const url = new URL(written);
    url.hash = '';
    return url;
  } catch {
    throw new NetFailure('bad-url', 'URL using bad/illegal format or missing URL');
  }
}

/** Build the request for `urlText`. */
export async function buildCurlRequest(
  ctx: CommandContext,
  urlText: string,
  o: RequestOptions,
): Promise<CurlRequest> {
  let url = curlUrl(urlText);
  let credentials = o.user;
  if (url.username !== '' || url.password !== '') {
    credentials ??= `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    url = new URL(url.href);
    url.username = '';
    url.password = '';
  }
  let body: Uint8Array | undefined;
  let contentType: string | undefined;
  let json = false;
  if (o.data.length > 0) {
    const parts: string[] = [];
    for (const part of o.data) parts.push(await dataText(ctx, part, o));
    json = o.data.some((p) => p.kind === 'json');
    const joined = parts.join(json ? '' : '&');
    if (o.get) {
      url = new URL(url.href);
      url.search = url.search === '' ? `?${joined}` : `${url.search}&${joined}`;
    } else {
      body = encodeText(joined);
      contentType = json ? 'application/json' : 'application/x-www-form-urlencoded';
    }
  } else if (o.uploadFile !== undefined) {
    body = await readLocal(ctx, o.uploadFile, o.maxRequestBytes);
    if (url.pathname.endsWith('/') && o.uploadFile !== '-') {
      url = new URL(url.href);
      url.pathname += encodeURIComponent(o.uploadFile.slice(o.uploadFile.lastIndexOf('/') + 1));
    }
  }
  const method =
    o.method ?? (o.head ? 'HEAD' : o.uploadFile !== undefined ? 'PUT' : body !== undefined ? 'POST' : 'GET');
  const headers: [string, string][] = [['User-Agent', o.userAgent ?? CURL_USER_AGENT]];
  headers.push(['Accept', json ? 'application/json' : '*/*']);
  if (credentials !== undefined) {
    const pair = credentials.includes(':') ? credentials : `${credentials}:`;
    headers.push(['Authorization', `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`]);
  }
  if (o.referer !== undefined) headers.push(['Referer', o.referer]);
  if (o.cookie !== undefined) headers.push(['Cookie', o.cookie]);
  if (contentType !== undefined) headers.push(['Content-Type', contentType]);
  // fetch would ask for gzip and decode it; curl asks for nothing unless --compressed.
  headers.push(['Accept-Encoding', o.compressed ? 'gzip, deflate, br' : 'identity']);
  applyUserHeaders(headers, o.headers);
  return { url, method, headers, body };
}

/** `-H` lines: `Name: value` replaces a default of that name, `Name:` removes it, `Name;` sends it empty. */
function applyUserHeaders(headers: [string, string][], lines: readonly string[]): void {
  const replaced = new Set<string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    const semi = line.indexOf(';');
    if (colon === -1 && semi !== -1 && line.slice(semi + 1).trim() === '') {
      const name = line.slice(0, semi).trim();
      if (validName(name)) headers.push([name, '']);
      continue;
    }
    if (colon === -1) continue; // curl ignores a header line without a colon
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (!validName(name)) continue;
    const lower = name.toLowerCase();
    if (!replaced.has(lower)) {
      for (let i = headers.length - 1; i >= 0; i -= 1) {
        if ((headers[i] as [string, string])[0].toLowerCase() === lower) headers.splice(i, 1);
      }
      replaced.add(lower);
    }
    if (value !== '') headers.push([name, value]);
  }
}

function validName(name: string): boolean {
  if (name === '') return false;
  for (const ch of name) {
    const code = ch.charCodeAt(0);
    if (code <= 0x20 || code >= 0x7f || '()<>@,;:\\"/[]?={}'.includes(ch)) return false;
  }
  return true;
}

async function dataText(ctx: CommandContext, part: DataPart, o: RequestOptions): Promise<string> {
  const { kind, value } = part;
  const max = o.maxRequestBytes;
  if (kind === 'raw') return value;
  if (kind === 'urlencode') return urlencodePart(ctx, value, max);
  if (!value.startsWith('@')) return value;
  let bytes: Uint8Array;
  try {
    bytes = await readLocal(ctx, value.slice(1), max);
  } catch (error) {
    if (!(error instanceof ReadDataError)) throw error;
    // curl goes on with an empty body for an unreadable -d @file.
    await o.warn(`Warning: Couldn't read data from file "${value.slice(1)}", this makes an empty POST.\n`);
    return '';
  }
  const text = decodeBytes(bytes);
  // -d strips carriage returns and newlines from a file; --data-binary and --json keep them.
  return kind === 'data' ? text.replaceAll('\r', '').replaceAll('\n', '') : text;
}

async function urlencodePart(ctx: CommandContext, value: string, max: number): Promise<string> {
  const eq = value.indexOf('=');
  const at = value.indexOf('@');
  if (eq !== -1 && (at === -1 || eq < at)) {
    const name = value.slice(0, eq);
    const content = escapeForm(value.slice(eq + 1));
    return name === '' ? content : `${name}=${content}`;
  }
  if (at !== -1) {
    const name = value.slice(0, at);
    const content = escapeForm(decodeBytes(await readLocal(ctx, value.slice(at + 1), max)));
    return name === '' ? content : `${name}=${content}`;
  }
  return escapeForm(value);
}

const UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';

/** curl's escaping for --data-urlencode: unreserved bytes as they are, space as `+`. */
function escapeForm(text: string): string {
  let out = '';
  for (const byte of encodeText(text)) {
    const ch = String.fromCharCode(byte);
    if (UNRESERVED.includes(ch)) out += ch;
    else if (byte === 0x20) out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A file of the virtual filesystem, or stdin for `-`, bounded by the request cap. */
async function readLocal(ctx: CommandContext, name: string, max: number): Promise<Uint8Array> {
  try {
    if (name === '-') return await readAll(ctx.stdin, max);
    const parts: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of ctx.fs.readChunks(operandPath(ctx, name))) {
      size += chunk.length;
      if (size > max) throw new InputTooLargeError(max);
      parts.push(chunk);
    }
    return Buffer.concat(parts, size);
  } catch (error) {
    if (error instanceof InputTooLargeError) {
      throw new NetFailure(
        'too-large',
        `the request body from ${name === '-' ? 'stdin' : name} is larger than this shell's network.maxRequestBytes (${max})`,
      );
    }
    if (ctx.signal.aborted) throw error;
    throw new ReadDataError(name);
  }
}
