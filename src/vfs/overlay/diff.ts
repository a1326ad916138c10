/**
 * The overlay's changes as a git-style unified diff: `diff --git` headers, file modes, `/dev/null`
 * for added and deleted files, hunks with three lines of context (the `diff` package computes
 * them), symlinks as their targets. Binary files (a NUL byte, or not UTF-8) and files larger than
 * `maxFileBytes` are named, not dumped. A deleted directory lists each file it held.
 * @module
 */
import { structuredPatch } from 'diff';
import type { Filesystem, VfsFileType } from '../filesystem.js';
import type { Overlay, OverlayChange } from './overlay.js';

export interface DiffOptions {
  /** Only changes at or under these paths (default: all). */
  readonly paths?: readonly string[] | undefined;
  /** Lines of context around each hunk; default 3. */
  readonly context?: number | undefined;
  /** Files larger than this are named, not diffed; default 4 MiB. */
  readonly maxFileBytes?: number | undefined;
}

const DEFAULT_MAX_FILE_BYTES = 4 * 1024 * 1024;
const decoder = new TextDecoder('utf-8', { fatal: true });

interface Side {
  readonly type: VfsFileType | null;
  readonly mode: number;
  readonly text: string | null;
  /** Not shown as text (binary or too large), with why. */
  readonly opaque: 'binary' | 'large' | null;
}

const NONE: Side = { type: null, mode: 0, text: null, opaque: null };

export async function diffChanges(
  overlay: Overlay,
  changes: readonly OverlayChange[],
  options: DiffOptions,
): Promise<string> {
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const context = options.context ?? 3;
  const parts: string[] = [];
  for (const change of changes) {
    if (change.type === 'directory' && change.lowerType === 'directory') continue; // a mode change of a directory
    if (change.type === null && change.lowerType === 'directory') {
      for (const file of await filesBelow(overlay.lower, change.path)) {
        parts.push(render(file, await side(overlay.lower, file, maxBytes), NONE, context));
      }
      continue;
    }
    const before =
      change.lowerType === null || change.lowerType === 'directory'
        ? NONE
        : await side(overlay.lower, change.path, maxBytes);
    const after =
      change.type === null || change.type === 'directory' ? NONE : await side(overlay, change.path, maxBytes);
    if (before.type === null && after.type === null) continue;
    parts.push(render(change.path, before, after, context));
  }
  return parts.join('');
}

async function side(fs: Filesystem, path: string, maxBytes: number): Promise<Side> {
  const stat = await fs.lstat(path);
  if (stat.type === 'symlink')
    return { type: 'symlink', mode: 0o120000, text: await fs.readlink(path), opaque: null };
  if (stat.type !== 'file') return { type: stat.type, mode: stat.mode, text: null, opaque: 'binary' };
  const mode = 0o100000 | stat.mode;
  if (stat.size > maxBytes) return { type: 'file', mode, text: null, opaque: 'large' };
  const bytes = await fs.readFile(path);
  if (bytes.subarray(0, 8000).includes(0)) return { type: 'file', mode, text: null, opaque: 'binary' };
  try {
    return { type: 'file', mode, text: decoder.decode(bytes), opaque: null };
  } catch {
    return { type: 'file', mode, text: null, opaque: 'binary' };
  }
}

function render(path: string, before: Side, after: Side, context: number): string {
  const name = path.slice(1);
  const lines = [`diff --git a/${name} b/${name}`];
  if (before.type === null) lines.push(`new file mode ${octal(after.mode)}`);
  else if (after.type === null) lines.push(`deleted file mode ${octal(before.mode)}`);
  else if (before.mode !== after.mode)
    lines.push(`old mode ${octal(before.mode)}`, `new mode ${octal(after.mode)}`);
  const from = before.type === null ? '/dev/null' : `a/${name}`;
  const to = after.type === null ? '/dev/null' : `b/${name}`;
  if (before.opaque || after.opaque) {
    const why = before.opaque === 'large' || after.opaque === 'large' ? 'Large files' : 'Binary files';
    lines.push(`${why} ${from} and ${to} differ`);
    return `${lines.join('\n')}\n`;
  }
  const oldText = before.text ?? '';
  const newText = after.text ?? '';
  if (oldText === newText) return before.mode === after.mode ? '' : `${lines.join('\n')}\n`;
  const patch = structuredPatch(from, to, oldText, newText, undefined, undefined, { context });
  lines.push(`--- ${from}`, `+++ ${to}`);
  for (const hunk of patch.hunks) {
    lines.push(`@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`);
    for (const line of hunk.lines) lines.push(line);
  }
  return `${lines.join('\n')}\n`;
}

function range(start: number, count: number): string {
  if (count === 0) return `${Math.max(0, start - 1)},0`; // an empty side is "after line N", as GNU diff writes
  return count === 1 ? String(start) : `${start},${count}`;
}

function octal(mode: number): string {
  return mode.toString(8).padStart(6, '0');
}

async function filesBelow(fs: Filesystem, path: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await fs.readdir(path)) {
    const child = path === '/' ? `/${entry.name}` : `${path}/${entry.name}`;
    if (entry.type === 'directory') found.push(...(await filesBelow(fs, child)));
    else found.push(child);
  }
  return found;
}
