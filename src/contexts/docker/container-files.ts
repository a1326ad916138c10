/**
 * Files inside a container through the engine's archive API: `HEAD` for a stat, `GET` for a tar
 * of one path (read), `PUT` of a tar (write). Bytes travel verbatim; no shell is involved.
 * @module
 */
import { posix } from 'node:path';
import { encodeTar, TarDecoder } from '../../archive/tar-codec.js';
import { BerthError, FileTooLargeError, IoError, NotFoundError } from '../../errors/index.js';
import { isDirectoryError, notDirectoryError } from '../../vfs/fs-errors.js';
import type { EngineClient } from './engine-client.js';
import { containerErrorOf } from './engine-exec.js';
import { DockerApiError } from './errors.js';

/** What the engine reports about a path (from `X-Docker-Container-Path-Stat`). */
export interface PathStat {
  readonly name: string;
  readonly size: number;
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
  /** Permission bits. */
  readonly mode: number;
  readonly mtimeMs: number;
  /** For a symlink: the absolute path it resolves to, as the engine resolved it. */
  readonly linkTarget: string;
}

// Go's os.FileMode type bits, as the engine encodes them.
const MODE_DIR = 0x80000000 | 0;
const MODE_SYMLINK = 1 << 27;
// dir | symlink | device | named pipe | socket | char device | irregular
const MODE_TYPE_BITS = MODE_DIR | (1 << 27) | (1 << 26) | (1 << 25) | (1 << 24) | (1 << 21) | (1 << 19);
/** Symlink hops followed before giving up (the kernel's own limit). */
const MAX_LINK_HOPS = 40;

function parseStatHeader(header: string | string[] | undefined): PathStat | null {
  if (typeof header !== 'string') return null;
  const raw = JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as {
    name: string;
    size: number;
    mode: number;
    mtime: string;
    linkTarget: string;
  };
  const bits = raw.mode >>> 0;
  const type: PathStat['type'] =
    (bits & MODE_DIR) !== 0
      ? 'directory'
      : (bits & MODE_SYMLINK) !== 0
        ? 'symlink'
        : (bits & MODE_TYPE_BITS) === 0
          ? 'file'
          : 'other';
  return {
    name: raw.name,
    size: raw.size,
    type,
    mode: bits & 0o7777,
    mtimeMs: Date.parse(raw.mtime),
    linkTarget: raw.linkTarget,
  };
}

function archivePath(containerId: string): string {
  return `/containers/${encodeURIComponent(containerId)}/archive`;
}

/** A path error the engine reports for a path inside the container, as a typed file error. */
function pathError(error: unknown, path: string, operation: string): unknown {
  if (error instanceof DockerApiError && !/no such container/i.test(error.engineMessage)) {
    if (/not a directory/i.test(error.engineMessage)) return notDirectoryError(path, operation);
    if (error.statusCode === 404 || /no such file or directory/i.test(error.engineMessage)) {
      return new NotFoundError(path, 'file');
    }
  }
  return error;
}

/**
 * Stat `path` without following a final symlink; null when it does not exist.
 * @throws E_NOT_DIRECTORY when a component of the path is a file.
 */
export async function statPath(
  client: EngineClient,
  containerId: string,
  path: string,
): Promise<PathStat | null> {
  try {
    const res = await client.stream({ method: 'HEAD', path: archivePath(containerId), query: { path } });
    res.resume();
    return parseStatHeader(res.headers['x-docker-container-path-stat']);
  } catch (error) {
    const missing =
      error instanceof DockerApiError &&
      error.statusCode === 404 &&
      !/no such container/i.test(error.engineMessage);
    if (missing) return null;
    if (error instanceof DockerApiError && error.statusCode === 500) {
      // A HEAD answer has no body; ask again with GET to learn why.
      try {
        const res = await client.stream({ method: 'GET', path: archivePath(containerId), query: { path } });
        res.destroy();
      } catch (detailed) {
        const mapped = pathError(detailed, path, 'stat');
        if (mapped instanceof NotFoundError) return null;
        throw containerErrorOf(mapped, containerId);
      }
    }
    throw containerErrorOf(error, containerId);
  }
}

/** Stat `path`, following symlinks; null when it (or a link target) does not exist. */
export async function statFollow(
  client: EngineClient,
  containerId: string,
  path: string,
): Promise<PathStat | null> {
  let current = path;
  for (let hop = 0; hop <= MAX_LINK_HOPS; hop++) {
    const stat = await statPath(client, containerId, current);
    if (stat === null || stat.type !== 'symlink') return stat;
    current = posix.resolve(posix.dirname(current), stat.linkTarget);
  }
  return null;
}

function tooLarge(path: string, size: number, maxBytes: number): BerthError {
  return new FileTooLargeError(
    `readFile ${JSON.stringify(path)}: the file has ${size} bytes, more than the ${maxBytes}-byte read limit; read a part with exec (e.g. head -c) or raise maxReadBytes`,
  );
}

/**
 * Read a regular file's bytes, following symlinks.
 * @throws NotFoundError, E_IS_DIRECTORY, E_FILE_TOO_LARGE
 */
