/**
 * The file methods: the contained local filesystem, plus one exception to containment: the logs
 * of the handle's own background tasks, which live in the context's private directory and are
 * read through the context (`readFile(handle, outputPath)`).
 * @module
 */
import { resolve } from 'node:path';
import { TextDecoder } from 'node:util';
import type { FileEntry } from '../../contract/types.js';
import { describeValue } from '../../contract/validate-options.js';
import { CapabilityError, InvalidArgumentError } from '../../errors/index.js';
import { assertWritable } from '../../sandbox/index.js';
import { hasGlobMagic } from '../../vfs/glob.js';
import { assertPathArgument } from '../../vfs/path-scope.js';
import type { ProcessDeps } from './deps.js';
import type { HandleState } from './handle-table.js';

// ignoreBOM keeps a leading U+FEFF, so a read-modify-write does not strip it.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

export class ProcessFiles {
  constructor(private readonly deps: ProcessDeps) {}

  async readBytes(state: HandleState, path: unknown): Promise<Uint8Array> {
    assertPathArgument(path);
    const log = this.ownLog(state, path);
    if (log !== undefined) return this.deps.files.readLog(log, this.deps.config.maxReadBytes);
    refuseOverlay(state);
    return this.deps.fs.readFile(path, { cwd: state.cwd });
  }

  async readRange(state: HandleState, path: unknown, offset: number, length: number): Promise<Uint8Array> {
    assertPathArgument(path);
    const log = this.ownLog(state, path);
    if (log !== undefined) return this.deps.files.readLogRange(log, offset, length);
    refuseOverlay(state);
    return this.deps.fs.readRange(path, offset, length, { cwd: state.cwd });
  }

  async readText(state: HandleState, path: unknown): Promise<string> {
    return decoder.decode(await this.readBytes(state, path));
  }

  async write(state: HandleState, path: unknown, content: unknown, encoding: unknown): Promise<void> {
    refuseOverlay(state);
    assertPathArgument(path);
    const bytes = toBytes(content, encoding);
    const policy = this.deps.config.sandbox;
    await this.deps.fs.writeFile(path, bytes, {
      cwd: state.cwd,
      beforeMutate: policy ? (realPath) => assertWritable(policy, realPath) : undefined,
    });
  }

  async list(state: HandleState, path: unknown): Promise<FileEntry[]> {
    refuseOverlay(state);
    assertPathArgument(path);
    return hasGlobMagic(path)
      ? this.deps.fs.glob(path, { cwd: state.cwd })
      : this.deps.fs.list(path, { cwd: state.cwd });
  }

  async size(state: HandleState, path: unknown): Promise<number | null> {
    assertPathArgument(path);
    const log = this.ownLog(state, path);
    if (log !== undefined) return this.deps.files.logSize(log);
    refuseOverlay(state);
    return this.deps.fs.size(path, { cwd: state.cwd });
  }

  async realPath(state: HandleState, path: unknown): Promise<string> {
    assertPathArgument(path);
    const log = this.ownLog(state, path);
    if (log !== undefined) return log;
    refuseOverlay(state);
    return this.deps.fs.realPath(path, { cwd: state.cwd });
  }

  /** The absolute path when `path` names a log of this handle's own background tasks. */
  private ownLog(state: HandleState, path: string): string | undefined {
    const absolute = resolve(state.cwd, path);
    return this.deps.registry.ownsOutputPath(state.id, absolute) ? absolute : undefined;
  }
}

function toBytes(content: unknown, encoding: unknown): Uint8Array {
  if (content instanceof Uint8Array) return content;
  if (typeof content !== 'string') {
    throw new InvalidArgumentError(
      'content',
      `must be a string or a Uint8Array, got ${describeValue(content)}`,
    );
  }
  if (encoding !== undefined && (typeof encoding !== 'string' || !Buffer.isEncoding(encoding))) {
    throw new InvalidArgumentError(
      'encoding',
      `must be a Node BufferEncoding such as "utf8", "base64" or "latin1", got ${describeValue(encoding)}`,
    );
  }
  return Buffer.from(content, (encoding as BufferEncoding | undefined) ?? 'utf8');
}

/**
 * berth's own file methods read and write the host's workspace, not a handle's overlay: refused
 * there rather than reading past (or writing around) the handle's pending changes. The handle's
 * own task logs (berth's private files, outside the workspace) stay readable.
 */
function refuseOverlay(state: HandleState): void {
  if (state.overlay) {
    throw new CapabilityError(
      "file methods on a handle with a workspace overlay (they would bypass the handle's changes)",
      'process',
      'read and write files with commands on the handle (cat, tee, a here-document), which see the merged view',
    );
  }
}
