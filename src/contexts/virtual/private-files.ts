/**
 * The context's private host directory (0700, made on the first spawn): each handle's spill files
 * and the background logs, kept on the host so that they cost no memory of the byte budget. It is
 * mounted read-only into the virtual namespace at its own host path, so a path in `spillPath` or
 * `outputPath` names the same file to the host, to the file methods and to the shell, and no
 * command can change it. A handle's spill directory goes when the handle is destroyed, a log when
 * the handle owning its task is; whatever is left goes when the host process exits.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createPrivateDir, PrivateDirectory, removePrivateDir } from '../../subprocess/private-dir.js';
import { type ContainedFilesystem, createContainedFilesystem } from '../../vfs/contained-fs.js';
import { LogFile } from '../process/log-file.js';

const liveDirs = new Set<string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const dir of liveDirs) removePrivateDir(dir);
  });
}

/** The private directory of one virtual context. */
export class PrivateFiles {
  private root: string | undefined;
  private view: ContainedFilesystem | undefined;
  private logs: PrivateDirectory | undefined;

  /** The directory as a contained filesystem (one for every namespace of the context). */
  filesystem(): ContainedFilesystem {
    this.view ??= createContainedFilesystem({ root: this.dir() });
    return this.view;
  }

  /** The directory, created (0700) on first use. */
  dir(): string {
    if (this.root === undefined) {
      this.root = createPrivateDir('berth-virtual-');
      mkdirSync(join(this.root, 'logs'), { mode: 0o700 });
      liveDirs.add(this.root);
      installExitHook();
    }
    return this.root;
  }

  /** A new handle's spill directory (0700). */
  makeHandleDir(handleId: string): string {
    const dir = join(this.dir(), handleId);
    mkdirSync(dir, { mode: 0o700 });
    return dir;
  }

  /** The handle's spill directory (not created). */
  handleDir(handleId: string): string {
    return join(this.dir(), handleId);
  }

  /** Where background logs live (0700). */
  logDir(): string {
    return join(this.dir(), 'logs');
  }

  /** A new background log (0600, created exclusively through the held logs directory). */
  createLog(maxBytes: number): LogFile {
    this.logs ??= PrivateDirectory.adopt(this.logDir());
    return new LogFile(this.logs, `${randomBytes(8).toString('hex')}.log`, maxBytes);
  }

  removeHandle(handleId: string): void {
    if (this.root !== undefined) rmSync(join(this.root, handleId), { recursive: true, force: true });
  }

  removeFiles(paths: readonly string[]): void {
    for (const path of paths) rmSync(path, { force: true });
  }

  /** Remove the whole directory (the context closed). */
  removeAll(): void {
    if (this.root === undefined) return;
    this.logs?.close();
    this.logs = undefined;
    removePrivateDir(this.root);
    liveDirs.delete(this.root);
    this.root = undefined;
    this.view = undefined;
  }
}
