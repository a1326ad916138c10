/**
 * The contract's file methods over the virtual namespace: whole reads with a size cap, ranged
 * reads (one positioned read of the filesystem, whatever the file's size), writes that
 * make missing parents, listings, globs (berth's linear matcher, symlinked directories never
 * descended), sizes and real paths, with berth's typed errors. With `containment`, every path must
 * stay inside the workspace, lexically and after symlinks; the handle's own spill files and
 * background logs stay readable.
 * @module
 */
import { TextDecoder } from 'node:util';
import type { FileEntry } from '../../contract/types.js';
import { describeValue } from '../../contract/validate-options.js';
import {
  BerthError,
  ContainmentError,
  FileTooLargeError,
  InvalidArgumentError,
  IoError,
} from '../../errors/index.js';
import { type Filesystem, isVfsError, type VfsFileType } from '../../vfs/filesystem.js';
import { isDirectoryError, notDirectoryError, toFsError } from '../../vfs/fs-errors.js';
import { compileGlob, expandBraces, type GlobSegment, hasGlobMagic, matchParts } from '../../vfs/glob.js';
import { assertPathArgument } from '../../vfs/path-scope.js';
import { assertRangeArguments } from '../../vfs/range-arguments.js';
import {
  isVfsPathWithin,
  joinVfsPath,
  normalizeVfsPath,
  vfsBasename,
  vfsDirname,
} from '../../vfs/vfs-path.js';
import type { HandleState } from './handle-state.js';

// ignoreBOM keeps a leading U+FEFF, so a read-modify-write does not strip it.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** Most symlinks followed while resolving one path (Linux's limit). */
const MAX_HOPS = 40;

export interface FileRules {
  /** The workspace path when file methods are confined to it, else null. */
  readonly containRoot: string | null;
  readonly maxReadBytes: number;
  readonly maxListEntries: number;
  /** True when `path` (absolute) is a file of the handle's own that stays readable (logs, spills). */
  ownsPrivatePath(state: HandleState, path: string): boolean;
}

export class VirtualFiles {
  constructor(private readonly rules: FileRules) {}

  async readBytes(state: HandleState, path: unknown): Promise<Uint8Array> {
    const at = await this.place(state, path, 'readFile', true);
    const fs = state.namespace.fs;
    try {
      const stat = await fs.stat(at);
      if (stat.type === 'directory') throw isDirectoryError(path as string, 'readFile');
      if (stat.type !== 'file') throw notRegular(path as string, 'readFile');
      if (stat.size > this.rules.maxReadBytes)
        throw tooLarge(path as string, stat.size, this.rules.maxReadBytes);
      return await fs.readFile(at);
    } catch (error) {
      throw fileError(error, path as string, 'readFile');
    }
  }

  /** Bytes `[offset, offset + length)` (fewer at the end): one positioned read, never the whole file. */
  async readRange(state: HandleState, path: unknown, offset: unknown, length: unknown): Promise<Uint8Array> {
    assertRangeArguments(offset, length, this.rules.maxReadBytes);
    const at = await this.place(state, path, 'readFileRange', true);
    const fs = state.namespace.fs;
    try {
      const stat = await fs.stat(at);
      if (stat.type === 'directory') throw isDirectoryError(path as string, 'readFileRange');
      if (stat.type !== 'file') throw notRegular(path as string, 'readFileRange');
      return await fs.readRange(at, offset as number, length as number);
    } catch (error) {
      throw fileError(error, path as string, 'readFileRange');
    }
  }

  async readText(state: HandleState, path: unknown): Promise<string> {
    return decoder.decode(await this.readBytes(state, path));
  }

  async write(state: HandleState, path: unknown, content: unknown, encoding: unknown): Promise<void> {
    const at = await this.place(state, path, 'writeFile', false);
    const bytes = toBytes(content, encoding);
    const fs = state.namespace.fs;
    try {
      const parent = vfsDirname(at);
      const existing = await fs.stat(parent).catch((error: unknown) => {
        if (isVfsError(error, 'ENOENT')) return null;
        throw error;
      });
      if (existing === null) await fs.mkdir(parent, { recursive: true, mode: 0o755 });
      else if (existing.type !== 'directory') throw notDirectoryError(path as string, 'writeFile');
      await fs.writeFile(at, bytes, { mode: 'truncate' });
    } catch (error) {
      throw fileError(error, path as string, 'writeFile');
    }
  }

