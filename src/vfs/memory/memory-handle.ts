/**
 * An open file of the memory filesystem: it holds the inode, not the path, so a file renamed or
 * unlinked while open is still read and written (its bytes are released on the last close).
 * @module
 */
import { VfsError, type VfsFileHandle, type VfsStat } from '../filesystem.js';
import type { MemoryTree } from './memory-tree.js';
import type { DirNode, FileNode } from './nodes.js';

export class MemoryFileHandle implements VfsFileHandle {
  private position = 0;
  private closed = false;

  constructor(
    private readonly tree: MemoryTree,
    private readonly node: FileNode | DirNode,
    private readonly path: string,
    private readonly access: {
      readonly readable: boolean;
      readonly writable: boolean;
      readonly append: boolean;
    },
  ) {
    if (node.type === 'file') node.openCount++;
  }

  async read(length: number, position?: number): Promise<Uint8Array> {
    const node = this.usable('read', this.access.readable);
    checkCount(length, position, this.path, 'read');
    const from = position ?? this.position;
    const bytes = node.read(from, length);
    if (position === undefined) this.position += bytes.length;
    return bytes;
  }

  async write(data: Uint8Array, position?: number): Promise<void> {
    const node = this.usable('write', this.access.writable);
    if (!(data instanceof Uint8Array)) {
      throw new VfsError('EINVAL', 'write', this.path, { detail: 'data must be a Uint8Array' });
    }
    checkCount(data.length, position, this.path, 'write');
    if (data.length === 0) return; // write(2) of nothing moves nothing, not even in append mode
    // O_APPEND: every write goes to the end, whatever position says (Linux ignores it too).
    const at = this.access.append ? node.size : (position ?? this.position);
    this.tree.writeAt(node, at, data, 'write', this.path);
    if (position === undefined || this.access.append) this.position = at + data.length;
  }

  async truncate(length: number): Promise<void> {
    const node = this.usable('ftruncate', this.access.writable);
    if (!Number.isSafeInteger(length) || length < 0) {
      throw new VfsError('EINVAL', 'ftruncate', this.path, {
        detail: 'length must be a non-negative integer',
      });
    }
    this.tree.truncate(node, length, 'ftruncate', this.path);
  }

  async stat(): Promise<VfsStat> {
    if (this.closed) throw new VfsError('EBADF', 'fstat', this.path);
    return this.tree.statOf(this.node);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const node = this.node;
    if (node.type !== 'file') return;
    node.openCount--;
    if (node.openCount === 0 && node.nlink === 0) this.tree.dropNode(node);
  }

  private usable(syscall: string, allowed: boolean): FileNode {
    if (this.closed || !allowed) throw new VfsError('EBADF', syscall, this.path);
    if (this.node.type !== 'file') throw new VfsError('EISDIR', syscall, this.path);
    return this.node;
  }
}

function checkCount(count: number, position: number | undefined, path: string, syscall: string): void {
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new VfsError('EINVAL', syscall, path, { detail: 'length must be a non-negative integer' });
  }
  if (position !== undefined && (!Number.isSafeInteger(position) || position < 0)) {
    throw new VfsError('EINVAL', syscall, path, { detail: 'position must be a non-negative integer' });
  }
}
