/**
 * `wget` (the common options of GNU Wget 1.21) through Node's `fetch`, only to what the
 * context's network allowlist admits: each URL is saved to a file of the virtual filesystem (its
 * last path segment, `index.html` for none, `.1`, `.2`... when taken) or to `-O FILE` / `-O -`.
 * Redirects are followed (each target checked before it is contacted), up to `--max-redirect`
 * and the context's own cap. Exit statuses are wget's: 1 generic, 2 usage, 3 file I/O, 4 network
 * (refused by the allowlist too), 8 an HTTP error. The log is wget's, without progress dots.
 * @module
 */
import { encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { type GetoptSpec, getopt, type ParsedOption } from '../getopt.js';
import { errorText, operandPath } from '../text/input.js';
import { checkRequest, type NetworkPolicy } from './allowlist.js';
import { curlUrl } from './curl-request.js';
import {
  drainBody,
  type HttpRequest,
  type HttpResponse,
  NetFailure,
  requireNetwork,
} from './http-exchange.js';
import { WGET_HELP, WGET_VERSION } from './net-help.js';
import { type OutputSink, OutputWriteError, openOutput, stdoutSink } from './output-sink.js';
import { deadline, transfer } from './transfer.js';

const WGET_USER_AGENT = 'Wget/1.21.3';

const SPEC: GetoptSpec = {
  options: [
    { short: 'V', long: 'version' },
    { short: 'h', long: 'help' },
    { short: 'q', long: 'quiet' },
    { short: 'v', long: 'verbose' },
    { long: 'no-verbose' },
    { short: 'n', key: 'n', argument: 'required' },
    { short: 'S', long: 'server-response' },
    { short: 't', long: 'tries', argument: 'required' },
    { short: 'O', long: 'output-document', argument: 'required' },
    { long: 'no-clobber' },
    { short: 'T', long: 'timeout', argument: 'required' },
    { long: 'read-timeout', argument: 'required' },
    { long: 'connect-timeout', argument: 'required' },
    { short: 'U', long: 'user-agent', argument: 'required' },
    { long: 'user', argument: 'required' },
    { long: 'password', argument: 'required' },
    { long: 'http-user', argument: 'required' },
    { long: 'http-password', argument: 'required' },
    { long: 'spider' },
    { short: 'P', long: 'directory-prefix', argument: 'required' },
    { long: 'header', argument: 'required' },
    { long: 'max-redirect', argument: 'required' },
    { long: 'post-data', argument: 'required' },
    { long: 'post-file', argument: 'required' },
    { long: 'method', argument: 'required' },
    { long: 'body-data', argument: 'required' },
    { long: 'body-file', argument: 'required' },
    { long: 'content-on-error' },
    { long: 'no-check-certificate' },
    { short: 'c', long: 'continue' },
    { short: 'r', long: 'recursive' },
    { short: 'i', long: 'input-file', argument: 'required' },
  ],
};

/** Known to wget, not done here. */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  'no-check-certificate': "TLS certificates are always verified in berth's virtual shell",
  continue: 'resumed downloads are not supported',
  recursive: 'recursive retrieval is not supported; fetch each URL',
  'input-file': 'URLs are read from the command line only',
};

interface WgetSettings {
  verbosity: 'quiet' | 'brief' | 'full';
  serverResponse: boolean;
  output: string | undefined;
  noClobber: boolean;
  timeoutMs: number | undefined;
  userAgent: string;
  user: string | undefined;
  password: string | undefined;
  spider: boolean;
  prefix: string | undefined;
  headers: string[];
  maxRedirect: number;
  method: string | undefined;
  body: { kind: 'text' | 'file'; value: string } | undefined;
  contentOnError: boolean;
}

async function usage(ctx: CommandContext, message: string | undefined): Promise<number> {
  const head = message === undefined ? '' : `wget: ${message}\n`;
  await ctx.stderr.write(
    encodeText(`${head}Usage: wget [OPTION]... [URL]...\n\nTry \`wget --help' for more options.\n`),
  );
  return 2;
}

