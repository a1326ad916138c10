/**
 * The network allowlist of the virtual shell: which URLs and methods `curl` and `wget` may
 * fetch, and how large and how long a response may be. Off unless given; validated strictly once,
 * then matched on parsed URLs only: scheme, host and port compared exactly (after the WHATWG
 * parser has canonicalised them, so `https://api.example.com` never admits
 * `https://api.example.com.evil.net` or `https://api.example.com@evil.net`), the path by whole,
 * decoded segments (`/v1` admits `/v1` and `/v1/x`, not `/v10`). No regular expression ever runs
 * over a URL a script sends.
 * @module
 */
import {
  closestName,
  describeValue,
  knownOptions,
  MAX_TIMER_MS,
  optionKeys,
} from '../../contract/validate-options.js';
import { InvalidArgumentError } from '../../errors/index.js';

/** One allowed URL prefix and the methods allowed on it. */
export interface NetworkAllowRule {
  /**
   * `http://` or `https://`, a host, an optional port (`:*` for any port, e.g. a local server's),
   * and an optional path prefix matched by whole segments. No credentials, query or fragment.
   */
  readonly url: string;
  /** The methods allowed (upper case, e.g. `['GET', 'POST']`), or `'*'` for any. Default GET and HEAD. */
  readonly methods?: readonly string[] | '*' | undefined;
}

/** The `network` option: off when absent. */
export interface NetworkOptions {
  /** What may be fetched: a rule, or a URL prefix string (GET and HEAD). At least one. */
  readonly allow: readonly (string | NetworkAllowRule)[];
  /** Largest response body one request may receive, in bytes. Default 16 MiB. */
  readonly maxResponseBytes?: number | undefined;
  /** Largest request body one request may send, in bytes. Default 16 MiB. */
  readonly maxRequestBytes?: number | undefined;
  /** Longest one command's transfer may take, redirects included, in ms. Default 30000. */
  readonly timeoutMs?: number | undefined;
  /** Most redirects one request follows (each one checked against the allowlist). Default 10. */
  readonly maxRedirects?: number | undefined;
}

/** A validated rule. */
export interface AllowRule {
  /** `http:` or `https:`. */
  readonly protocol: string;
  /** Canonical host (lower case, punycode, IPv6 in brackets). */
  readonly hostname: string;
  /** The port as the URL parser gives it (`''` for the scheme's default), or `'*'`. */
  readonly port: string;
  /** Decoded path segments of the prefix, without a trailing empty one. */
  readonly segments: readonly string[];
  /** Upper-case method names, or `'*'`. */
  readonly methods: ReadonlySet<string> | '*';
  /** The rule as written, for messages. */
  readonly text: string;
}

/** The validated `network` option, as commands receive it. */
export interface NetworkPolicy {
  readonly rules: readonly AllowRule[];
  readonly maxResponseBytes: number;
  readonly maxRequestBytes: number;
  readonly timeoutMs: number;
  readonly maxRedirects: number;
}

export type NetworkVerdict =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly reason: string };

export const DEFAULT_NETWORK_LIMITS = Object.freeze({
  maxResponseBytes: 16 * 1024 * 1024,
  maxRequestBytes: 16 * 1024 * 1024,
  timeoutMs: 30_000,
  maxRedirects: 10,
});

const OPTION_KEYS = optionKeys<NetworkOptions>({
  allow: true,
  maxResponseBytes: true,
  maxRequestBytes: true,
  timeoutMs: true,
  maxRedirects: true,
});
const RULE_KEYS = optionKeys<NetworkAllowRule>({ url: true, methods: true });
const DEFAULT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);
/** The methods people spell; others must still be RFC 9110 tokens. */
const KNOWN_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const MAX_RULES = 1000;
const MAX_URL_LENGTH = 4096;
const TOKEN_CHARS = "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Policies this module made: passed on as they are (they are frozen). */
const RESOLVED = new WeakSet<object>();

/**
 * Validate the `network` option; `undefined` is "no network". Errors name `field.<key>`. A
 * policy this function returned is accepted again as it is.
 */
