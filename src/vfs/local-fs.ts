/**
 * The host filesystem, optionally contained in a workspace root: every path is checked lexically
 * (absolute escapes, `..`) before any I/O and then opened component by component without following
 * symlinks implicitly (see `dir-walk.ts`).
 * @module
 */
import { realpathSync, statSync } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { type BerthError, FileTooLargeError, InvalidArgumentError, IoError } from '../errors/index.js';
import { childPath, DirWalker, type OpenedPath, type ReadTarget, selfPath } from './dir-walk.js';
import { errnoOf, isDirectoryError, toFsError } from './fs-errors.js';
import { compileGlob, expandBraces, type GlobSegment, matchParts } from './glob.js';
import { assertPathArgument, type PathScope, partsBelowRoot } from './path-scope.js';
import { assertRangeArguments } from './range-arguments.js';
import { fstatFd, readFd } from './raw-fd.js';
import type { FileEntry, FileSystem, PathOptions, WriteOptions } from './types.js';

export interface LocalFileSystemOptions {
  /** Workspace root: paths outside it are refused with `ContainmentError`. Absent: no containment. */
  readonly root?: string | undefined;
  /** Largest file `readFile` loads into memory; larger ones fail with `E_FILE_TOO_LARGE`. */
  readonly maxReadBytes?: number | undefined;
  /** Most entries one `list` or `glob` returns; beyond it the call fails rather than grow memory. */
  readonly maxEntries?: number | undefined;
}

/** Default `maxReadBytes`: 256 MiB (a V8 string cannot hold much more than twice that anyway). */
export const DEFAULT_MAX_READ_BYTES = 256 * 1024 * 1024;
/** Default `maxEntries` for list and glob. */
export const DEFAULT_MAX_ENTRIES = 100_000;
/** How many entries are stat'ed at once while listing. */
const STAT_CONCURRENCY = 32;

/**
 * Create a local filesystem.
 * @throws InvalidArgumentError when `root` is not an existing directory or a limit is invalid.
 */
export function createLocalFileSystem(options: LocalFileSystemOptions = {}): LocalFileSystem {
  return new LocalFileSystem(options);
}

/** The host filesystem, optionally contained. Construct with {@link createLocalFileSystem}. */
export class LocalFileSystem implements FileSystem {
  readonly root: string | null;
  private readonly walker: DirWalker;
  private readonly maxReadBytes: number;
  private readonly maxEntries: number;

  constructor(options: LocalFileSystemOptions) {
    this.maxReadBytes = positiveInteger(options.maxReadBytes, 'maxReadBytes', DEFAULT_MAX_READ_BYTES);
    this.maxEntries = positiveInteger(options.maxEntries, 'maxEntries', DEFAULT_MAX_ENTRIES);
    let scope: PathScope;
    if (options.root === undefined) {
      scope = { realRoot: '/', givenRoot: '/', contained: false };
    } else {
      assertPathArgument(options.root, 'workspaceRoot');
      if (!isAbsolute(options.root)) {
        throw new InvalidArgumentError(
          'workspaceRoot',
          `must be an absolute path, got ${JSON.stringify(options.root)}`,
        );
      }
      const givenRoot = resolve(options.root);
      let realRoot: string;
      try {
        realRoot = realpathSync(givenRoot);
        if (!statSync(realRoot).isDirectory())
          throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
      } catch (error) {
        throw new InvalidArgumentError(
          'workspaceRoot',
          `${JSON.stringify(options.root)} must be an existing directory (${errnoOf(error) ?? String(error)}); create it first`,
        );
      }
      scope = { realRoot, givenRoot, contained: true };
    }
    this.root = scope.contained ? scope.realRoot : null;
    this.walker = new DirWalker(scope);
  }

  async readFile(path: string, options: PathOptions = {}): Promise<Uint8Array> {
    const target = await this.openForReading(path, options, 'readFile');
    try {
      const stat = target.stat ?? (await fstatFd(target.fd));
      if (stat.isDirectory()) throw isDirectoryError(path, 'readFile');
      if (!stat.isFile()) throw notRegular(path, 'readFile');
      if (stat.size > this.maxReadBytes) throw tooLarge(path, stat.size, this.maxReadBytes);
      return await readBounded(target.fd, stat.size, this.maxReadBytes, path);
    } finally {
      target.close();
    }
  }