/** wget's time period: seconds, possibly fractional, with an optional s/m/h/d. */
function periodMs(text: string): number | undefined {
  if (text.length === 0 || text.length > 32) return undefined;
  const unit = text.at(-1) as string;
  const scale = unit === 's' ? 1 : unit === 'm' ? 60 : unit === 'h' ? 3600 : unit === 'd' ? 86400 : 0;
  const number = scale === 0 ? text : text.slice(0, -1);
  let dots = 0;
  for (const ch of number) {
    if (ch === '.') dots += 1;
    else if (ch < '0' || ch > '9') return undefined;
  }
  if (number === '' || number === '.' || dots > 1) return undefined;
  return Number(number) * (scale || 1) * 1000;
}

function settingsFrom(options: readonly ParsedOption[]): WgetSettings | string {
  const s: WgetSettings = {
    verbosity: 'full',
    serverResponse: false,
    output: undefined,
    noClobber: false,
    timeoutMs: undefined,
    userAgent: WGET_USER_AGENT,
    user: undefined,
    password: undefined,
    spider: false,
    prefix: undefined,
    headers: [],
    maxRedirect: 20,
    method: undefined,
    body: undefined,
    contentOnError: false,
  };
  for (const { key, value = '', spelled } of options) {
    const why = UNSUPPORTED[key];
    if (why !== undefined) return `${spelled}: not supported in berth's virtual shell: ${why}`;
    switch (key) {
      case 'quiet':
        s.verbosity = 'quiet';
        break;
      case 'verbose':
        s.verbosity = 'full';
        break;
      case 'no-verbose':
        s.verbosity = 'brief';
        break;
      case 'n':
        if (value === 'v') s.verbosity = 'brief';
        else if (value === 'c') s.noClobber = true;
        else if (value !== 'd' && value !== 'H') return `invalid option -- 'n${value}'`;
        break;
      case 'server-response':
        s.serverResponse = true;
        break;
      case 'tries':
        if (periodMs(value) === undefined && value !== 'inf') return `--tries: Invalid number ‘${value}’.`;
        break;
      case 'output-document':
        s.output = value;
        break;
      case 'no-clobber':
        s.noClobber = true;
        break;
      case 'timeout':
      case 'read-timeout':
      case 'connect-timeout': {
        const ms = periodMs(value);
        if (ms === undefined) return `--${key}: Invalid time period ‘${value}’`;
        if (key === 'timeout' || s.timeoutMs === undefined) s.timeoutMs = ms === 0 ? undefined : ms;
        break;
      }
      case 'user-agent':
        s.userAgent = value;
        break;
      case 'user':
      case 'http-user':
        s.user = value;
        break;
      case 'password':
      case 'http-password':
        s.password = value;
        break;
      case 'spider':
        s.spider = true;
        break;
      case 'directory-prefix':
        s.prefix = value;
        break;
      case 'header':
        s.headers.push(value);
        break;
      case 'max-redirect': {
        const n = Number(value);
        if (value === '' || !Number.isInteger(n) || n < 0)
          return `--max-redirect: Invalid number ‘${value}’.`;
        s.maxRedirect = n;
        break;
      }
      case 'post-data':
        s.method = 'POST';
        s.body = { kind: 'text', value };
        break;
      case 'post-file':
        s.method = 'POST';
        s.body = { kind: 'file', value };
        break;
      case 'method':
        s.method = value.toUpperCase();
        break;
      case 'body-data':
        s.body = { kind: 'text', value };
        break;
      case 'body-file':
        s.body = { kind: 'file', value };
        break;
      case 'content-on-error':
        s.contentOnError = true;
        break;
      default:
        break;
    }
  }
  return s;
}