  async list(state: HandleState, path: unknown): Promise<FileEntry[]> {
    assertPathArgument(path);
    return hasGlobMagic(path) ? this.glob(state, path) : this.listDirectory(state, path);
  }

  async size(state: HandleState, path: unknown): Promise<number | null> {
    let at: string;
    try {
      at = await this.place(state, path, 'fileSize', true);
    } catch (error) {
      if (error instanceof InvalidArgumentError) throw error;
      return null; // refused by containment, a loop: a probe never says why
    }
    try {
      const stat = await state.namespace.fs.stat(at);
      return stat.type === 'file' ? stat.size : null;
    } catch {
      return null;
    }
  }

  async realPath(state: HandleState, path: unknown): Promise<string> {
    const at = await this.place(state, path, 'realPath', true);
    try {
      return await physicalPath(state.namespace.fs, at);
    } catch (error) {
      throw fileError(error, path as string, 'realPath');
    }
  }

  private async listDirectory(state: HandleState, path: string): Promise<FileEntry[]> {
    const at = await this.place(state, path, 'listFiles', true);
    const fs = state.namespace.fs;
    try {
      const stat = await fs.stat(at);
      if (stat.type !== 'directory') throw notDirectoryError(path, 'listFiles');
      const entries = await fs.readdir(at);
      if (entries.length > this.rules.maxListEntries) throw tooManyEntries(path, this.rules.maxListEntries);
      return await Promise.all(entries.map((entry) => describe(fs, joinVfsPath(at, entry.name), entry.type)));
    } catch (error) {
      throw fileError(error, path, 'listFiles');
    }
  }

