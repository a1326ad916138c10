/**
 * `/dev` for the virtual shell: `null`, `zero`, `full`, `random`, `urandom`, `stdin`, `stdout`,
 * `stderr` and `fd/N`. The descriptors come from the shell through {@link DevFdTable}, so
 * `cat /dev/stdin`, `echo hi > /dev/stderr` and `diff <(...)`-style `/dev/fd/N` reach what the
 * command has open.
 * @module
 */
import { randomFillSync } from 'node:crypto';
import { nextDeviceId } from './device-ids.js';
import {
  type Filesystem,
  isVfsError,
  type VfsCapabilities,
  type VfsDirEntry,
  VfsError,
  type VfsFileHandle,
  type VfsOpenOptions,
  type VfsReadChunksOptions,
  type VfsStat,
} from './filesystem.js';
import { readChunksVia } from './read-chunks.js';
import { assertAbsoluteVfsPath } from './vfs-path.js';

/** The descriptors a command has open, as the shell knows them. */
export interface DevFdTable {
  /** Open descriptor numbers, ascending (`ls /dev/fd`). */
  descriptors(): readonly number[];
  /**
   * A handle on descriptor `fd` (a `dup`: closing it leaves the descriptor open), or null when
   * `fd` is not open. A pipe reads until its writer closes (an empty read is the end).
   */
  open(fd: number, options: VfsOpenOptions): VfsFileHandle | null | Promise<VfsFileHandle | null>;
}

export interface DevFilesystemOptions {
  /** Where `stdin`, `stdout`, `stderr` and `fd/N` lead; without it they do not exist. */
  readonly fds?: DevFdTable | undefined;
}

type Device = 'null' | 'zero' | 'full' | 'random' | 'urandom';
const DEVICES: Readonly<Record<Device, number>> = {
  null: 0x103,
  zero: 0x105,
  full: 0x107,
  random: 0x108,
  urandom: 0x109,
};
const LINKS: Readonly<Record<string, string>> = { stdin: 'fd/0', stdout: 'fd/1', stderr: 'fd/2' };
const CAPABILITIES: VfsCapabilities = Object.freeze({ symlinks: true, hardLinks: false, readOnly: false });
/** Reads of an endless device are served in pieces no larger than this. */
const MAX_DEVICE_READ = 1024 * 1024;

export function createDevFilesystem(options: DevFilesystemOptions = {}): DevFilesystem {
  return new DevFilesystem(options);
}

/** The device filesystem (see the module doc). Its own `/` is what is mounted at `/dev`. */
export class DevFilesystem implements Filesystem {
  readonly capabilities = CAPABILITIES;
  private readonly dev = nextDeviceId();
  private readonly bootMs = Date.now();

  constructor(private readonly options: DevFilesystemOptions) {}

  async open(path: string, options: VfsOpenOptions): Promise<VfsFileHandle> {
    const node = await this.creatable(path, options.create === true);
    if (node.kind === 'dir') {
      if (options.write || options.append) throw new VfsError('EISDIR', 'open', path);
      return directoryHandle(path, () => this.statOf(node));
    }
    if (node.kind === 'fd') {
      if (options.exclusive) throw new VfsError('EEXIST', 'open', path);
      const handle = await this.options.fds!.open(node.fd, options);
      if (handle === null) throw new VfsError('ENOENT', 'open', path);
      return handle;
    }
    if (node.kind === 'link') throw new VfsError('ENOENT', 'open', path);
    if (options.exclusive) throw new VfsError('EEXIST', 'open', path);
    return deviceHandle(node.device, path, () => this.statOf(node));
  }