  /**
   * At most `length` bytes from byte `offset` (fewer at the end, none past it), reading only
   * those. `length` may not exceed the read limit.
   */
  async readRange(
    path: string,
    offset: number,
    length: number,
    options: PathOptions = {},
  ): Promise<Uint8Array> {
    assertRangeArguments(offset, length, this.maxReadBytes);
    const target = await this.openForReading(path, options, 'readFileRange');
    try {
      const stat = target.stat ?? (await fstatFd(target.fd));
      if (stat.isDirectory()) throw isDirectoryError(path, 'readFileRange');
      if (!stat.isFile()) throw notRegular(path, 'readFileRange');
      // Sized by the file as it is now (it may still grow), never by the request alone.
      const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(length, stat.size - offset)));
      let filled = 0;
      while (filled < buffer.length) {
        const bytesRead = await readFd(target.fd, buffer, filled, buffer.length - filled, offset + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return buffer.subarray(0, filled);
    } finally {
      target.close();
    }
  }

  async writeFile(path: string, data: Uint8Array, options: WriteOptions = {}): Promise<void> {
    if (!(data instanceof Uint8Array)) {
      throw new InvalidArgumentError('content', 'must be a string or a Uint8Array');
    }
    const opened = await this.openPath(path, options, 'write', 'writeFile');
    try {
      const stat = await opened.handle.stat();
      if (!stat.isFile()) throw notRegular(path, 'writeFile');
      await opened.handle.truncate(0);
      let offset = 0;
      while (offset < data.length) {
        const { bytesWritten } = await opened.handle.write(data, offset, data.length - offset, offset);
        offset += bytesWritten;
      }
    } catch (error) {
      throw toFsError(error, path, 'writeFile');
    } finally {
      await opened.handle.close();
    }
  }

  async list(path: string, options: PathOptions = {}): Promise<FileEntry[]> {
    const directory = await this.openPath(path, options, 'directory', 'listFiles');
    try {
      const names = (await readdir(selfPath(directory))).sort();
      if (names.length > this.maxEntries) throw tooManyEntries(path, this.maxEntries);
      const shown = absolutePath(path, options);
      const entries: FileEntry[] = [];
      for (let start = 0; start < names.length; start += STAT_CONCURRENCY) {
        const batch = names.slice(start, start + STAT_CONCURRENCY);
        entries.push(
          ...(await Promise.all(batch.map((name) => describe(directory, name, join(shown, name))))),
        );
      }
      return entries;
    } finally {
      await directory.handle.close();
    }
  }

