/**
 * File methods in a remote sandbox: bytes through the SDK's own file API, with a shell probe for
 * what the SDKs report vaguely (a directory, a missing parent, a file too large to bring into host
 * memory) so every provider raises berth's typed file errors. Listings are `find` + `stat` inside
 * the sandbox, base64 on the way back so any name survives, matched against globs on the host with
 * berth's own linear glob matcher.
 * @module
 */
import { posix } from 'node:path';
import type { FileEntry } from '../../contract/types.js';
import { BerthError, FileTooLargeError, IoError, NotFoundError } from '../../errors/index.js';
import { isDirectoryError, notDirectoryError } from '../../vfs/fs-errors.js';
import { compileGlob, expandBraces, type GlobSegment, matchParts } from '../../vfs/glob.js';
import { parseStatListing } from '../shared/find-listing.js';
import { RANGE_SCRIPT, rangeReadFailure } from '../shared/range-read.js';
import { base64Bytes, readControlLines } from './control-lines.js';
import {
  LIST_SCRIPT,
  newNonce,
  RANGE_REPORT_SCRIPT,
  READ_PROBE_SCRIPT,
  SIZE_SCRIPT,
  shLine,
  WRITE_PROBE_SCRIPT,
} from './scripts.js';
import type { RemoteSandbox } from './transport.js';

type Classify = (error: unknown) => Error;

/** Run a probe script; its first control line. */
async function probe(
  sandbox: RemoteSandbox,
  script: string,
  args: readonly string[],
  classify: Classify,
): Promise<{ kind: string; argument: string } | undefined> {
  const nonce = newNonce();
  const result = await sandbox
    .run({ script: shLine(script, 'berth-probe', [...args, nonce]), timeoutMs: 60_000 })
    .catch((error: unknown) => {
      throw classify(error);
    });
  return readControlLines(result.stdout, nonce)[0];
}

function tooLarge(path: string, size: number, maxBytes: number): BerthError {
  return new FileTooLargeError(
    `readFile ${JSON.stringify(path)}: the file has ${size} bytes, more than the ${maxBytes}-byte read limit; read a part with exec (e.g. head -c) or raise maxReadBytes`,
  );
}

/** Read a whole file, refusing one larger than `maxBytes` before any byte moves to the host. */
export async function readRemoteFile(
  sandbox: RemoteSandbox,
  path: string,
  maxBytes: number,
  classify: Classify,
): Promise<Uint8Array> {
  const answer = await probe(sandbox, READ_PROBE_SCRIPT, [path, String(maxBytes)], classify);
  switch (answer?.kind) {
    case 'isdir':
      throw isDirectoryError(path, 'readFile');
    case 'notdir':
      throw notDirectoryError(path, 'readFile');
    case 'missing':
      throw new NotFoundError(path, 'file');
    case 'denied':
      throw new IoError(`readFile ${JSON.stringify(path)}: permission denied for the sandbox user`);
    case 'ok': {
      const size = Number(answer.argument);
      if (size > maxBytes) throw tooLarge(path, size, maxBytes);
      break;
    }
    default:
      throw new IoError(`readFile ${JSON.stringify(path)}: the sandbox did not answer the size probe`);
  }
  try {
    return await sandbox.readFile(path);
  } catch (error) {
    throw classify(error);
  }
}

/**
 * Bytes `[offset, offset + length)` of a file (fewer at its end) through the shared `dd` script:
 * the SDKs' file APIs only send whole files.
 */
export async function readRemoteFileRange(
  sandbox: RemoteSandbox,
  path: string,
  offset: number,
  length: number,
  classify: Classify,
): Promise<Uint8Array> {
  const nonce = newNonce();
  const what = `readFileRange ${JSON.stringify(path)}`;
  const result = await sandbox
    .run({
      script: shLine(RANGE_REPORT_SCRIPT, 'berth-range', [
        path,
        String(offset),
        String(length),
        nonce,
        RANGE_SCRIPT,
      ]),
      timeoutMs: 120_000,
    })
    .catch((error: unknown) => {
      throw classify(error);
    });
  const lines = readControlLines(result.stdout, nonce);
  const data = lines.find((line) => line.kind === 'all-range');
  const status = lines.find((line) => line.kind === 'status')?.argument ?? '';
  if (data === undefined || !/^\d+$/.test(status)) {
    throw new IoError(
      `${what}: the sandbox did not answer the ranged read (${result.stderr.trim() || 'no message'})`,
    );
  }
  if (status !== '0') throw rangeReadFailure(Number(status), path, result.stderr, 'the sandbox user');
  const bytes = base64Bytes(data.body);
  if (bytes.length > length)
    throw new IoError(`${what}: the sandbox sent ${bytes.length} bytes for ${length} asked`);
  return bytes;
}

