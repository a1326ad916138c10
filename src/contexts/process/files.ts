/**
 * The file methods: the contained local filesystem, plus one exception to containment: the files
 * berth itself wrote for the handle in the context's private directory (its background tasks'
 * logs, its spill files, its saved outputs), read through the context (`readFile(handle, path)`)
 * and only while each is the very file berth created.
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
import type { HandleState } from './handle-state.js';

// ignoreBOM keeps a leading U+FEFF, so a read-modify-write does not strip it.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

export class ProcessFiles {
  constructor(private readonly deps: ProcessDeps) {}

  async readBytes(state: HandleState, path: unknown): Promise<Uint8Array> {
    assertPathArgument(path);
    const own = this.ownFile(state, path);
    if (own?.kind === 'log') return this.deps.files.readLog(own.path, this.deps.config.maxReadBytes);
    if (own?.kind === 'kept') return this.deps.files.readKept(own.path, this.deps.config.maxReadBytes);
    refuseOverlay(state);
    return this.deps.fs.readFile(path, { cwd: state.cwd });
  }

  async readRange(state: HandleState, path: unknown, offset: number, length: number): Promise<Uint8Array> {
    assertPathArgument(path);
    const own = this.ownFile(state, path);
    if (own?.kind === 'log') return this.deps.files.readLogRange(own.path, offset, length);
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
    const own = this.ownFile(state, path);
    if (own?.kind === 'log') return this.deps.files.logSize(own.path);
    if (own?.kind === 'kept') return this.deps.files.keptSize(own.path);
    refuseOverlay(state);
    return this.deps.fs.size(path, { cwd: state.cwd });
  }

  async realPath(state: HandleState, path: unknown): Promise<string> {
    assertPathArgument(path);
    const own = this.ownFile(state, path);
    if (own !== undefined) return own.path;
    refuseOverlay(state);
    return this.deps.fs.realPath(path, { cwd: state.cwd });
  }

  /** Keep `text` as a private file of the handle that its file methods read back; its path. */
  keep(state: HandleState, label: unknown, text: unknown): string {
    if (typeof label !== 'string' || label.length === 0)
      throw new InvalidArgumentError('label', `must be a non-empty string, got ${describeValue(label)}`);
    return this.deps.files.keepBytes(state.id, label, toBytes(text, undefined));
  }

  /** A log of this handle's background tasks, or a spill or saved output of this handle. */
  private ownFile(state: HandleState, path: string): { kind: 'log' | 'kept'; path: string } | undefined {
    const absolute = resolve(state.cwd, path);
    if (this.deps.registry.ownsOutputPath(state.id, absolute)) return { kind: 'log', path: absolute };
    if (this.deps.files.ownsKept(state.id, absolute)) return { kind: 'kept', path: absolute };
    return undefined;
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
 * there rather than reading past (or writing around) the handle's pending changes. The files berth
 * wrote for the handle (task logs, spills, saved outputs: private, outside the workspace) stay
 * readable.
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