  async glob(pattern: string, options: PathOptions = {}): Promise<FileEntry[]> {
    const absolute = absolutePath(pattern, options, 'pattern');
    const found = new Map<string, FileEntry>();
    for (const expanded of expandBraces(absolute)) {
      const { base, segments } = compileGlob(expanded.split('/').filter((part) => part.length > 0));
      const baseDir = `/${base.join('/')}`;
      let directory: OpenedPath;
      try {
        directory = await this.openParts(baseDir, pattern, 'directory', 'listFiles');
      } catch (error) {
        // A base directory that does not exist simply matches nothing; containment still throws.
        const code = (error as BerthError).code;
        if (code === 'E_NOT_FOUND' || code === 'E_NOT_DIRECTORY') continue;
        throw error;
      }
      try {
        await this.walkGlob(directory, baseDir, [], segments, found, pattern);
      } finally {
        await directory.handle.close();
      }
    }
    return [...found.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async size(path: string, options: PathOptions = {}): Promise<number | null> {
    let target: ReadTarget;
    try {
      target = await this.openForReading(path, options, 'fileSize');
    } catch (error) {
      if (error instanceof InvalidArgumentError) throw error;
      return null; // missing, refused by containment, unreadable: a probe never leaks why
    }
    try {
      const stat = target.stat ?? (await fstatFd(target.fd));
      return stat.isFile() ? stat.size : null;
    } catch {
      return null;
    } finally {
      target.close();
    }
  }

  async realPath(path: string, options: PathOptions = {}): Promise<string> {
    const parts = partsBelowRoot(this.walker.scope, absolutePath(path, options), path);
    // The deepest existing ancestor, opened through the walker, plus what does not exist yet.
    for (let keep = parts.length; keep >= 0; keep--) {
      const prefix = parts.slice(0, keep);
      for (const purpose of ['directory', 'read'] as const) {
        try {
          const opened = await this.walker.open(prefix, path, { purpose, operation: 'realPath' });
          await opened.handle.close();
          return join(opened.realPath, ...parts.slice(keep));
        } catch (error) {
          const code = (error as BerthError).code;
          if (code === 'E_NOT_FOUND') break;
          if (code !== 'E_NOT_DIRECTORY' && code !== 'E_IS_DIRECTORY') throw error;
        }
      }
    }
    return this.walker.scope.realRoot;
  }

  /** A file opened for reading from a held directory, checked after its open (see `dir-walk.ts`). */
  private openForReading(path: string, options: PathOptions, operation: string): Promise<ReadTarget> {
    const parts = partsBelowRoot(this.walker.scope, absolutePath(path, options), path);
    return this.walker.openForRead(parts, path, operation);
  }

  private openPath(
    path: string,
    options: WriteOptions,
    purpose: 'read' | 'write' | 'directory',
    operation: string,
  ): Promise<OpenedPath> {
    return this.openParts(absolutePath(path, options), path, purpose, operation, options.beforeMutate);
  }

  private async openParts(
    absolute: string,
    original: string,
    purpose: 'read' | 'write' | 'directory',
    operation: string,
    beforeMutate?: WriteOptions['beforeMutate'],
  ): Promise<OpenedPath> {
    const parts = partsBelowRoot(this.walker.scope, absolute, original);
    return this.walker.open(parts, original, {
      purpose,
      operation,
      createParents: purpose === 'write',
      beforeMutate,
    });
  }

  private async walkGlob(
    directory: OpenedPath,
    shownDir: string,
    below: readonly string[],
    segments: readonly GlobSegment[],
    found: Map<string, FileEntry>,
    pattern: string,
  ): Promise<void> {
    let dirents: import('node:fs').Dirent[];
    try {
      dirents = await readdir(selfPath(directory), { withFileTypes: true });
    } catch {
      return; // unreadable or vanished mid-walk: nothing to match there
    }
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const dirent of dirents) {
      const parts = [...below, dirent.name];
      const { full, descend } = matchParts(segments, parts);
      const shown = join(shownDir, dirent.name);
      if (full && !dirent.isDirectory()) {
        if (found.size >= this.maxEntries) throw tooManyEntries(pattern, this.maxEntries);
        found.set(shown, await describe(directory, dirent.name, shown));
      }
      // Symlinked directories are never descended: no loops, no way out of the root.
      if (descend && dirent.isDirectory()) {
        const child = await this.walker.openChildDirectory(directory, dirent.name);
        if (!child) continue;
        try {
          await this.walkGlob(child, shown, parts, segments, found, pattern);
        } finally {
          await child.handle.close();
        }
      }
    }
  }
}

async function describe(directory: OpenedPath, name: string, shown: string): Promise<FileEntry> {
  try {
    const stat = await lstat(childPath(directory, name));
    const type = stat.isFile()
      ? 'file'
      : stat.isDirectory()
        ? 'directory'
        : stat.isSymbolicLink()
          ? 'symlink'
          : 'other';
    return { path: shown, name, type, size: stat.size, mtimeMs: stat.mtimeMs };
  } catch {
    return { path: shown, name: basename(shown), type: 'other' };
  }
}

async function readBounded(
  fd: number,
  sizeHint: number,
  maxBytes: number,
  path: string,
): Promise<Uint8Array> {
  // The file may grow while being read: read until EOF, never past the cap.
  let buffer = Buffer.allocUnsafe(Math.max(sizeHint, 8192));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > maxBytes) throw tooLarge(path, length, maxBytes);
      const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
      buffer.copy(bigger, 0, 0, length);
      buffer = bigger;
    }
    const bytesRead = await readFd(fd, buffer, length, buffer.length - length, length);
    if (bytesRead === 0) break;
    length += bytesRead;
    if (length > maxBytes) throw tooLarge(path, length, maxBytes);
  }
  return buffer.subarray(0, length);
}

/** The absolute form of `path`: as is when absolute, else resolved against `options.cwd`. */
function absolutePath(path: unknown, options: PathOptions, field = 'path'): string {
  assertPathArgument(path, field);
  if (isAbsolute(path)) return resolve(path);
  const cwd = options.cwd;
  if (typeof cwd !== 'string' || !isAbsolute(cwd)) {
    throw new InvalidArgumentError(
      field,
      `is relative (${JSON.stringify(path)}) and no absolute cwd was given to resolve it against; pass an absolute path`,
    );
  }
  return resolve(cwd, path);
}

function positiveInteger(value: number | undefined, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new InvalidArgumentError(field, `must be a positive integer, got ${String(value)}`);
  }
  return value;
}

function notRegular(path: string, operation: string): BerthError {
  return new IoError(
    `${operation} ${JSON.stringify(path)}: not a regular file (a device, FIFO or socket); only regular files are read and written`,
  );
}

function tooLarge(path: string, size: number, maxBytes: number): BerthError {
  return new FileTooLargeError(
    `readFile ${JSON.stringify(path)}: the file holds ${size} bytes, more than maxReadBytes=${maxBytes}; check fileSize first and read a part with a command (head -c, tail -c)`,
  );
}

function tooManyEntries(path: string, maxEntries: number): BerthError {
  return new IoError(
    `listFiles ${JSON.stringify(path)}: more than maxEntries=${maxEntries} entries; narrow the path or the pattern`,
  );
}
