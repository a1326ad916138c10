/**
 * Copy a file, symlink or directory tree from one filesystem to another (what `mv` does across
 * devices, before it deletes the source): bytes streamed in bounded chunks, modes and times kept,
 * with `rename(2)`'s rules for what may be replaced at the destination.
 * @module
 */
import { type Filesystem, isVfsError, VfsError } from './filesystem.js';

export interface CopyEntryOptions {
  /** Replace what is at the destination as `rename(2)` would (a file, or an empty directory). */
  readonly replace: boolean;
}

const COPY_CHUNK = 256 * 1024;

export async function copyEntry(
  from: Filesystem,
  source: string,
  to: Filesystem,
  target: string,
  options: CopyEntryOptions,
): Promise<void> {
  const stat = await from.lstat(source);
  const existing = await to.lstat(target).catch((error: unknown) => {
    if (isVfsError(error, 'ENOENT')) return null;
    throw error;
  });
  if (existing !== null) {
    if (!options.replace) throw new VfsError('EEXIST', 'rename', source, { dest: target });
    if (stat.type === 'directory') {
      if (existing.type !== 'directory') throw new VfsError('ENOTDIR', 'rename', source, { dest: target });
      if ((await to.readdir(target)).length > 0)
        throw new VfsError('ENOTEMPTY', 'rename', source, { dest: target });
      await to.remove(target);
    } else if (existing.type === 'directory') {
      throw new VfsError('EISDIR', 'rename', source, { dest: target });
    } else if (stat.type === 'symlink' || existing.type !== 'file') {
      await to.remove(target);
    }
  }
  await copyTree(from, source, to, target, stat);
}

async function copyTree(
  from: Filesystem,
  source: string,
  to: Filesystem,
  target: string,
  stat: Awaited<ReturnType<Filesystem['lstat']>>,
): Promise<void> {
  if (stat.type === 'symlink') {
    await to.symlink(await from.readlink(source), target);
    return;
  }
  if (stat.type === 'directory') {
    await to.mkdir(target, { mode: stat.mode | 0o700 });
    for (const entry of await from.readdir(source)) {
      const child = `${source === '/' ? '' : source}/${entry.name}`;
      await copyTree(
        from,
        child,
        to,
        `${target === '/' ? '' : target}/${entry.name}`,
        await from.lstat(child),
      );
    }
    await to.chmod(target, stat.mode);
    await to.utimes(target, stat.atimeMs, stat.mtimeMs);
    return;
  }
  if (stat.type !== 'file') {
    throw new VfsError('EINVAL', 'rename', source, {
      detail: `cannot copy a ${stat.type} across filesystems`,
    });
  }
  const input = await from.open(source, { read: true });
  try {
    const output = await to.open(target, { write: true, create: true, truncate: true, mode: stat.mode });
    try {
      for (let position = 0; ; ) {
        const chunk = await input.read(COPY_CHUNK, position);
        if (chunk.length === 0) break;
        await output.write(chunk, position);
        position += chunk.length;
      }
    } finally {
      await output.close();
    }
  } finally {
    await input.close();
  }
  await to.chmod(target, stat.mode);
  await to.utimes(target, stat.atimeMs, stat.mtimeMs);
}
