/**
 * The bridge between berth's on-disk upper directory and the kernel overlayfs layout. Node has
 * neither `mknod` nor xattr calls, so:
 *
 * - `toKernelLayout` turns berth's markers into the kernel's form before a kernel mounts the
 *   directory: each `.wh.<name>` becomes a `0:0` character device `<name>`, each `.wh..wh..opq`
 *   becomes the `overlay.opaque` xattr (`trusted.` as root, `user.` for an unprivileged mount
 *   with `userxattr`). One `sh` process per call runs every `mknod` and `setfattr` of the batch.
 * - `readOpaqueXattrs` reads the opaque directories a kernel overlay marked, in one `getfattr`
 *   pass over the whole tree (whiteout devices need no bridge: `lstat` shows them).
 * @module
 */
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { OPAQUE_MARKER, WHITEOUT_PREFIX } from './upper-store.js';

export interface KernelLayoutOptions {
  /** `trusted` (root mounts, the default) or `user` (unprivileged mounts with `userxattr`). */
  readonly xattrNamespace?: 'trusted' | 'user' | undefined;
}

export interface KernelLayoutResult {
  readonly whiteouts: number;
  readonly opaqueDirectories: number;
  /** Wall time of the whole translation, the one process included. */
  readonly durationMs: number;
}

/** Translate berth's markers under `upperDir` into devices and xattrs (see the module doc). */
export async function toKernelLayout(
  upperDir: string,
  options: KernelLayoutOptions = {},
): Promise<KernelLayoutResult> {
  const started = performance.now();
  const namespace = options.xattrNamespace ?? 'trusted';
  const whiteouts: string[] = [];
  const opaque: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.name === OPAQUE_MARKER) opaque.push(dir);
      else if (entry.name.startsWith(WHITEOUT_PREFIX)) whiteouts.push(path);
      else if (entry.isDirectory()) await walk(path);
    }
  };
  await walk(upperDir);
  if (whiteouts.length + opaque.length > 0) {
    const lines = ['set -e'];
    for (const marker of whiteouts) {
      const slash = marker.lastIndexOf('/');
      const target = `${marker.slice(0, slash)}/${marker.slice(slash + 1 + WHITEOUT_PREFIX.length)}`;
      lines.push(`rm -f -- ${quote(marker)}`, `[ -e ${quote(target)} ] || mknod -- ${quote(target)} c 0 0`);
    }
    for (const dir of opaque) {
      lines.push(
        `setfattr -n ${namespace}.overlay.opaque -v y -- ${quote(dir)}`,
        `rm -f -- ${quote(join(dir, OPAQUE_MARKER))}`,
      );
    }
    await runScript(lines.join('\n'));
  }
  return {
    whiteouts: whiteouts.length,
    opaqueDirectories: opaque.length,
    durationMs: performance.now() - started,
  };
}

/**
 * Upper-relative paths (`/a/b`) of the directories carrying `trusted.overlay.opaque` or
 * `user.overlay.opaque` under `upperDir`. Empty when `getfattr` is not installed (then only
 * berth's own markers mark opacity; docs/vfs.md says so).
 */
export async function readOpaqueXattrs(upperDir: string): Promise<Set<string>> {
  const found = new Set<string>();
  const output = await capture('getfattr', [
    '--absolute-names',
    '-R',
    '-P',
    '-d',
    '-m',
    '^(trusted|user)\\.overlay\\.opaque$',
    '--',
    upperDir,
  ]).catch(() => '');
  let current: string | null = null;
  for (const line of output.split('\n')) {
    if (line.startsWith('# file: ')) current = line.slice('# file: '.length);
    else if (current !== null && /^(trusted|user)\.overlay\.opaque="y"$/.test(line)) {
      const relative = current === upperDir ? '/' : current.slice(upperDir.length);
      found.add(relative.length === 0 ? '/' : relative);
    }
  }
  return found;
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function runScript(script: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-s'], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `the kernel-layout translation failed (exit ${code}): ${stderr.trim()}; mknod and setfattr (package attr) must be installed and allowed`,
          ),
        );
    });
    child.stdin.end(script);
  });
}

function capture(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}
