/**
 * A small hand-written ExecutionContext for testing the suite's own machinery: files live in a
 * Map, there is no shell. It implements the file contract faithfully, so the suite must pass it;
 * `overrides` bend it to stage a broken backend.
 * @module
 */
import { posix } from 'node:path';
import type {
  ContextCapabilities,
  ContextHandle,
  ExecResult,
  ExecutionContext,
  FileEntry,
  SpawnConfig,
} from '../../../src/contract/types.js';
import {
  BerthError,
  CapabilityError,
  InvalidArgumentError,
  NotFoundError,
  UnknownHandleError,
} from '../../../src/errors/index.js';

export const MEMORY_CAPABILITIES: ContextCapabilities = {
  shell: false,
  filesystem: true,
  network: false,
  stream: false,
  terminal: false,
  background: false,
  backgroundStdin: false,
  glob: false,
  ports: false,
  containment: false,
  isolation: 'virtual',
};

const GLOB_CHARS = /[*?[\]{}]/;

/** Builds the in-memory context; `overrides` replace capabilities or methods. */
export function createMemoryContext(
  overrides: Partial<Omit<ExecutionContext, 'capabilities'>> & {
    capabilities?: Partial<ContextCapabilities>;
  } = {},
): ExecutionContext {
  const files = new Map<string, Uint8Array | 'dir'>([['/', 'dir']]);
  const handles = new Map<string, ContextHandle>();
  let nextId = 0;

  const checkShape = (handle: ContextHandle): void => {
    if (typeof handle !== 'object' || handle === null || typeof handle.id !== 'string') {
      throw new InvalidArgumentError(
        'handle',
        `expected a handle returned by spawn(), got ${JSON.stringify(handle)}`,
      );
    }
  };
  const live = (handle: ContextHandle): ContextHandle => {
    checkShape(handle);
    const known = handles.get(handle.id);
    if (!known) throw new UnknownHandleError(handle.id, 'memory');
    return known;
  };
  const resolve = (handle: ContextHandle, path: string): string => {
    if (typeof path !== 'string')
      throw new InvalidArgumentError('path', `expected a string, got ${typeof path}`);
    if (path.includes('\0'))
      throw new InvalidArgumentError('path', `contains a NUL byte: ${JSON.stringify(path)}`);
    return posix.resolve(live(handle).cwd, path);
  };
  const mkdirs = (dir: string): void => {
    if (dir === '/') return;
    mkdirs(posix.dirname(dir));
    const existing = files.get(dir);
    if (existing instanceof Uint8Array) throw new BerthError('E_NOT_DIRECTORY', `not a directory: ${dir}`);
    files.set(dir, 'dir');
  };
  const read = (handle: ContextHandle, path: string): Uint8Array => {
    const abs = resolve(handle, path);
    const entry = files.get(abs);
    if (entry === undefined) throw new NotFoundError(abs);
    if (entry === 'dir') throw new BerthError('E_IS_DIRECTORY', `is a directory: ${abs}`);
    return entry;
  };

  const context: ExecutionContext = {
    type: 'memory',
    capabilities: { ...MEMORY_CAPABILITIES, ...overrides.capabilities },
    spawn: async (config?: SpawnConfig) => {
      const handle = { id: `mem-${nextId++}`, type: 'memory', cwd: config?.cwd ?? '/workspace' };
      mkdirs(handle.cwd);
      handles.set(handle.id, handle);
      return handle;
    },
    exec: async (handle: ContextHandle): Promise<ExecResult> => {
      live(handle);
      throw new CapabilityError('shell commands', 'memory');
    },
    readFile: async (handle, path) => new TextDecoder().decode(read(handle, path)),
    readFileBytes: async (handle, path) => Uint8Array.from(read(handle, path)),
    writeFile: async (handle, path, content, encoding) => {
      const abs = resolve(handle, path);
      if (typeof content !== 'string' && !(content instanceof Uint8Array)) {
        throw new InvalidArgumentError('content', `expected a string or a Uint8Array, got ${typeof content}`);
      }
      if (files.get(abs) === 'dir') throw new BerthError('E_IS_DIRECTORY', `is a directory: ${abs}`);
      mkdirs(posix.dirname(abs));
      const bytes =
        typeof content === 'string'
          ? new Uint8Array(Buffer.from(content, encoding ?? 'utf-8'))
          : Uint8Array.from(content);
      files.set(abs, bytes);
    },
    listFiles: async (handle, path): Promise<FileEntry[]> => {
      if (typeof path === 'string' && GLOB_CHARS.test(path)) {
        live(handle);
        throw new CapabilityError('glob patterns in listFiles', 'memory');
      }
      const abs = resolve(handle, path);
      const entry = files.get(abs);
      if (entry === undefined) throw new NotFoundError(abs, 'directory');
      if (entry !== 'dir') throw new BerthError('E_NOT_DIRECTORY', `not a directory: ${abs}`);
      const prefix = abs === '/' ? '/' : `${abs}/`;
      return [...files.entries()]
        .filter(([p]) => p !== abs && p.startsWith(prefix) && !p.slice(prefix.length).includes('/'))
        .map(([p, value]) => ({
          path: p,
          name: posix.basename(p),
          type: value === 'dir' ? 'directory' : 'file',
          ...(value === 'dir' ? {} : { size: value.length }),
        }));
    },
    fileSize: async (handle, path) => {
      const entry = files.get(resolve(handle, path));
      return entry instanceof Uint8Array ? entry.length : null;
    },
    destroy: async (handle) => {
      checkShape(handle);
      handles.delete(handle.id);
    },
  };
  return Object.assign(context, overrides, { capabilities: context.capabilities });
}
