/**
 * The operations of the model-based tests: fast-check arbitraries over a small path alphabet (so
 * sequences collide on purpose), an interpreter that runs one operation against a `Filesystem` and
 * says what came out (a value or an error code), and a snapshot of a whole tree.
 */
import fc from 'fast-check';
import type { Filesystem, VfsStat } from '../../../src/vfs/filesystem.js';
import { isVfsError } from '../../../src/vfs/filesystem.js';

const names = ['a', 'b', 'c'];
export const pathArb = fc
  .array(fc.constantFrom(...names), { minLength: 1, maxLength: 3 })
  .map((parts) => `/${parts.join('/')}`);
const relativeTarget = fc.constantFrom('a', 'b', '../a', '../b/c', 'c/a', '.', 'a/b');
const bytesArb = fc.uint8Array({ minLength: 0, maxLength: 24 });

export type FsOp =
  | { op: 'writeFile'; path: string; data: Uint8Array; mode: 'truncate' | 'append' | 'create-new' }
  | { op: 'readFile'; path: string }
  | { op: 'readRange'; path: string; offset: number; length: number }
  | { op: 'mkdir'; path: string; recursive: boolean }
  | { op: 'remove'; path: string; recursive: boolean; force: boolean }
  | { op: 'rename'; from: string; to: string }
  | { op: 'symlink'; target: string; path: string }
  | { op: 'readlink'; path: string }
  | { op: 'realpath'; path: string }
  | { op: 'link'; existing: string; path: string }
  | { op: 'chmod'; path: string; mode: number }
  | { op: 'stat'; path: string; follow: boolean }
  | { op: 'readdir'; path: string }
  | { op: 'handle'; path: string; data: Uint8Array; position: number; append: boolean; truncate: boolean }
  | { op: 'chunks'; path: string; chunkBytes: number };

export interface OpArbOptions {
  /** Include hard links (not every backend has them). */
  readonly links?: boolean;
}

export function opArb(options: OpArbOptions = {}): fc.Arbitrary<FsOp> {
  const ops: fc.Arbitrary<FsOp>[] = [
    fc.record({
      op: fc.constant('writeFile' as const),
      path: pathArb,
      data: bytesArb,
      mode: fc.constantFrom('truncate' as const, 'append' as const, 'create-new' as const),
    }),
    fc.record({ op: fc.constant('readFile' as const), path: pathArb }),
    fc.record({
      op: fc.constant('readRange' as const),
      path: pathArb,
      offset: fc.nat(30),
      length: fc.nat(30),
    }),
    fc.record({ op: fc.constant('mkdir' as const), path: pathArb, recursive: fc.boolean() }),
    fc.record({ op: fc.constant('mkdir' as const), path: pathArb, recursive: fc.boolean() }),
    fc.record({
      op: fc.constant('remove' as const),
      path: pathArb,
      recursive: fc.boolean(),
      force: fc.boolean(),
    }),
    fc.record({ op: fc.constant('rename' as const), from: pathArb, to: pathArb }),
    fc.record({ op: fc.constant('symlink' as const), target: relativeTarget, path: pathArb }),
    fc.record({ op: fc.constant('readlink' as const), path: pathArb }),
    fc.record({ op: fc.constant('realpath' as const), path: pathArb }),
    fc.record({
      op: fc.constant('chmod' as const),
      path: pathArb,
      mode: fc.constantFrom(0o644, 0o600, 0o755),
    }),
    fc.record({ op: fc.constant('stat' as const), path: pathArb, follow: fc.boolean() }),
    fc.record({ op: fc.constant('readdir' as const), path: fc.oneof(pathArb, fc.constant('/')) }),
    fc.record({
      op: fc.constant('handle' as const),
      path: pathArb,
      data: bytesArb,
      position: fc.nat(20),
      append: fc.boolean(),
      truncate: fc.boolean(),
    }),
    fc.record({
      op: fc.constant('chunks' as const),
      path: pathArb,
      chunkBytes: fc.integer({ min: 1, max: 9 }),
    }),
  ];
  if (options.links) {
    ops.push(fc.record({ op: fc.constant('link' as const), existing: pathArb, path: pathArb }));
  }
  return fc.oneof(...ops);
}