/** Write a file, creating missing parents; failures are explained by a probe. */
export async function writeRemoteFile(
  sandbox: RemoteSandbox,
  path: string,
  data: Uint8Array,
  classify: Classify,
): Promise<void> {
  try {
    await sandbox.writeFile(path, data);
    return;
  } catch (error) {
    const typed = classify(error);
    if (typed instanceof BerthError && typed.code !== 'E_REMOTE') throw typed;
    const answer = await probe(sandbox, WRITE_PROBE_SCRIPT, [path], classify);
    if (answer?.kind === 'isdir') throw isDirectoryError(path, 'writeFile');
    if (answer?.kind === 'notdir') throw notDirectoryError(path, 'writeFile');
    if (answer?.kind === 'denied')
      throw new IoError(`writeFile ${JSON.stringify(path)}: permission denied for the sandbox user`);
    throw typed;
  }
}

/** Size of a regular file; null for anything else. */
export async function remoteFileSize(
  sandbox: RemoteSandbox,
  path: string,
  classify: Classify,
): Promise<number | null> {
  const answer = await probe(sandbox, SIZE_SCRIPT, [path], classify);
  return answer?.kind === 'size' && /^\d+$/.test(answer.argument) ? Number(answer.argument) : null;
}

export interface ListingLimits {
  readonly maxEntries: number;
  readonly maxListingBytes: number;
}

async function listTree(
  sandbox: RemoteSandbox,
  directory: string,
  maxDepth: number | undefined,
  limits: ListingLimits,
  classify: Classify,
): Promise<FileEntry[] | 'missing' | 'notdir'> {
  const nonce = newNonce();
  const result = await sandbox
    .run({
      script: shLine(LIST_SCRIPT, 'berth-list', [
        directory,
        maxDepth === undefined ? '' : String(maxDepth),
        String(limits.maxListingBytes),
        nonce,
      ]),
      timeoutMs: 120_000,
    })
    .catch((error: unknown) => {
      throw classify(error);
    });
  const lines = readControlLines(result.stdout, nonce);
  const status = lines[0]?.kind;
  if (status === 'missing') return 'missing';
  if (status === 'notdir') return 'notdir';
  if (status !== 'list' || !lines.some((line) => line.kind === 'end')) {
    throw new IoError(`listFiles ${JSON.stringify(directory)}: the sandbox did not answer the listing`);
  }
  // The base64 body sits between the `list` and `end` lines.
  const at = result.stdout.indexOf(`${nonce} list`);
  const endAt = result.stdout.indexOf(`${nonce} end`, at);
  const body = result.stdout.slice(result.stdout.indexOf('\n', at) + 1, endAt).replace(/\s+/g, '');
  const text = Buffer.from(base64Bytes(body)).toString('utf8').replace(/\n$/, '');
  return text === '' ? [] : parseStatListing(text);
}

function tooMany(what: string, maxEntries: number): BerthError {
  return new IoError(`${what}: more than maxEntries=${maxEntries} entries; narrow the path or the pattern`);
}

const byPath = (a: FileEntry, b: FileEntry) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** Immediate entries of a directory, sorted by name. */
export async function listRemoteDirectory(
  sandbox: RemoteSandbox,
  path: string,
  limits: ListingLimits,
  classify: Classify,
): Promise<FileEntry[]> {
  const listed = await listTree(sandbox, path, 1, limits, classify);
  if (listed === 'missing') throw new NotFoundError(path, 'directory');
  if (listed === 'notdir') throw notDirectoryError(path, 'listFiles');
  if (listed.length > limits.maxEntries)
    throw tooMany(`listFiles ${JSON.stringify(path)}`, limits.maxEntries);
  return listed.map((entry) => ({ ...entry, path: posix.join(path, entry.name) })).sort(byPath);
}

function depthOf(segments: readonly GlobSegment[]): number | undefined {
  return segments.some((segment) => segment.kind === 'globstar') ? undefined : segments.length;
}

/** Files (not directories) matching an absolute glob, sorted by path. */
export async function listRemoteGlob(
  sandbox: RemoteSandbox,
  pattern: string,
  limits: ListingLimits,
  classify: Classify,
): Promise<FileEntry[]> {
  const what = `listFiles ${JSON.stringify(pattern)}`;
  const found = new Map<string, FileEntry>();
  for (const expanded of expandBraces(pattern)) {
    const { base, segments } = compileGlob(expanded.split('/').filter((part) => part.length > 0));
    const baseDir = `/${base.join('/')}`;
    const listed = await listTree(sandbox, baseDir, depthOf(segments), limits, classify);
    if (listed === 'missing' || listed === 'notdir') continue;
    for (const entry of listed) {
      if (entry.type === 'directory') continue;
      const relative = posix.relative(baseDir, entry.path);
      if (!matchParts(segments, relative.split('/')).full) continue;
      if (found.size >= limits.maxEntries) throw tooMany(what, limits.maxEntries);
      found.set(entry.path, entry);
    }
  }
  return [...found.values()].sort(byPath);
}
