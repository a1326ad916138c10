/**
 * The bridge between berth's on-disk upper directory and the kernel overlayfs layout. Node has
 * neither `mknod` nor xattr calls, so:
 *
 * - `toKernelLayout` turns berth's markers into the kernel's form before a kernel mounts the
 *   directory: each `.wh.<name>` becomes a `0:0` character device `<name>`, each `.wh..wh..opq`
 *   becomes the `overlay.opaque` xattr (`trusted.` as root, `user.` for an unprivileged mount
 *   with `userxattr`). A small batch runs in one `sh` (a `mknod` per whiteout, one
 *   `setfattr --restore` for every xattr); from 32 whiteouts on, one `python3` process does the
 *   whole batch (`os.mknod`, `os.setxattr`) when python3 is installed.
 * - `readOpaqueXattrs` reads the opaque directories a kernel overlay marked, in one `getfattr`
 *   pass over the whole tree (whiteout devices need no bridge: `lstat` shows them).
 * @module
 */
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { IoError } from '../../errors/index.js';
import { OPAQUE_MARKER, WHITEOUT_PREFIX } from './upper-store.js';

export interface KernelLayoutOptions {
  /** `trusted` (root mounts, the default) or `user` (unprivileged mounts with `userxattr`). */
  readonly xattrNamespace?: 'trusted' | 'user' | undefined;
  /** Use the `sh` + `mknod` + `setfattr` path even for a large batch where python3 is installed. */
  readonly withoutPython?: boolean | undefined;
}

export interface KernelLayoutResult {
  readonly whiteouts: number;
  readonly opaqueDirectories: number;
  /** Which bridge ran: `python3` (one process) or `sh` (one process, one mknod per whiteout). */
  readonly bridge: 'python3' | 'sh' | 'none';
  /** Wall time of the whole translation, the processes included. */
  readonly durationMs: number;
}

/** From this many whiteouts on, the batch goes to python3 (when installed). */
const PYTHON_FROM = 32;

const PYTHON_BRIDGE = `
import json, os, stat, sys
job = json.load(sys.stdin)
for marker, target in job["pairs"]:
    if os.path.lexists(marker):
        os.remove(marker)
    if not os.path.lexists(target):
        os.mknod(target, stat.S_IFCHR | 0o600, 0)
for d in job["opaque"]:
    os.setxattr(d, job["namespace"] + ".overlay.opaque", b"y", follow_symlinks=False)
    m = os.path.join(d, job["marker"])
    if os.path.lexists(m):
        os.remove(m)
`;

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
  let bridge: KernelLayoutResult['bridge'] = 'none';
  if (whiteouts.length + opaque.length > 0) {
    const pairs = whiteouts.map((marker) => {
      const slash = marker.lastIndexOf('/');
      return [
        marker,
        `${marker.slice(0, slash)}/${marker.slice(slash + 1 + WHITEOUT_PREFIX.length)}`,
      ] as const;
    });
    // python3 starts slower than sh but then needs no process per whiteout: it wins from a few
    // dozen whiteouts on (measured: docs/vfs.md).
    if (!options.withoutPython && pairs.length >= PYTHON_FROM && (await hasCommand('python3'))) {
      bridge = 'python3';
      await runProcess(
        'python3',
        ['-c', PYTHON_BRIDGE],
        JSON.stringify({ pairs, opaque, namespace, marker: OPAQUE_MARKER }),
      );
    } else {
      bridge = 'sh';
      const lines = ['set -e'];
      for (const [marker, target] of pairs) {
        lines.push(`rm -f -- ${quote(marker)}`, `[ -e ${quote(target)} ] || mknod -- ${quote(target)} c 0 0`);
      }
      if (opaque.length > 0) {
        const dump = opaque.map((dir) => `# file: ${dir}\n${namespace}.overlay.opaque="y"\n`).join('\n');
        lines.push(`setfattr --restore=- <<'BERTH_XATTRS'`, dump, 'BERTH_XATTRS');
        for (const dir of opaque) lines.push(`rm -f -- ${quote(join(dir, OPAQUE_MARKER))}`);
      }
      await runProcess('sh', ['-s'], `${lines.join('\n')}\n`);
    }
  }
  return {
    whiteouts: whiteouts.length,
    opaqueDirectories: opaque.length,
    bridge,
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
    if (line.startsWith('# file: ')) current = unescapeName(line.slice('# file: '.length));
    else if (current !== null && /^(trusted|user)\.overlay\.opaque="y"$/.test(line)) {
      const relative = current === upperDir ? '/' : current.slice(upperDir.length);
      found.add(relative.length === 0 ? '/' : relative);
    }
  }
  return found;
}

/** getfattr writes unusual bytes of a name as `\ooo`. */
function unescapeName(name: string): string {
  if (!name.includes('\\')) return name;
  const bytes: number[] = [];
  for (let index = 0; index < name.length; index++) {
    const octal = name.slice(index + 1, index + 4);
    if (name[index] === '\\' && /^[0-7]{3}$/.test(octal)) {
      bytes.push(Number.parseInt(octal, 8));
      index += 3;
    } else {
      bytes.push(...Buffer.from(name[index]!));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function runProcess(command: string, args: readonly string[], input: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else {
        reject(
          new IoError(
            `the kernel-layout translation failed (${command} exit ${code}): ${stderr.trim()}; it needs mknod and xattrs (python3, or mknod and setfattr from the attr package) on a filesystem with xattr support`,
          ),
        );
      }
    });
    // A translator that dies before reading its script reports through its exit code; an
    // unhandled EPIPE here would end the host instead.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

async function hasCommand(name: string): Promise<boolean> {
  return capture('sh', ['-c', `command -v ${name}`]).then(
    (out) => out.trim().length > 0,
    () => false,
  );
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