async function wget(ctx: CommandContext): Promise<number> {
  const parsed = getopt(ctx.argv.slice(1), SPEC);
  if (!parsed.ok) return usage(ctx, parsed.message);
  if (parsed.options.some((o) => o.key === 'help')) {
    await ctx.stdout.write(encodeText(WGET_HELP));
    return 0;
  }
  if (parsed.options.some((o) => o.key === 'version')) {
    await ctx.stdout.write(encodeText(WGET_VERSION));
    return 0;
  }
  const settings = settingsFrom(parsed.options);
  if (typeof settings === 'string') {
    await ctx.stderr.write(encodeText(`wget: ${settings}\n`));
    return 2;
  }
  if (parsed.operands.length === 0) return (await usage(ctx, 'missing URL')) - 1;
  if (settings.body !== undefined && settings.method === undefined) {
    await ctx.stderr.write(
      encodeText('wget: --body-data and --body-file require --method to be specified.\n'),
    );
    return 2;
  }
  let shared: OutputSink | undefined;
  let status = 0;
  try {
    for (const operand of parsed.operands) {
      const result = await fetchOne(
        ctx,
        settings,
        operand,
        () => shared,
        (sink) => {
          shared = sink;
        },
      );
      // wget reports the most serious failure; an HTTP error (8) outranks nothing else.
      if (result !== 0 && (status === 0 || result < status)) status = result;
      if (ctx.signal.aborted) return 143;
    }
  } finally {
    await shared?.close().catch(() => {});
  }
  return status;
}