/** What an operation produced, comparable across backends. */
export type Outcome = { ok: unknown } | { error: string };

/**
 * True when `op` would make a symlink whose target climbs above `/` from where it lands (checked
 * physically on `fs`): a real directory's parent is not its root, so such links are skipped.
 */
export async function climbsAboveRoot(fs: Filesystem, op: FsOp): Promise<boolean> {
  if (op.op !== 'symlink') return false;
  const ups = op.target.split('/').filter((part) => part === '..').length;
  if (ups === 0) return false;
  const parent = op.path.slice(0, op.path.lastIndexOf('/')) || '/';
  try {
    const real = await fs.realpath(parent);
    return real.split('/').filter(Boolean).length < ups;
  } catch {
    return false;
  }
}

/** Run `op` on `fs`. Anything thrown that is not a `VfsError` is a test failure (rethrown). */
export async function runOp(fs: Filesystem, op: FsOp): Promise<Outcome> {
  try {
    return { ok: await perform(fs, op) };
  } catch (error) {
    if (isVfsError(error)) return { error: error.code };
    throw error;
  }
}

async function perform(fs: Filesystem, op: FsOp): Promise<unknown> {
  switch (op.op) {
    case 'writeFile':
      return fs.writeFile(op.path, op.data, { mode: op.mode });
    case 'readFile':
      return hex(await fs.readFile(op.path));
    case 'readRange':
      return hex(await fs.readRange(op.path, op.offset, op.length));
    case 'mkdir':
      return fs.mkdir(op.path, { recursive: op.recursive });
    case 'remove':
      return fs.remove(op.path, { recursive: op.recursive, force: op.force });
    case 'rename':
      return fs.rename(op.from, op.to);
    case 'symlink':
      return fs.symlink(op.target, op.path);
    case 'readlink':
      return fs.readlink(op.path);
    case 'realpath':
      return fs.realpath(op.path);
    case 'link':
      return fs.link(op.existing, op.path);
    case 'chmod':
      return fs.chmod(op.path, op.mode);
    case 'stat':
      return comparableStat(op.follow ? await fs.stat(op.path) : await fs.lstat(op.path));
    case 'readdir':
      return await fs.readdir(op.path);
    case 'handle': {
      const handle = await fs.open(op.path, {
        read: true,
        write: true,
        create: true,
        append: op.append,
        truncate: op.truncate,
      });
      try {
        await handle.write(op.data, op.position);
        await handle.write(op.data);
        const back = await handle.read(64, 0);
        const after = await handle.read(4);
        return [hex(back), hex(after), (await handle.stat()).size];
      } finally {
        await handle.close();
      }
    }
    case 'chunks': {
      const parts: string[] = [];
      for await (const chunk of fs.readChunks(op.path, { chunkBytes: op.chunkBytes })) parts.push(hex(chunk));
      return parts;
    }
  }
}

/** The parts of a stat every backend must agree on (no times, no device or inode numbers). */
export function comparableStat(stat: VfsStat): unknown {
  return {
    type: stat.type,
    size: stat.type === 'directory' ? undefined : stat.size,
    mode: stat.type === 'symlink' ? undefined : stat.mode,
    nlink: stat.type === 'directory' ? undefined : stat.nlink,
  };
}

/** Every path below `/` with what it is: file bytes, symlink target, directory, mode. */
export async function snapshot(fs: Filesystem, path = '/', into: Record<string, string> = {}) {
  for (const entry of await fs.readdir(path)) {
    const child = path === '/' ? `/${entry.name}` : `${path}/${entry.name}`;
    const stat = await fs.lstat(child);
    const mode = stat.mode.toString(8);
    if (stat.type === 'directory') {
      into[child] = `dir ${mode}`;
      await snapshot(fs, child, into);
    } else if (stat.type === 'symlink') into[child] = `link -> ${await fs.readlink(child)}`;
    else if (stat.type === 'file')
      into[child] = `file ${mode} ${stat.nlink} ${hex(await fs.readFile(child))}`;
    else into[child] = stat.type;
  }
  return into;
}

export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}