  private async glob(state: HandleState, pattern: string): Promise<FileEntry[]> {
    const absolute = normalizeVfsPath(pattern, state.cwd);
    const fs = state.namespace.fs;
    const found = new Map<string, FileEntry>();
    for (const expanded of expandBraces(absolute)) {
      const { base, segments } = compileGlob(expanded.split('/').filter((part) => part.length > 0));
      const baseDir = normalizeVfsPath(`/${base.join('/')}`);
      await this.checkContained(state, baseDir, pattern, 'listFiles');
      const stat = await fs.stat(baseDir).catch(() => null);
      if (stat?.type !== 'directory') continue; // a base that does not exist matches nothing
      await this.walkGlob(fs, baseDir, [], segments, found, pattern);
    }
    return [...found.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  private async walkGlob(
    fs: Filesystem,
    dir: string,
    below: readonly string[],
    segments: readonly GlobSegment[],
    found: Map<string, FileEntry>,
    pattern: string,
  ): Promise<void> {
    let entries: Awaited<ReturnType<Filesystem['readdir']>>;
    try {
      entries = await fs.readdir(dir);
    } catch {
      return; // unreadable or vanished mid-walk: nothing to match there
    }
    for (const entry of entries) {
      const parts = [...below, entry.name];
      const { full, descend } = matchParts(segments, parts);
      const path = joinVfsPath(dir, entry.name);
      if (full && entry.type !== 'directory') {
        if (found.size >= this.rules.maxListEntries) throw tooManyEntries(pattern, this.rules.maxListEntries);
        found.set(path, await describe(fs, path, entry.type));
      }
      // Symlinked directories are never descended: no loops, no way out of the workspace.
      if (descend && entry.type === 'directory')
        await this.walkGlob(fs, path, parts, segments, found, pattern);
    }
  }

  /**
   * The absolute virtual path of `path` (relative ones against the handle's cwd), after the
   * containment checks when they apply.
   */
  private async place(
    state: HandleState,
    path: unknown,
    operation: string,
    reading: boolean,
  ): Promise<string> {
    assertPathArgument(path);
    const at = normalizeVfsPath(path, state.cwd);
    if (reading && this.rules.ownsPrivatePath(state, at)) return at;
    await this.checkContained(state, at, path, operation);
    return at;
  }

  private async checkContained(
    state: HandleState,
    at: string,
    original: string,
    operation: string,
  ): Promise<void> {
    const root = this.rules.containRoot;
    if (root === null) return;
    if (!isVfsPathWithin(root, at)) {
      throw new ContainmentError(
        original,
        root,
        original.startsWith('/')
          ? `${operation} of an absolute path outside the root`
          : `${operation}: .. climbs out of the root`,
      );
    }
    let real: string;
    try {
      real = await physicalPath(state.namespace.fs, at);
    } catch (error) {
      if (isVfsError(error, 'ELOOP')) throw fileError(error, original, operation);
      throw error;
    }
    if (!isVfsPathWithin(root, real)) {
      throw new ContainmentError(original, root, `${operation}: a symlink on the way leads to ${real}`);
    }
  }
}

/**
 * Where `path` really is: every symlink on it resolved, including a dangling final one (a write
 * through it would create its target); a part that does not exist yet is kept as given.
 */
export async function physicalPath(fs: Filesystem, path: string, hops = 0): Promise<string> {
  if (hops > MAX_HOPS) throw Object.assign(new Error('symlink loop'), { code: 'ELOOP' });
  try {
    return await fs.realpath(path);
  } catch (error) {
    if (!isVfsError(error, 'ENOENT', 'ENOTDIR')) throw error;
  }
  const stat = await fs.lstat(path).catch(() => null);
  if (stat?.type === 'symlink') {
    const target = await fs.readlink(path);
    return physicalPath(fs, normalizeVfsPath(target, vfsDirname(path)), hops + 1);
  }
  if (path === '/') return path;
  return joinVfsPath(await physicalPath(fs, vfsDirname(path), hops + 1), vfsBasename(path));
}

async function describe(fs: Filesystem, path: string, type: VfsFileType): Promise<FileEntry> {
  const name = vfsBasename(path);
  try {
    const stat = await fs.lstat(path);
    return { path, name, type: entryType(stat.type), size: stat.size, mtimeMs: stat.mtimeMs };
  } catch {
    return { path, name, type: entryType(type) };
  }
}

function entryType(type: VfsFileType): FileEntry['type'] {
  return type === 'file' || type === 'directory' || type === 'symlink' ? type : 'other';
}

/** A filesystem failure as berth's typed error, naming the caller's path. */
function fileError(error: unknown, path: string, operation: string): Error {
  if (error instanceof BerthError) return error;
  if (isVfsError(error, 'ENOSPC')) {
    return new IoError(
      `${operation} ${JSON.stringify(path)}: the virtual filesystem is full (${error.message}); remove files or raise the context's budget`,
      { cause: error },
    );
  }
  if (isVfsError(error, 'EROFS')) {
    return new IoError(`${operation} ${JSON.stringify(path)}: it is on a read-only mount`, {
      cause: error,
    });
  }
  if (isVfsError(error, 'ELOOP') || (error as { code?: unknown })?.code === 'ELOOP') {
    return new IoError(
      `${operation} ${JSON.stringify(path)}: too many levels of symbolic links (a loop); fix the links`,
      { cause: error },
    );
  }
  return toFsError(error, path, operation);
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

function tooManyEntries(path: string, max: number): BerthError {
  return new IoError(
    `listFiles ${JSON.stringify(path)}: more than maxListEntries=${max} entries; narrow the path or pattern`,
  );
}

function toBytes(content: unknown, encoding: unknown): Uint8Array {
  if (content instanceof Uint8Array) return content.slice();
  if (typeof content !== 'string') {
    throw new InvalidArgumentError(
      'content',
      `must be a string or a Uint8Array, got ${describeValue(content)}`,
    );
  }
  if (encoding !== undefined && (typeof encoding !== 'string' || !Buffer.isEncoding(encoding))) {
    throw new InvalidArgumentError(
      'encoding',
      `must be a Node BufferEncoding such as "utf8", "base64" or "latin1", got ${describeValue(encoding)}`,
    );
  }
  return Buffer.from(content, (encoding as BufferEncoding | undefined) ?? 'utf8');
}