  async readFile(path: string): Promise<Uint8Array> {
    const node = await this.node(path, 'open', true);
    if (node.kind === 'device' && node.device !== 'null') {
      throw new VfsError('EINVAL', 'read', path, { detail: 'an endless device; read a range or stream it' });
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    for await (const chunk of this.readChunks(path)) {
      chunks.push(chunk);
      total += chunk.length;
    }
    const whole = new Uint8Array(total);
    let at = 0;
    for (const chunk of chunks) {
      whole.set(chunk, at);
      at += chunk.length;
    }
    return whole;
  }

  async readRange(path: string, offset: number, length: number): Promise<Uint8Array> {
    const handle = await this.open(path, { read: true });
    try {
      return await handle.read(length, offset);
    } finally {
      await handle.close();
    }
  }

  readChunks(path: string, options?: VfsReadChunksOptions): AsyncIterable<Uint8Array> {
    return readChunksVia(this, path, options);
  }

  async writeFile(path: string, data: Uint8Array, options?: { readonly mode?: string }): Promise<void> {
    const node = await this.creatable(path, true);
    if (node.kind === 'dir') throw new VfsError('EISDIR', 'open', path);
    if (options?.mode === 'create-new') throw new VfsError('EEXIST', 'open', path);
    const handle = await this.open(path, { write: true, append: options?.mode === 'append' });
    try {
      await handle.write(data);
    } finally {
      await handle.close();
    }
  }

  async stat(path: string): Promise<VfsStat> {
    return this.statOf(await this.node(path, 'stat', true));
  }

  async lstat(path: string): Promise<VfsStat> {
    return this.statOf(await this.node(path, 'lstat', false));
  }

  async readdir(path: string): Promise<VfsDirEntry[]> {
    const node = await this.node(path, 'scandir', true);
    if (node.kind !== 'dir') throw new VfsError('ENOTDIR', 'scandir', path);
    if (node.name === 'fd') {
      return (this.options.fds?.descriptors() ?? []).map((fd) => ({
        name: String(fd),
        type: 'symlink' as const,
      }));
    }
    const entries: VfsDirEntry[] = Object.keys(DEVICES).map((name) => ({
      name,
      type: 'char-device' as const,
    }));
    entries.push({ name: 'fd', type: 'directory' });
    for (const name of Object.keys(LINKS)) entries.push({ name, type: 'symlink' });
    return entries.sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  async readlink(path: string): Promise<string> {
    const node = await this.node(path, 'readlink', false);
    if (node.kind === 'link') return node.target;
    if (node.kind === 'fd') return `pipe:[${node.fd}]`;
    throw new VfsError('EINVAL', 'readlink', path);
  }

  async realpath(path: string): Promise<string> {
    const node = await this.node(path, 'realpath', true);
    if (node.kind === 'dir') return node.name === '' ? '/' : `/${node.name}`;
    if (node.kind === 'fd') return `/fd/${node.fd}`;
    if (node.kind === 'device') return `/${node.device}`;
    throw new VfsError('ENOENT', 'realpath', path);
  }

  async mkdir(path: string, options?: { readonly recursive?: boolean }): Promise<void> {
    const exists = await this.node(path, 'mkdir', true).then(
      (node) => node.kind === 'dir',
      () => false,
    );
    if (exists && options?.recursive) return;
    throw new VfsError(exists ? 'EEXIST' : 'EPERM', 'mkdir', path, { detail: '/dev holds only its devices' });
  }

  async remove(path: string, options?: { readonly force?: boolean }): Promise<void> {
    const found = await this.node(path, 'unlink', false).catch((error: unknown) => {
      if (options?.force && error instanceof VfsError && error.code === 'ENOENT') return null;
      throw error;
    });
    if (found === null) return;
    throw new VfsError('EPERM', 'unlink', path, { detail: '/dev holds only its devices' });
  }

  async rename(from: string, to: string): Promise<void> {
    throw new VfsError('EPERM', 'rename', from, { dest: to, detail: '/dev holds only its devices' });
  }

  async symlink(target: string, path: string): Promise<void> {
    throw new VfsError('EPERM', 'symlink', target, { dest: path, detail: '/dev holds only its devices' });
  }

  async link(existing: string, path: string): Promise<void> {
    throw new VfsError('EPERM', 'link', existing, { dest: path, detail: '/dev holds only its devices' });
  }

  async chmod(path: string): Promise<void> {
    await this.node(path, 'chmod', true);
    throw new VfsError('EPERM', 'chmod', path, { detail: '/dev holds only its devices' });
  }

  async utimes(path: string): Promise<void> {
    await this.node(path, 'utime', true);
  }

  // --- the fixed tree ---

  /** A name to open; making a new one is refused as a permission error (root's `/dev`, 0755). */
  private async creatable(path: string, create: boolean): Promise<DevNode> {
    try {
      return await this.node(path, 'open', true);
    } catch (error) {
      if (create && isVfsError(error, 'ENOENT') && this.inRoot(path)) {
        throw new VfsError('EACCES', 'open', path, { detail: '/dev holds only its devices' });
      }
      throw error;
    }
  }

  /** Whether `path` names an entry of `/dev` itself (not of `/dev/fd`). */
  private inRoot(path: string): boolean {
    return path.split('/').filter((part) => part !== '' && part !== '.').length === 1;
  }

  private async node(path: string, syscall: string, follow: boolean): Promise<DevNode> {
    assertAbsoluteVfsPath(path, syscall);
    const parts = path.split('/').filter((part) => part !== '' && part !== '.' && part !== '..');
    if (parts.length === 0) return { kind: 'dir', name: '' };
    const [first, second, ...rest] = parts;
    if (rest.length > 0) throw new VfsError(second === undefined ? 'ENOENT' : 'ENOTDIR', syscall, path);
    if (first === 'fd') {
      if (second === undefined) return { kind: 'dir', name: 'fd' };
      const fd = /^(0|[1-9][0-9]{0,8})$/.test(second) ? Number(second) : -1;
      if (fd < 0 || !this.options.fds?.descriptors().includes(fd))
        throw new VfsError('ENOENT', syscall, path);
      return { kind: 'fd', fd };
    }
    if (second !== undefined) {
      throw new VfsError(first! in DEVICES || first! in LINKS ? 'ENOTDIR' : 'ENOENT', syscall, path);
    }
    if (first! in DEVICES) return { kind: 'device', device: first as Device };
    const target = LINKS[first!];
    if (target === undefined) throw new VfsError('ENOENT', syscall, path);
    if (!follow) return { kind: 'link', target };
    return this.node(`/${target}`, syscall, true);
  }

  private statOf(node: DevNode): VfsStat {
    const base = {
      size: 0,
      mtimeMs: this.bootMs,
      atimeMs: this.bootMs,
      ctimeMs: this.bootMs,
      dev: this.dev,
      uid: 0,
      gid: 0,
    };
    switch (node.kind) {
      case 'dir':
        return {
          ...base,
          type: 'directory',
          mode: node.name === '' ? 0o755 : 0o500,
          ino: node.name === '' ? 1 : 2,
          nlink: 2,
        };
      case 'link':
        return {
          ...base,
          type: 'symlink',
          mode: 0o777,
          ino: 10 + node.target.length,
          nlink: 1,
          size: node.target.length,
        };
      case 'fd':
        return { ...base, type: 'symlink', mode: 0o700, ino: 1000 + node.fd, nlink: 1, size: 64 };
      case 'device':
        return {
          ...base,
          type: 'char-device',
          mode: 0o666,
          ino: DEVICES[node.device],
          nlink: 1,
          rdev: DEVICES[node.device],
        };
    }
  }
}

type DevNode =
  | { readonly kind: 'dir'; readonly name: '' | 'fd' }
  | { readonly kind: 'device'; readonly device: Device }
  | { readonly kind: 'link'; readonly target: string }
  | { readonly kind: 'fd'; readonly fd: number };

function deviceHandle(device: Device, path: string, stat: () => VfsStat): VfsFileHandle {
  let closed = false;
  const live = (syscall: string) => {
    if (closed) throw new VfsError('EBADF', syscall, path);
  };
  return {
    async read(length) {
      live('read');
      if (device === 'null') return new Uint8Array(0);
      const bytes = new Uint8Array(Math.min(length, MAX_DEVICE_READ));
      if (device === 'random' || device === 'urandom') randomFillSync(bytes);
      return bytes;
    },
    async write() {
      live('write');
      if (device === 'full') throw new VfsError('ENOSPC', 'write', path);
    },
    async truncate() {
      live('ftruncate');
    },
    async stat() {
      live('fstat');
      return stat();
    },
    async close() {
      closed = true;
    },
  };
}

function directoryHandle(path: string, stat: () => VfsStat): VfsFileHandle {
  const refuse = async (): Promise<never> => {
    throw new VfsError('EISDIR', 'read', path);
  };
  return { read: refuse, write: refuse, truncate: refuse, stat: async () => stat(), close: async () => {} };
}