export async function readContainerFile(
  client: EngineClient,
  containerId: string,
  path: string,
  maxBytes: number,
): Promise<Uint8Array> {
  let current = path;
  for (let hop = 0; hop <= MAX_LINK_HOPS; hop++) {
    let res: import('node:http').IncomingMessage;
    try {
      res = await client.stream({ method: 'GET', path: archivePath(containerId), query: { path: current } });
    } catch (error) {
      const mapped = pathError(error, path, 'readFile');
      throw mapped instanceof NotFoundError
        ? new NotFoundError(path, 'file')
        : containerErrorOf(mapped, containerId);
    }
    const stat = parseStatHeader(res.headers['x-docker-container-path-stat']);
    if (stat?.type === 'directory') {
      res.destroy();
      throw isDirectoryError(path, 'readFile');
    }
    if (stat?.type === 'symlink') {
      res.destroy();
      current = posix.resolve(posix.dirname(current), stat.linkTarget);
      continue;
    }
    if (stat !== null && stat.size > maxBytes) {
      res.destroy();
      throw tooLarge(path, stat.size, maxBytes);
    }
    return collectFirstFile(res, path, maxBytes);
  }
  throw new IoError(`readFile ${JSON.stringify(path)}: more than ${MAX_LINK_HOPS} symlink hops`);
}

function collectFirstFile(
  res: import('node:http').IncomingMessage,
  path: string,
  maxBytes: number,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let seen = false;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      res.destroy();
      reject(error);
    };
    const decoder = new TarDecoder({
      onEntry(entry) {
        if (seen) return false;
        seen = true;
        if (entry.type === 'directory') fail(isDirectoryError(path, 'readFile'));
        else if (entry.size > maxBytes) fail(tooLarge(path, entry.size, maxBytes));
        return true;
      },
      onData(data) {
        size += data.length;
        chunks.push(Buffer.from(data));
      },
    });
    res.on('data', (chunk: Buffer) => {
      if (failed) return;
      try {
        decoder.push(chunk);
        if (decoder.done) res.destroy();
      } catch (error) {
        fail(error);
      }
    });
    const finish = () => {
      if (failed) return;
      if (!seen) {
        fail(new IoError(`readFile ${JSON.stringify(path)}: the engine sent an empty archive`));
        return;
      }
      const out = new Uint8Array(size);
      let offset = 0;
      for (const chunk of chunks) {
        out.set(chunk, offset);
        offset += chunk.length;
      }
      resolve(out);
    };
    res.on('end', () => {
      try {
        if (!decoder.done) decoder.end();
        finish();
      } catch (error) {
        fail(error);
      }
    });
    res.on('close', () => {
      if (decoder.done) finish();
    });
    res.on('error', (error) => {
      if (!decoder.done) fail(error);
    });
  });
}

/**
 * Write `data` to the absolute `path` as the engine (root), creating missing parent directories
 * (0755). An existing file keeps its permission bits; a new one gets 0644.
 * @param readOnlyRoot - the container's root is read-only: the archive is then unpacked at the
 *   deepest existing directory above the file (the engine accepts it there when that directory is
 *   on a volume or mount) rather than at `/`, which it always refuses on a read-only root.
 */
export async function writeContainerFile(
  client: EngineClient,
  containerId: string,
  path: string,
  data: Uint8Array,
  readOnlyRoot = false,
): Promise<void> {
  // Write where a symlink points, like a shell redirect would.
  let target = path;
  let existing: PathStat | null = null;
  for (let hop = 0; hop <= MAX_LINK_HOPS; hop++) {
    try {
      existing = await statPath(client, containerId, target);
    } catch (error) {
      if (error instanceof BerthError && error.code === 'E_NOT_DIRECTORY')
        throw notDirectoryError(path, 'writeFile');
      throw error;
    }
    if (existing === null || existing.type !== 'symlink') break;
    target = posix.resolve(posix.dirname(target), existing.linkTarget);
  }
  if (existing?.type === 'directory') throw isDirectoryError(path, 'writeFile');
  const base = readOnlyRoot ? await existingAncestor(client, containerId, target) : '/';
  const name = posix.relative(base, target);
  const tar = encodeTar([{ name, data, mode: existing?.mode ?? 0o644 }]);
  try {
    await client.json({
      method: 'PUT',
      path: archivePath(containerId),
      query: { path: base },
      body: tar,
      contentType: 'application/x-tar',
    });
  } catch (error) {
    if (error instanceof DockerApiError && error.statusCode !== 404) {
      throw new IoError(
        `writeFile ${JSON.stringify(path)} failed: ${error.engineMessage}${readOnlyRoot ? ' (the root filesystem is read-only: files can be written only in mounts and volumes, such as the working directory and /tmp of hardening "recommended")' : ''}`,
        { cause: error },
      );
    }
    throw containerErrorOf(error, containerId);
  }
}

/** The deepest directory above `path` that exists (a missing one is created by the archive). */
async function existingAncestor(client: EngineClient, containerId: string, path: string): Promise<string> {
  let directory = posix.dirname(path);
  while (directory !== '/') {
    const stat = await statPath(client, containerId, directory);
    if (stat?.type === 'directory' || stat?.type === 'symlink') return directory;
    if (stat !== null) throw notDirectoryError(path, 'writeFile');
    directory = posix.dirname(directory);
  }
  return '/';
}
