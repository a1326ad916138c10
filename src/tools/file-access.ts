/**
 * Whole-file reads guarded by a size probe first: a read lands in host memory wherever the file
 * lives, so a file over the limit is refused before any byte moves.
 * @module
 */
import { posix } from 'node:path';
import type { ContextHandle, ExecutionContext, FileEntry } from '../contract/types.js';
import { isBerthError } from '../errors/index.js';
import { requireMethod } from './capability.js';
import { binaryReason, binaryReasonOfText } from './file-kind.js';
import { formatBytes } from './human-units.js';
import { ToolFailure } from './tool-result.js';

/** Size of the regular file at `path`; a `ToolFailure` that says why when there is none. */
export async function regularFileSize(
  context: ExecutionContext,
  handle: ContextHandle,
  path: string,
): Promise<number> {
  const fileSize = requireMethod(context, 'fileSize', 'file size probes');
  const size = await fileSize(handle, path);
  if (size !== null) return size;
  throw new ToolFailure(await explainNoFile(context, handle, path));
}

/**
 * The context's own refusal of `path` under its containment (outside the workspace root, `..` out,
 * a symlink leading out), or null when the path is inside or the context contains nothing. Asks
 * `realPath` where the context has it, else a listing of the path. Never reads a file.
 */
export async function containmentRefusal(
  context: ExecutionContext,
  handle: ContextHandle,
  path: string,
): Promise<string | null> {
  if (!context.capabilities.containment) return null;
  try {
    if (typeof context.realPath === 'function') await context.realPath(handle, path);
    else await context.listFiles(handle, path);
    return null;
  } catch (error) {
    return isBerthError(error, 'E_CONTAINMENT') ? error.message : null;
  }
}

/** Why `path` is not a readable regular file, found by listing its parent. Never reads the file. */
export async function explainNoFile(
  context: ExecutionContext,
  handle: ContextHandle,
  path: string,
): Promise<string> {
  // The path itself first: `/etc/passwd` is refused as itself, not as its directory `/etc`.
  const refusal = await containmentRefusal(context, handle, path);
  if (refusal !== null) return refusal;
  const parent = posix.dirname(path);
  const name = posix.basename(path);
  let entries: FileEntry[];
  try {
    entries = await context.listFiles(handle, parent);
  } catch (error) {
    // The path is inside but its parent is not: the path is the workspace root, a directory.
    if (isBerthError(error, 'E_CONTAINMENT')) return isDirectoryMessage(path);
    return `No such file: ${path} (its directory ${parent} cannot be listed either). Check the path with list_dir or glob.`;
  }
  const entry = entries.find((e) => e.name === name);
  if (entry === undefined) {
    const similar = similarNames(name, entries);
    const hint = similar.length > 0 ? ` Similar names in ${parent}: ${similar.join(', ')}.` : '';
    return `No such file: ${path}.${hint} Check the path with list_dir or glob.`;
  }
  if (entry.type === 'directory') return isDirectoryMessage(path);
  if (entry.type === 'symlink')
    return `${path} is a symbolic link that does not lead to a readable regular file.`;
  return `${path} is not a regular file (${entry.type}); it cannot be read as a file. Inspect it with bash.`;
}

export function isDirectoryMessage(path: string): string {
  return `${path} is a directory, not a file. Use list_dir or glob to see its contents.`;
}

function similarNames(name: string, entries: readonly FileEntry[]): string[] {
  const lower = name.toLowerCase();
  const stem = lower.replace(/\.[^.]*$/, '');
  return entries
    .filter((e) => {
      const other = e.name.toLowerCase();
      return other !== lower && stem.length > 0 && (other.startsWith(stem) || other.includes(lower));
    })
    .slice(0, 5)
    .map((e) => e.name);
}

/** Refuse a file above `maxFileBytes` with advice that fits a whole-file tool. */
export function assertWithinLimit(path: string, size: number, maxFileBytes: number, advice: string): void {
  if (size <= maxFileBytes) return;
  throw new ToolFailure(
    `${path} is ${formatBytes(size)}, above the ${formatBytes(maxFileBytes)} limit for reading a whole file. ${advice}`,
  );
}

/** A text file's content, decoded. */
export interface LoadedText {
  readonly text: string;
  /** The exact bytes were checked (readFileBytes); false when only the context's decoded text was seen. */
  readonly byteExact: boolean;
}

/**
 * Read `path` as UTF-8 text, refusing binary content. Prefers `readFileBytes` so invalid UTF-8 is
 * detected instead of silently replaced.
 */
export async function loadText(
  context: ExecutionContext,
  handle: ContextHandle,
  path: string,
): Promise<LoadedText> {
  if (typeof context.readFileBytes === 'function') {
    const bytes = await context.readFileBytes(handle, path);
    const reason = binaryReason(bytes);
    if (reason !== null) throw new ToolFailure(binaryMessage(path, bytes.length, reason));
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    if (!Buffer.from(text, 'utf8').equals(bytes))
      throw new ToolFailure(binaryMessage(path, bytes.length, 'it is not valid UTF-8 text'));
    return { text, byteExact: true };
  }
  const text = await context.readFile(handle, path);
  const reason = binaryReasonOfText(text);
  if (reason !== null) throw new ToolFailure(binaryMessage(path, Buffer.byteLength(text), reason));
  return { text, byteExact: false };
}

/** The refusal for binary content. */
export function binaryMessage(path: string, size: number, reason: string): string {
  return (
    `${path} is a binary file (${formatBytes(size)}; ${reason}). read_file shows text and images ` +
    `(PNG, JPEG, GIF, WebP) only. Inspect it with bash instead, e.g. \`file ${path}\` or \`xxd ${path} | head -n 20\`.`
  );
}