function stamp(): string {
  const d = new Date();
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

function speed(bytes: number, ms: number): string {
  const perSecond = bytes / Math.max(ms / 1000, 0.001);
  if (perSecond >= 1024 * 1024) return `${(perSecond / (1024 * 1024)).toFixed(1)} MB/s`;
  if (perSecond >= 1024) return `${(perSecond / 1024).toFixed(1)} KB/s`;
  return `${perSecond.toFixed(0)} B/s`;
}

function hostPort(url: URL): string {
  const port = url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port;
  return `${url.hostname}:${port}`;
}

async function fetchOne(
  ctx: CommandContext,
  s: WgetSettings,
  operand: string,
  sharedSink: () => OutputSink | undefined,
  keepShared: (sink: OutputSink) => void,
): Promise<number> {
  const log = async (text: string): Promise<void> => {
    if (s.verbosity === 'full') await ctx.stderr.write(encodeText(text));
  };
  const always = async (text: string): Promise<void> => {
    await ctx.stderr.write(encodeText(text));
  };
  let url: URL;
  try {
    url = curlUrl(operand);
  } catch (error) {
    if (!(error instanceof NetFailure)) throw error;
    const scheme = operand.slice(0, Math.max(operand.indexOf('://'), 0));
    if (s.verbosity !== 'quiet')
      await always(
        error.kind === 'protocol'
          ? `${operand}: Unsupported scheme ‘${scheme}’.\n`
          : `${operand}: Invalid URL.\n`,
      );
    return 1;
  }
  let policy: NetworkPolicy;
  await log(`--${stamp()}--  ${url.href}\n`);
  try {
    policy = requireNetwork(ctx.network, url);
  } catch (error) {
    if (!(error instanceof NetFailure)) throw error;
    await always(`Connecting to ${hostPort(url)}... failed: ${error.message}.\n`);
    return 4;
  }
  let body: Uint8Array | undefined;
  if (s.body !== undefined) {
    if (s.body.kind === 'text') body = encodeText(s.body.value);
    else {
      try {
        body = await ctx.fs.readFile(operandPath(ctx, s.body.value));
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        await always(`wget: ${s.body.value}: No such file or directory\n`);
        return 3;
      }
    }
  }
  const headers: [string, string][] = [
    ['User-Agent', s.userAgent],
    ['Accept', '*/*'],
    ['Accept-Encoding', 'identity'],
  ];
  if (s.user !== undefined || url.username !== '') {
    const user = s.user ?? decodeURIComponent(url.username);
    const password = s.password ?? decodeURIComponent(url.password);
    headers.push(['Authorization', `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`]);
  }
  url.username = '';
  url.password = '';
  if (body !== undefined) headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
  for (const line of s.headers) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    const lower = name.toLowerCase();
    for (let i = headers.length - 1; i >= 0; i -= 1) {
      if ((headers[i] as [string, string])[0].toLowerCase() === lower) headers.splice(i, 1);
    }
    if (value !== '') headers.push([name, value]);
  }
  const request: HttpRequest = {
    url,
    method: s.method ?? (s.spider ? 'HEAD' : 'GET'),
    headers,
    ...(body === undefined ? {} : { body }),
  };
  const timeoutMs = Math.min(s.timeoutMs ?? Number.POSITIVE_INFINITY, policy.timeoutMs);
  const timer = deadline(ctx.signal, timeoutMs);
  const started = Date.now();
  let target: string | undefined;
  let received = 0;
  try {
    let first = true;
    const result = await transfer({
      policy,
      request,
      follow: true,
      maxRedirects: Math.min(s.maxRedirect, policy.maxRedirects),
      signal: timer.signal,
      onRequest: async (r) => {
        if (!first) await log(`--${stamp()}--  ${r.url.href}\n`);
        first = false;
        // A refused target gets its "failed" line from the failure, not a "connected" first.
        if (checkRequest(policy, r.url, r.method).allowed)
          await log(`Connecting to ${hostPort(r.url)}... connected.\n`);
        else await log(`Connecting to ${hostPort(r.url)}... `);
      },
      onRedirect: async (response) => {
        await log(`HTTP request sent, awaiting response... ${statusLine(response)}\n`);
        await serverResponse(response);
        const location = response.headers.find(([n]) => n === 'location')?.[1] ?? '';
        await log(`Location: ${location} [following]\n`);
      },
    });
    const { response } = result;
    await log(`HTTP request sent, awaiting response... ${statusLine(response)}\n`);
    await serverResponse(response);
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => {});
      if (s.verbosity !== 'quiet')
        await always(`${Math.min(s.maxRedirect, policy.maxRedirects)} redirections exceeded.\n`);
      return 8;
    }
    if (response.status >= 400 && !s.contentOnError) {
      await response.body?.cancel().catch(() => {});
      if (s.verbosity === 'full') await always(`${stamp()} ERROR ${statusLine(response)}.\n\n`);
      else if (s.verbosity === 'brief')
        await always(`${url.href}:\n${stamp()} ERROR ${statusLine(response)}.\n`);
      return 8;
    }
    if (s.spider) {
      await response.body?.cancel().catch(() => {});
      await log('Remote file exists.\n\n');
      return 0;
    }
    const type = response.headers.find(([n]) => n === 'content-type')?.[1];
    const length = response.contentLength;
    await log(
      `Length: ${length === undefined ? 'unspecified' : String(length)}${type === undefined ? '' : ` [${type}]`}\n`,
    );
    if (length !== undefined && length > policy.maxResponseBytes) {
      await response.body?.cancel().catch(() => {});
      await always(
        `wget: the response (${length} bytes) is larger than this shell's network.maxResponseBytes (${policy.maxResponseBytes})\n`,
      );
      return 1;
    }
    const picked = await pickTarget(ctx, s, result.response.url);
    if (picked === 'exists') {
      await response.body?.cancel().catch(() => {});
      return 0;
    }
    target = picked;
    let sink: OutputSink;
    if (target === '-') sink = stdoutSink(ctx);
    else if (s.output !== undefined && sharedSink() !== undefined) sink = sharedSink() as OutputSink;
    else {
      const opened = await openOutput(ctx, operandPath(ctx, target), s.prefix !== undefined);
      if (!opened.ok) {
        await always(`${target}: ${errorText(opened.error)}\n`);
        return 1;
      }
      sink = opened.sink;
      if (s.output !== undefined) keepShared(sink);
    }
    await log(`Saving to: ‘${target === '-' ? 'STDOUT' : target}’\n\n`);
    const drained = await drainBody(response.body, policy.maxResponseBytes, async (chunk) => {
      received += chunk.length;
      await sink.write(chunk);
    });
    if (s.output === undefined && target !== '-') await sink.close();
    if (drained.overflow) {
      await always(
        `wget: the response is larger than this shell's network.maxResponseBytes (${policy.maxResponseBytes}); stopped after ${received} bytes\n`,
      );
      return 1;
    }
    const size = length === undefined ? `[${received}]` : `[${received}/${length}]`;
    const took = Date.now() - started;
    if (s.verbosity === 'full') {
      const what = target === '-' ? 'written to stdout' : `‘${target}’ saved`;
      await always(`${stamp()} (${speed(received, took)}) - ${what} ${size}\n\n`);
    } else if (s.verbosity === 'brief') {
      await always(`${stamp()} URL:${response.url.href} ${size} -> "${target}" [1]\n`);
    }
    return response.status >= 400 ? 8 : 0;
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    if (error instanceof OutputWriteError) {
      await always(`wget: Cannot write to ‘${target}’ (${errorText(error.error ?? error)}).\n`);
      return 3;
    }
    if (timer.expired()) {
      await always(
        `Read error (Connection timed out) after ${received} bytes${s.timeoutMs === undefined || policy.timeoutMs < s.timeoutMs ? " (this shell's network.timeoutMs)" : ''}. Giving up.\n`,
      );
      return 4;
    }
    if (error instanceof NetFailure) return failure(error);
    throw error;
  } finally {
    timer.clear();
  }

  async function serverResponse(response: HttpResponse): Promise<void> {
    if (!s.serverResponse) return;
    let text = `  HTTP/1.1 ${statusLine(response)}\n`;
    for (const [name, value] of response.headers) text += `  ${name}: ${value}\n`;
    await ctx.stderr.write(encodeText(text));
  }

  async function failure(error: NetFailure): Promise<number> {
    const where = error.url ?? url;
    switch (error.kind) {
      case 'resolve':
        if (s.verbosity === 'full')
          await always(
            `Resolving ${where.hostname} (${where.hostname})... failed: Name or service not known.\n`,
          );
        if (s.verbosity !== 'quiet')
          await always(`wget: unable to resolve host address ‘${where.hostname}’\n`);
        return 4;
      case 'denied':
      case 'off':
        // The full log already wrote "Connecting to HOST:PORT... "; the refusal is said even with -q.
        await always(
          `${s.verbosity === 'full' ? '' : `Connecting to ${hostPort(where)}... `}failed: ${error.message}.\n`,
        );
        return 4;
      case 'connect':
        if (s.verbosity !== 'quiet')
          await always(`Connecting to ${hostPort(where)}... failed: Connection refused.\n`);
        return 4;
      case 'redirects':
        if (s.verbosity !== 'quiet')
          await always(`${Math.min(s.maxRedirect, policy.maxRedirects)} redirections exceeded.\n`);
        return 8;
      case 'tls':
        if (s.verbosity !== 'quiet')
          await always(`ERROR: cannot verify ${where.hostname}'s certificate: ${error.message}\n`);
        return 5;
      case 'too-large':
        await always(`wget: ${error.message}\n`);
        return 1;
      default:
        if (s.verbosity !== 'quiet') await always(`wget: ${error.message}\n`);
        return 4;
    }
  }
}

