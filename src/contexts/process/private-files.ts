/**
 * The context's private directory (0700, created on first use): per-handle spill files and the
 * background logs. A handle's spill files go when it is destroyed; a log goes when the handle that
 * owns its task (after any reassignment) is destroyed. Whatever is left goes when the host exits.
 * @module
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createPrivateDir, removePrivateDir } from '../../subprocess/private-dir.js';

const liveDirs = new Set<string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const dir of liveDirs) removePrivateDir(dir);
  });
}

/** Lazily created private directory of one context. */
export class PrivateFiles {
  private root: string | undefined;
  private readonly made = new Set<string>();

  /** The context's directory, created (0700) on first use. */
  dir(): string {
    if (this.root === undefined) {
      this.root = createPrivateDir('berth-process-');
      liveDirs.add(this.root);
      installExitHook();
    }
    return this.root;
  }

  /** Spill directory of one handle (0700). */
  spillDir(handleId: string): string {
    const dir = join(this.dir(), handleId);
    if (!this.made.has(dir)) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      this.made.add(dir);
    }
    return dir;
  }

  /** Directory of background logs (0700). */
  logDir(): string {
    const dir = join(this.dir(), 'logs');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  /** Remove one handle's spill files. */
  removeHandle(handleId: string): void {
    if (this.root === undefined) return;
    const dir = join(this.root, handleId);
    rmSync(dir, { recursive: true, force: true });
    this.made.delete(dir);
  }

  /** Remove specific files (logs of destroyed handles). */
  removeFiles(paths: readonly string[]): void {
    for (const path of paths) rmSync(path, { force: true });
  }

  /** Remove everything. */
  removeAll(): void {
    if (this.root === undefined) return;
    removePrivateDir(this.root);
    liveDirs.delete(this.root);
    this.made.clear();
    this.root = undefined;
  }
}
