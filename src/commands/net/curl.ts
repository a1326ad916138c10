/**
 * `curl` (the common options of curl 7.88) through Node's `fetch`, only to what the context's
 * network allowlist admits. Redirects (`-L`) are followed here, each target checked before it is
 * contacted; the transfer has one deadline (`-m`, capped by the context's `timeoutMs`) and one
 * size cap (`--max-filesize`, capped by `maxResponseBytes`). Failures exit with curl's codes and
 * words: 6 resolve, 7 connect (and refused by the allowlist), 22 `-f` on an HTTP error, 23 write,
 * 28 timeout, 47 redirects, 63 size. No progress meter is drawn.
 * @module
 */
import { readAll } from '../byte-io.js';
import { decodeBytes, encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { operandPath } from '../text/input.js';
import type { NetworkPolicy } from './allowlist.js';
import { type CurlOption, parseCurlArgs } from './curl-options.js';
import { buildCurlRequest, type CurlRequest, type DataPart, ReadDataError } from './curl-request.js';
import {
  drainBody,
  type HttpRequest,
  type HttpResponse,
  NetFailure,
  requireNetwork,
} from './http-exchange.js';
import { CURL_HELP, CURL_VERSION } from './net-help.js';
import { type OutputSink, OutputWriteError, openOutput, stdoutSink } from './output-sink.js';
import { deadline, transfer } from './transfer.js';
import { expandWriteOut, type TransferFacts } from './write-out.js';

interface CurlSettings {
  silent: boolean;
  showError: boolean;
  fail: 'no' | 'fail' | 'with-body';
  follow: boolean;
  include: boolean;
  head: boolean;
  verbose: boolean;
  get: boolean;
  compressed: boolean;
  createDirs: boolean;
  outputs: ({ kind: 'file'; path: string } | { kind: 'remote' })[];
  method: string | undefined;
  headers: string[];
  data: DataPart[];
  uploadFile: string | undefined;
  writeOut: string | undefined;
  maxTimeMs: number | undefined;
  connectTimeoutMs: number | undefined;
  maxFilesize: number | undefined;
  maxRedirs: number;
  user: string | undefined;
  userAgent: string | undefined;
  referer: string | undefined;
  cookie: string | undefined;
  dumpHeader: string | undefined;
  urls: string[];
}

/** curl's exit status for each kind of failure. */
const EXIT: Readonly<Record<NetFailure['kind'], number>> = {
  off: 7,
  denied: 7,
  protocol: 1,
  resolve: 6,
  connect: 7,
  timeout: 28,
  tls: 60,
  'too-large': 63,
  redirects: 47,
  'bad-url': 3,
  other: 56,
};

async function usage(ctx: CommandContext, message: string): Promise<number> {
  await ctx.stderr.write(
    encodeText(`curl: ${message}\ncurl: try 'curl --help' or 'curl --manual' for more information\n`),
  );
  return 2;
}

/** Digits only, at most 18 of them. */
function isDigits(text: string): boolean {
  if (text.length === 0 || text.length > 18) return false;
  for (const ch of text) if (ch < '0' || ch > '9') return false;
  return true;
}

/** A number of seconds (`2`, `0.5`, `.5`) in ms, or undefined when curl would refuse it. */
function secondsOption(value: string): number | undefined {
  const dot = value.indexOf('.');
  const whole = dot === -1 ? value : value.slice(0, dot);
  const fraction = dot === -1 ? '' : value.slice(dot + 1);
  if (whole === '' && fraction === '') return undefined;
  if ((whole !== '' && !isDigits(whole)) || (fraction !== '' && !isDigits(fraction))) return undefined;
  return Number(`${whole || '0'}.${fraction || '0'}`) * 1000;
}

/** `--max-filesize`: bytes with an optional k, M or G. */
function sizeOption(value: string): number | undefined {
  const last = value.at(-1)?.toUpperCase();
  const scale = last === 'K' ? 1024 : last === 'M' ? 1024 ** 2 : last === 'G' ? 1024 ** 3 : 1;
  const digits = scale === 1 ? value : value.slice(0, -1);
  if (!isDigits(digits)) return undefined;
  return Number(digits) * scale;
}

function settingsFrom(options: readonly CurlOption[], urls: readonly string[]): CurlSettings | string {
  const s: CurlSettings = {
    silent: false,
    showError: false,
    fail: 'no',
    follow: false,
    include: false,
    head: false,
    verbose: false,
    get: false,
    compressed: false,
    createDirs: false,
    outputs: [],
    method: undefined,
    headers: [],
    data: [],
    uploadFile: undefined,
    writeOut: undefined,
    maxTimeMs: undefined,
    connectTimeoutMs: undefined,
    maxFilesize: undefined,
    maxRedirs: 50,
    user: undefined,
    userAgent: undefined,
    referer: undefined,
    cookie: undefined,
    dumpHeader: undefined,
    urls: [...urls],
  };
  for (const { key, value = '', on, spelled } of options) {
    switch (key) {
      case 'silent':
        s.silent = on;
        break;
      case 'show-error':
        s.showError = on;
        break;
      case 'fail':
        s.fail = on ? 'fail' : 'no';
        break;
      case 'fail-with-body':
        s.fail = on ? 'with-body' : 'no';
        break;
      case 'location':
        s.follow = on;
        break;
      case 'remote-name':
        if (on) s.outputs.push({ kind: 'remote' });
        break;
      case 'include':
        s.include = on;
        break;
      case 'head':
        s.head = on;
        break;
      case 'verbose':
        s.verbose = on;
        break;
      case 'get':
        s.get = on;
        break;
      case 'compressed':
        s.compressed = on;
        break;
      case 'create-dirs':
        s.createDirs = on;
        break;
      case 'output':
        s.outputs.push({ kind: 'file', path: value });
        break;
      case 'request':
        s.method = value;
        break;
      case 'header':
        s.headers.push(value);
        break;
      case 'data':
      case 'data-ascii':
        s.data.push({ kind: 'data', value });
        break;
      case 'data-binary':
        s.data.push({ kind: 'binary', value });
        break;
      case 'data-raw':
        s.data.push({ kind: 'raw', value });
        break;
      case 'data-urlencode':
        s.data.push({ kind: 'urlencode', value });
        break;
      case 'json':
        s.data.push({ kind: 'json', value });
        break;
      case 'upload-file':
        s.uploadFile = value;
        break;
      case 'write-out':
        s.writeOut = value;
        break;
      case 'max-time':
      case 'connect-timeout': {
        const ms = secondsOption(value);
        if (ms === undefined) return `option ${spelled}: expected a proper numerical parameter`;
        if (key === 'max-time') s.maxTimeMs = ms === 0 ? undefined : ms;
        else s.connectTimeoutMs = ms === 0 ? undefined : ms;
        break;
      }
      case 'max-filesize': {
        const bytes = sizeOption(value);
        if (bytes === undefined) return `option ${spelled}: expected a proper numerical parameter`;
        s.maxFilesize = bytes === 0 ? undefined : bytes;
        break;
      }
      case 'max-redirs': {
        if (!isDigits(value.startsWith('-') ? value.slice(1) : value))
          return `option ${spelled}: expected a proper numerical parameter`;
        const n = Number(value);
        s.maxRedirs = n < 0 ? Number.POSITIVE_INFINITY : n;
        break;
      }
      case 'user':
        s.user = value;
        break;
      case 'user-agent':
        s.userAgent = value;
        break;
      case 'referer':
        s.referer = value;
        break;
      case 'cookie':
        if (!value.includes('='))
          return `option --cookie: reading cookies from a file is not supported in berth's virtual shell; pass "name=value"`;
        s.cookie = value;
        break;
      case 'dump-header':
        s.dumpHeader = value;
        break;
      case 'url':
        s.urls.push(value);
        break;
      default:
        break; // accepted and without effect here: -g, -N, -#, --no-progress-meter, --http1.1, -q
    }
  }
  return s;
}

async function curl(ctx: CommandContext): Promise<number> {
  const line = parseCurlArgs(ctx.argv.slice(1));
  if (!line.ok) return usage(ctx, line.message);
  if (line.options.some((o) => o.key === 'help')) {
    await ctx.stdout.write(encodeText(CURL_HELP));
    return 0;
  }
  if (line.options.some((o) => o.key === 'version')) {
    await ctx.stdout.write(encodeText(CURL_VERSION));
    return 0;
  }
  const settings = settingsFrom(line.options, line.urls);
  if (typeof settings === 'string') return usage(ctx, settings);
  if (settings.urls.length === 0) return usage(ctx, 'no URL specified!');
  if (settings.writeOut?.startsWith('@') === true) {
    const format = await readWriteOutFile(ctx, settings.writeOut.slice(1));
    if (format === undefined)
      return usage(ctx, `error trying read config from the '${settings.writeOut.slice(1)}' file`);
    settings.writeOut = format;
  }
  let status = 0;
  for (const [index, urlText] of settings.urls.entries()) {
    status = await fetchOne(ctx, settings, urlText, settings.outputs[index]);
    if (ctx.signal.aborted) return 143;
  }
  return status;
}

/** The name `-O` saves to: the URL's last path segment. */
function remoteName(url: URL): string {
  const path = url.pathname;
  return path.slice(path.lastIndexOf('/') + 1);
}

function headerBlock(response: HttpResponse): string {
  let text = `HTTP/1.1 ${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}\r\n`;
  for (const [name, value] of response.headers) text += `${name}: ${value}\r\n`;
  return `${text}\r\n`;
}

function requestBlock(request: HttpRequest): string {
  let text = `> ${request.method} ${request.url.pathname}${request.url.search} HTTP/1.1\n> Host: ${request.url.host}\n`;
  for (const [name, value] of request.headers) text += `> ${name}: ${value}\n`;
  return `${text}> \n`;
}

async function fetchOne(
  ctx: CommandContext,
  s: CurlSettings,
  urlText: string,
  output: CurlSettings['outputs'][number] | undefined,
): Promise<number> {
  const started = Date.now();
  const say = async (text: string): Promise<void> => {
    if (!s.silent || s.showError) await ctx.stderr.write(encodeText(text));
  };
  const verbose = async (text: string): Promise<void> => {
    if (s.verbose) await ctx.stderr.write(encodeText(text));
  };
  const facts: Mutable<TransferFacts> = {
    httpCode: 0,
    urlEffective: urlText,
    contentType: undefined,
    sizeDownload: 0,
    sizeUpload: 0,
    sizeHeader: 0,
    numRedirects: 0,
    timeTotalMs: 0,
    timeStartTransferMs: 0,
    redirectUrl: undefined,
    method: s.method ?? (s.head ? 'HEAD' : 'GET'),
    exitCode: 0,
    errorMessage: undefined,
    filenameEffective: undefined,
    scheme: 'http',
  };
  let sink: OutputSink | undefined;
  let limits: { timeoutMs: number; fromPolicy: boolean } | undefined;
  let timer: ReturnType<typeof deadline> | undefined;
  // A refusal by the allowlist is said even under -s: silence would read as a server that is down.
  const finish = async (code: number, message?: string, always = false): Promise<number> => {
    facts.exitCode = code;
    facts.errorMessage = message;
    facts.timeTotalMs = Date.now() - started;
    timer?.clear();
    await sink?.close().catch(() => {});
    if (message !== undefined) {
      if (always) await ctx.stderr.write(encodeText(`curl: (${code}) ${message}\n`));
      else await say(`curl: (${code}) ${message}\n`);
    }
    if (s.writeOut !== undefined) await writeOut(ctx, s.writeOut, facts);
    return code;
  };
  let policy: NetworkPolicy;
  let request: CurlRequest;
  try {
    request = await buildCurlRequest(ctx, urlText, {
      method: s.method,
      head: s.head,
      get: s.get,
      data: s.data,
      uploadFile: s.uploadFile,
      headers: s.headers,
      user: s.user,
      userAgent: s.userAgent,
      referer: s.referer,
      cookie: s.cookie,
      compressed: s.compressed,
      maxRequestBytes: ctx.network?.maxRequestBytes ?? Number.POSITIVE_INFINITY,
      warn: say,
    });
    facts.urlEffective = request.url.href;
    facts.method = request.method;
    facts.scheme = request.url.protocol.slice(0, -1);
    facts.sizeUpload = request.body?.length ?? 0;
    policy = requireNetwork(ctx.network, request.url);
  } catch (error) {
    if (error instanceof ReadDataError)
      return finish(26, 'Failed to open/read local data from file/application');
    if (error instanceof NetFailure) return finish(exitFor(error), failureText(error), isRefusal(error));
    throw error;
  }
  const fromPolicy = s.maxTimeMs === undefined || policy.timeoutMs <= s.maxTimeMs;
  limits = { timeoutMs: fromPolicy ? policy.timeoutMs : (s.maxTimeMs as number), fromPolicy };
  timer = deadline(ctx.signal, limits.timeoutMs);
  const sizeCap = Math.min(s.maxFilesize ?? Number.POSITIVE_INFINITY, policy.maxResponseBytes);
  const capFromPolicy = s.maxFilesize === undefined || policy.maxResponseBytes < s.maxFilesize;
  const tooLarge = (): string =>
    capFromPolicy
      ? `Maximum file size exceeded (this shell's network.maxResponseBytes is ${policy.maxResponseBytes})`
      : 'Maximum file size exceeded';
  let received = 0;
  try {
    const result = await transfer({
      policy,
      request,
      follow: s.follow,
      maxRedirects: Math.min(s.maxRedirs, policy.maxRedirects),
      signal: timer.signal,
      onRequest: (r) => verbose(requestBlock(r)),
      onRedirect: async (response, next) => {
        const block = headerBlock(response);
        facts.sizeHeader += block.length;
        facts.numRedirects += 1;
        await verbose(prefixed(block, '< '));
        if (s.include || s.head) await (await outputSink()).write(encodeText(block));
        await verbose(`* Issue another request to this URL: '${next.url.href}'\n`);
      },
    });
    const { response } = result;
    facts.httpCode = response.status;
    facts.urlEffective = response.url.href;
    facts.numRedirects = result.redirects;
    facts.timeStartTransferMs = Date.now() - started;
    facts.contentType = response.headers.find(([n]) => n === 'content-type')?.[1];
    const location = response.headers.find(([n]) => n === 'location')?.[1];
    if (location !== undefined) facts.redirectUrl = safeResolve(location, response.url);
    const block = headerBlock(response);
    facts.sizeHeader += block.length;
    await verbose(prefixed(block, '< '));
    if (s.dumpHeader !== undefined) await dumpHeaders(ctx, s.dumpHeader, block);
    if (s.fail !== 'no' && response.status >= 400) {
      if (s.fail === 'fail') {
        await response.body?.cancel().catch(() => {});
        return finish(22, `The requested URL returned error: ${response.status}`);
      }
    }
    if (
      response.contentLength !== undefined &&
      response.contentLength > sizeCap &&
      request.method !== 'HEAD'
    ) {
      await response.body?.cancel().catch(() => {});
      return finish(63, tooLarge());
    }
    const out = await outputSink();
    if (s.include || s.head) await out.write(encodeText(block));
    const drained = await drainBody(response.body, sizeCap, async (chunk) => {
      received += chunk.length;
      await out.write(chunk);
    });
    facts.sizeDownload = drained.bytes;
    if (drained.overflow) return finish(63, tooLarge());
    if (s.fail === 'with-body' && response.status >= 400) {
      return finish(22, `The requested URL returned error: ${response.status}`);
    }
    return finish(0);
  } catch (error) {
    facts.sizeDownload = received;
    if (ctx.signal.aborted) throw error;
    if (error instanceof OutputWriteError) return finish(23, error.message);
    if (timer.expired()) {
      const elapsed = Date.now() - started;
      const which = limits.fromPolicy ? " (this shell's network.timeoutMs)" : '';
      return finish(
        28,
        `Operation timed out after ${elapsed} milliseconds with ${received} bytes received${which}`,
      );
    }
    if (error instanceof NetFailure) return finish(exitFor(error), failureText(error), isRefusal(error));
    if (facts.httpCode !== 0) return finish(18, 'transfer closed with outstanding read data remaining');
    throw error;
  }

  async function outputSink(): Promise<OutputSink> {
    if (sink !== undefined) return sink;
    if (output === undefined) {
      sink = stdoutSink(ctx);
      return sink;
    }
    const name = output.kind === 'file' ? output.path : remoteName(new URL(facts.urlEffective));
    if (name === '') throw new OutputWriteError('Failed writing received data to disk/application');
    if (name === '-') {
      sink = stdoutSink(ctx);
      return sink;
    }
    facts.filenameEffective = name;
    const opened = await openOutput(ctx, operandPath(ctx, name), s.createDirs);
    if (!opened.ok) throw new OutputWriteError('Failure writing output to destination');
    sink = opened.sink;
    return sink;
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function isRefusal(failure: NetFailure): boolean {
  return failure.kind === 'denied' || failure.kind === 'off';
}

function exitFor(failure: NetFailure): number {
  return EXIT[failure.kind];
}

function failureText(failure: NetFailure): string {
  if (failure.kind === 'denied' || failure.kind === 'off') {
    const url = failure.url;
    if (url === undefined) return failure.message;
    const port = url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port;
    return `Failed to connect to ${url.hostname} port ${port}: ${failure.message}`;
  }
  if (failure.kind === 'too-large' && failure.message.startsWith('the request body')) return failure.message;
  return failure.message;
}

function prefixed(block: string, prefix: string): string {
  return block
    .split('\r\n')
    .slice(0, -1)
    .map((l) => `${prefix}${l}\n`)
    .join('');
}

function safeResolve(location: string, base: URL): string | undefined {
  try {
    return new URL(location, base).href;
  } catch {
    return undefined;
  }
}

async function dumpHeaders(ctx: CommandContext, target: string, block: string): Promise<void> {
  if (target === '-') {
    await ctx.stdout.write(encodeText(block));
    return;
  }
  const opened = await openOutput(ctx, operandPath(ctx, target), false);
  if (!opened.ok) throw new OutputWriteError('Failure writing output to destination');
  await opened.sink.write(encodeText(block));
  await opened.sink.close();
}

async function writeOut(ctx: CommandContext, format: string, facts: TransferFacts): Promise<void> {
  const warnings: string[] = [];
  const pieces = expandWriteOut(format, facts, (m) => warnings.push(m));
  for (const w of warnings) await ctx.stderr.write(encodeText(w));
  for (const piece of pieces) {
    await (piece.stream === 'stdout' ? ctx.stdout : ctx.stderr).write(encodeText(piece.text));
  }
}

/** `-w @file` (or `@-`): the format from a file of the virtual filesystem or stdin. */
async function readWriteOutFile(ctx: CommandContext, name: string): Promise<string | undefined> {
  try {
    const bytes =
      name === '-' ? await readAll(ctx.stdin, 1024 * 1024) : await ctx.fs.readFile(operandPath(ctx, name));
    return decodeBytes(bytes);
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return undefined;
  }
}

export const curlCommand: CommandSpec = {
  name: 'curl',
  summary: 'transfer a URL (http and https, within the network allowlist)',
  help: CURL_HELP,
  run: curl,
};