function statusLine(response: HttpResponse): string {
  return `${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`;
}

/** The file a download goes to: `-O`, else the URL's name under `-P`, made unique as wget does. */
async function pickTarget(ctx: CommandContext, s: WgetSettings, url: URL): Promise<string | 'exists'> {
  if (s.output !== undefined) return s.output;
  const segment = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
  let name = segment === '' ? 'index.html' : safeDecode(segment);
  if (s.prefix !== undefined) name = `${trimSlashes(s.prefix)}/${name}`;
  if (!(await exists(ctx, name))) return name;
  if (s.noClobber) {
    if (s.verbosity !== 'quiet')
      await ctx.stderr.write(encodeText(`File ‘${name}’ already there; not retrieving.\n`));
    return 'exists';
  }
  for (let n = 1; n < 10_000; n += 1) {
    const candidate = `${name}.${n}`;
    if (!(await exists(ctx, candidate))) return candidate;
  }
  return name;
}

function trimSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path[end - 1] === '/') end -= 1;
  return path.slice(0, end);
}

function safeDecode(segment: string): string {
  try {
    const decoded = decodeURIComponent(segment);
    return decoded.includes('/') || decoded === '..' || decoded === '.' ? segment : decoded;
  } catch {
    return segment;
  }
}

async function exists(ctx: CommandContext, name: string): Promise<boolean> {
  try {
    await ctx.fs.lstat(operandPath(ctx, name));
    return true;
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return false;
  }
}

export const wgetCommand: CommandSpec = {
  name: 'wget',
  summary: 'download URLs (http and https, within the network allowlist)',
  help: WGET_HELP,
  run: wget,
};
