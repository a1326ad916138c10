/**
 * `listFiles` inside a container or a pod: one `find … -exec stat` exec lists a directory (or, for
 * a glob, the subtree below the pattern's literal base), and berth's shared glob matcher
 * (`vfs/glob.ts`) picks the matches on the host, so `* ? [] {} **` mean exactly what they mean for
 * local files. How the exec runs is the backend's: it hands in a {@link HelperRunner}.
 * @module
 */
import { posix } from 'node:path';
import type { FileEntry } from '../../contract/types.js';
import { type BerthError, IoError, NotFoundError } from '../../errors/index.js';
import { notDirectoryError } from '../../vfs/fs-errors.js';
import { compileGlob, expandBraces, type GlobSegment, matchParts } from '../../vfs/glob.js';

/** Exit statuses of the listing script. */
const MISSING = 3;
const NOT_DIRECTORY = 4;

// $1 = directory, $2 = max depth ('' = unlimited). Prints "<mode hex> <size> <mtime s> <path>" lines.
const LIST_SCRIPT = `d="$1"
if [ ! -e "$d" ] && [ ! -L "$d" ]; then exit ${MISSING}; fi
if [ ! -d "$d" ]; then exit ${NOT_DIRECTORY}; fi
if [ -n "$2" ]; then
  find "$d" -mindepth 1 -maxdepth "$2" -exec stat -c '%f %s %Y %n' {} +
else
  find "$d" -mindepth 1 -exec stat -c '%f %s %Y %n' {} +
fi`;

const LINE = /^([0-9a-fA-F]+) (\d+) (\d+) (.*)$/s;

function typeOfMode(mode: number): FileEntry['type'] {
  switch (mode & 0o170000) {
    case 0o100000:
      return 'file';
    case 0o040000:
      return 'directory';
    case 0o120000:
      return 'symlink';
    default:
      return 'other';
  }
}

/**
 * Entries of a `stat -c '%f %s %Y %n'` listing (mode in hex, size, mtime in seconds, path); a line
 * that does not start a record continues a name holding a newline.
 */
export function parseStatListing(text: string): FileEntry[] {
  const records: string[] = [];
  for (const line of text.split('\n')) {
    if (LINE.test(line) || records.length === 0) records.push(line);
    else records[records.length - 1] += `\n${line}`;
  }
  const entries: FileEntry[] = [];
  for (const record of records) {
    const match = LINE.exec(record);
    if (match === null) continue;
    entries.push({
      path: match[4]!,
      name: posix.basename(match[4]!),
      type: typeOfMode(Number.parseInt(match[1]!, 16)),
      size: Number(match[2]),
      mtimeMs: Number(match[3]) * 1000,
    });
  }
  return entries;
}

/** What one of berth's helper commands produced (stdout whole up to a cap, the end of stderr). */
export interface HelperResult {
  readonly exitCode: number;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/**
 * Runs a helper argv in the box to completion; stdout beyond `maxStdoutBytes` fails the call with
 * `E_IO` naming `what`.
 */
export type HelperRunner = (
  argv: readonly string[],
  options: { readonly maxStdoutBytes: number; readonly what: string },
) => Promise<HelperResult>;

/** Limits of one listing. */
export interface ListingLimits {
  readonly maxEntries: number;
  readonly maxListingBytes: number;
}

async function listTree(
  run: HelperRunner,
  directory: string,
  maxDepth: number | undefined,
  limits: ListingLimits,
  what: string,
): Promise<FileEntry[] | 'missing' | 'not-directory'> {
  const result = await run(
    ['/bin/sh', '-c', LIST_SCRIPT, 'berth-list', directory, maxDepth === undefined ? '' : String(maxDepth)],
    { maxStdoutBytes: limits.maxListingBytes, what },
  );
  if (result.exitCode === MISSING) return 'missing';
  if (result.exitCode === NOT_DIRECTORY) return 'not-directory';
  const entries = parseStatListing(result.stdout.toString('utf8').replace(/\n$/, ''));
  if (result.exitCode !== 0 && entries.length === 0) {
    throw new IoError(`${what} failed (exit ${result.exitCode}): ${result.stderr.trim() || 'no message'}`);
  }
  return entries;
}

function tooMany(what: string, maxEntries: number): BerthError {
  return new IoError(`${what}: more than maxEntries=${maxEntries} entries; narrow the path or the pattern`);
}

const byPath = (a: FileEntry, b: FileEntry) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** Immediate entries of a directory, sorted by name. @throws NotFoundError, E_NOT_DIRECTORY */
export async function listDirectory(
  run: HelperRunner,
  path: string,
  limits: ListingLimits,
): Promise<FileEntry[]> {
  const what = `listFiles ${JSON.stringify(path)}`;
  const listed = await listTree(run, path, 1, limits, what);
  if (listed === 'missing') throw new NotFoundError(path, 'directory');
  if (listed === 'not-directory') throw notDirectoryError(path, 'listFiles');
  if (listed.length > limits.maxEntries) throw tooMany(what, limits.maxEntries);
  return listed.map((raw) => ({ ...raw, path: posix.join(path, raw.name) })).sort(byPath);
}

/** Depth the walk needs: unlimited with `**`, else the number of segments. */
function depthOf(segments: readonly GlobSegment[]): number | undefined {
  return segments.some((segment) => segment.kind === 'globstar') ? undefined : segments.length;
}

/** Files (not directories) matching an absolute glob, sorted by path. A missing base matches nothing. */
export async function listGlob(
  run: HelperRunner,
  pattern: string,
  limits: ListingLimits,
): Promise<FileEntry[]> {
  const what = `listFiles ${JSON.stringify(pattern)}`;
  const found = new Map<string, FileEntry>();
  for (const expanded of expandBraces(pattern)) {
    const { base, segments } = compileGlob(expanded.split('/').filter((part) => part.length > 0));
    const baseDir = `/${base.join('/')}`;
    const listed = await listTree(run, baseDir, depthOf(segments), limits, what);
    if (listed === 'missing' || listed === 'not-directory') continue;
    for (const raw of listed) {
      if (raw.type === 'directory') continue;
      const relative = posix.relative(baseDir, raw.path);
      if (!matchParts(segments, relative.split('/')).full) continue;
      if (found.size >= limits.maxEntries) throw tooMany(what, limits.maxEntries);
      found.set(raw.path, raw);
    }
  }
  return [...found.values()].sort(byPath);
}