export function resolveNetworkPolicy(value: unknown, field: string): NetworkPolicy | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'object' && value !== null && RESOLVED.has(value)) return value as NetworkPolicy;
  const input = knownOptions(value as NetworkOptions, field, OPTION_KEYS, 'the network option');
  const allow = input.allow;
  if (!Array.isArray(allow) || allow.length === 0) {
    throw new InvalidArgumentError(
      `${field}.allow`,
      `must be a non-empty array of URL prefixes or { url, methods } rules, got ${describeValue(allow)}; leave out the network option for no network`,
    );
  }
  if (allow.length > MAX_RULES) {
    throw new InvalidArgumentError(`${field}.allow`, `has ${allow.length} rules; at most ${MAX_RULES}`);
  }
  const rules = allow.map((entry: unknown, index) => resolveRule(entry, `${field}.allow[${index}]`));
  const policy: NetworkPolicy = Object.freeze({
    rules: Object.freeze(rules),
    maxResponseBytes: limit(
      input.maxResponseBytes,
      `${field}.maxResponseBytes`,
      DEFAULT_NETWORK_LIMITS.maxResponseBytes,
      2 ** 40,
    ),
    maxRequestBytes: limit(
      input.maxRequestBytes,
      `${field}.maxRequestBytes`,
      DEFAULT_NETWORK_LIMITS.maxRequestBytes,
      2 ** 32,
    ),
    timeoutMs: limit(input.timeoutMs, `${field}.timeoutMs`, DEFAULT_NETWORK_LIMITS.timeoutMs, MAX_TIMER_MS),
    maxRedirects: limit(
      input.maxRedirects,
      `${field}.maxRedirects`,
      DEFAULT_NETWORK_LIMITS.maxRedirects,
      100,
      true,
    ),
  });
  RESOLVED.add(policy);
  return policy;
}

function limit(value: unknown, field: string, fallback: number, max: number, allowZero = false): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < (allowZero ? 0 : 1) || value > max) {
    throw new InvalidArgumentError(
      field,
      `must be an integer in ${allowZero ? 0 : 1}..${max}, got ${describeValue(value)}`,
    );
  }
  return value;
}

function resolveRule(entry: unknown, field: string): AllowRule {
  if (typeof entry === 'string') return parseRule(entry, DEFAULT_METHODS, field);
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    throw new InvalidArgumentError(
      field,
      `must be a URL prefix string or { url, methods }, got ${describeValue(entry)}`,
    );
  }
  const rule = knownOptions(entry as NetworkAllowRule, field, RULE_KEYS, 'a network rule');
  if (typeof rule.url !== 'string') {
    throw new InvalidArgumentError(
      `${field}.url`,
      `is required: a URL prefix such as https://api.example.com/v1/, got ${describeValue(rule.url)}`,
    );
  }
  return parseRule(rule.url, resolveMethods(rule.methods, `${field}.methods`), `${field}.url`);
}

function resolveMethods(value: unknown, field: string): ReadonlySet<string> | '*' {
  if (value === undefined) return DEFAULT_METHODS;
  if (value === '*') return '*';
  if (!Array.isArray(value) || value.length === 0) {
    throw new InvalidArgumentError(
      field,
      `must be a non-empty array of method names (e.g. ["GET", "POST"]) or "*", got ${describeValue(value)}`,
    );
  }
  const methods = new Set<string>();
  for (const method of value) {
    if (typeof method !== 'string' || !isToken(method)) {
      throw new InvalidArgumentError(field, `${describeValue(method)} is not an HTTP method name`);
    }
    const upper = method.toUpperCase();
    if (!KNOWN_METHODS.includes(upper)) {
      // An unknown method is taken as written in upper case (PROPFIND), unless it looks like a typo.
      const guess = closestName(upper, KNOWN_METHODS);
      if (guess !== undefined || upper !== method) {
        throw new InvalidArgumentError(
          field,
          `${JSON.stringify(method)} is not a method this allowlist knows${guess === undefined ? '' : `; did you mean ${JSON.stringify(guess)}?`} (write other methods in upper case)`,
        );
      }
    }
    methods.add(upper);
  }
  return methods;
}

function isToken(text: string): boolean {
  if (text.length === 0 || text.length > 64) return false;
  for (const ch of text) if (!TOKEN_CHARS.includes(ch)) return false;
  return true;
}

function parseRule(text: string, methods: ReadonlySet<string> | '*', field: string): AllowRule {
  const bad = (why: string): InvalidArgumentError =>
    new InvalidArgumentError(
      field,
      `${JSON.stringify(text)} ${why}; write a prefix such as https://api.example.com/v1/ or http://127.0.0.1:*/`,
    );
  if (text.length === 0 || text.length > MAX_URL_LENGTH) throw bad(`must be 1..${MAX_URL_LENGTH} characters`);
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (code <= 0x20 || code === 0x7f || ch === '\\')
      throw bad('contains a blank, a control character or a backslash');
  }
  const scheme = text.indexOf('://');
  if (scheme === -1) throw bad('is not an absolute URL');
  const authorityEnd = firstOf(text, ['/', '?', '#'], scheme + 3);
  const authority = text.slice(scheme + 3, authorityEnd);
  const anyPort = authority.endsWith(':*');
  const written = anyPort
    ? text.slice(0, scheme + 3) + authority.slice(0, -2) + text.slice(authorityEnd)
    : text;
  let url: URL;
  try {
    url = new URL(written);
  } catch {
    throw bad('is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw bad(`has scheme ${url.protocol}; only http and https can be fetched`);
  if (authority.includes('@') || url.username !== '' || url.password !== '')
    throw bad(
      'contains credentials (user:password@); the allowlist names hosts, credentials go in the request',
    );
  if (url.search !== '' || url.hash !== '' || written.includes('?') || written.includes('#')) {
    throw bad('has a query or fragment; the allowlist matches scheme, host, port and path');
  }
  const rawPath = text.slice(authorityEnd);
  for (const segment of rawPath.split('/')) {
    const lower = segment.toLowerCase();
    if (
      lower === '.' ||
      lower === '..' ||
      lower === '%2e' ||
      lower === '%2e%2e' ||
      lower === '.%2e' ||
      lower === '%2e.'
    ) {
      throw bad('has a "." or ".." path segment');
    }
  }
  const segments = decodedSegments(url.pathname);
  if (segments === undefined) throw bad('has an encoded "/" or "\\", or bad percent-encoding, in its path');
  if (segments.at(-1) === '') segments.pop();
  return Object.freeze({
    protocol: url.protocol,
    hostname: url.hostname,
    port: anyPort ? '*' : url.port,
    segments: Object.freeze(segments),
    methods: methods === '*' ? '*' : new Set(methods),
    text,
  });
}

function firstOf(text: string, chars: readonly string[], from: number): number {
  let end = text.length;
  for (const ch of chars) {
    const at = text.indexOf(ch, from);
    if (at !== -1 && at < end) end = at;
  }
  return end;
}

/**
 * The path's segments, percent-decoded; `undefined` when a segment hides a `/` or `\` in an
 * escape (a server that decodes before routing would see other segments than we matched) or
 * is not valid percent-encoded UTF-8.
 */
function decodedSegments(pathname: string): string[] | undefined {
  const parts = pathname.split('/').slice(1);
  const out: string[] = [];
  for (const part of parts) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      return undefined;
    }
    if (decoded.includes('/') || decoded.includes('\\')) return undefined;
    out.push(decoded);
  }
  return out;
}

/** Whether `method url` may be fetched under `policy`, with the reason when not. */
export function checkRequest(policy: NetworkPolicy, url: URL, method: string): NetworkVerdict {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { allowed: false, reason: `only http and https can be fetched, not ${url.protocol}` };
  }
  const segments = decodedSegments(url.pathname);
  const upper = method.toUpperCase();
  let methodDenied: AllowRule | undefined;
  for (const rule of policy.rules) {
    if (rule.protocol !== url.protocol || rule.hostname !== url.hostname) continue;
    if (rule.port !== '*' && rule.port !== url.port) continue;
    if (rule.segments.length > 0 && (segments === undefined || !startsWith(segments, rule.segments)))
      continue;
    if (rule.methods === '*' || rule.methods.has(upper)) return { allowed: true };
    methodDenied ??= rule;
  }
  const target = `${url.origin}${url.pathname}`;
  if (methodDenied !== undefined) {
    const allowed = methodDenied.methods === '*' ? '*' : [...methodDenied.methods].join(', ');
    return {
      allowed: false,
      reason: `method ${upper} is not allowed for ${target} (the network allowlist allows ${allowed} there)`,
    };
  }
  return {
    allowed: false,
    reason: `${upper} ${target} is not in the network allowlist (${describeAllowlist(policy)})`,
  };
}

function startsWith(segments: readonly string[], prefix: readonly string[]): boolean {
  if (segments.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i += 1) if (segments[i] !== prefix[i]) return false;
  return true;
}

/** The allowlist in one line, for messages: `GET,HEAD https://api.example.com/v1/; ...`. */
export function describeAllowlist(policy: NetworkPolicy): string {
  const shown = policy.rules.slice(0, 5).map((rule) => {
    const methods = rule.methods === '*' ? '*' : [...rule.methods].join(',');
    return `${methods} ${rule.text}`;
  });
  const more = policy.rules.length > 5 ? `; and ${policy.rules.length - 5} more` : '';
  return `allowed: ${shown.join('; ')}${more}`;
}
