/**
 * `moveSpill` for a context whose spill files live on the host while its file methods see a box
 * (a container, a pod): the spill is claimed once, streamed through a byte and line counter into
 * a helper command in the box that writes it (as the box's user, so permissions apply as they do
 * to its commands) and prints the bytes that arrived, checked, and only then removed from the
 * host. A failed copy leaves nothing in the box and gives the host spill back. How the bytes reach
 * the box (an engine exec, a pod exec) is the context's part.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, fstatSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import type { MovedSpill } from '../../contract/types.js';
import { InvalidArgumentError, IoError } from '../../errors/index.js';
import type { FileIdentity, PrivateDirectory } from '../../subprocess/private-dir.js';
import type { HelperResult } from './find-listing.js';

// $1 = the new file (a fresh random name); $2 = its byte count, for a box whose stdin cannot be
// closed ('' otherwise: cat reads to EOF). Created exclusively (noclobber) and private; a failed
// copy leaves nothing; prints the bytes that arrived.
const RECEIVE_SCRIPT = `umask 077
set -C
if [ -n "$2" ]; then head -c "$2" > "$1"; else cat > "$1"; fi || { rm -f -- "$1"; exit 4; }
wc -c < "$1"`;

/** Counts the bytes and line breaks that pass. */
export class ByteLineCounter extends Transform {
  bytes = 0;
  lineBreaks = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) this.lineBreaks++;
    done(null, chunk);
  }
}

/** One handle's host spills, as the context keeps them. */
export interface HostSpills {
  /** The handle's id, for messages. */
  readonly handleId: string;
  /** Its private spill directory (undefined until its first spill). */
  readonly dir: PrivateDirectory | undefined;
  /** Spill files its `exec` results named and still on the host, by path: what may move. */
  readonly spills: Map<string, FileIdentity>;
}

/** How the bytes reach the box. */
export interface SpillReceiver {
  /** berth's state directory in the box (where the file goes). */
  readonly stateDir: string;
  /** `container`, `pod`: names the box in messages. */
  readonly box: string;
  /** True when the box's stdin cannot be closed: the script then stops after the file's size. */
  readonly needsByteCount: boolean;
  /**
   * Run `argv` in the box to completion, with `stdin` piped in as the command reads it (its error
   * fails the call; absent: no stdin).
   */
  run(argv: readonly string[], stdin: Readable | undefined, what: string): Promise<HelperResult>;
}

/**
 * Move the spill file `spillPath` of `host` into the box (`<stateDir>/<label>-<random>.out`, mode
 * 0600). The spill is claimed first, so it moves once; a failed copy gives it back.
 * @throws InvalidArgumentError when `spillPath` is not one of `host`'s spills still on the host.
 * @throws IoError when the copy could not be written (the host spill then stays).
 */
export async function moveHostSpill(
  host: HostSpills,
  receiver: SpillReceiver,
  spillPath: string,
  label: string,
): Promise<MovedSpill> {
  const identity = typeof spillPath === 'string' ? host.spills.get(spillPath) : undefined;
  const dir = host.dir;
  if (identity === undefined || dir === undefined || dirname(spillPath) !== dir.path)
    throw new InvalidArgumentError(
      'spillPath',
      `${JSON.stringify(spillPath)} is not a spill file of handle ${host.handleId} still on the host; pass a StreamFacts.spillPath of one of its exec results, once`,
    );
  host.spills.delete(spillPath);
  const name = basename(spillPath);
  const target = `${receiver.stateDir}/${String(label)
    .replace(/[^A-Za-z0-9_-]/g, '_')
    .slice(0, 40)}-${randomBytes(6).toString('hex')}.out`;
  let source: ReturnType<typeof createReadStream> | undefined;
  try {
    // Only the very file berth wrote, through the held directory, no link followed.
    const fd = dir.openFile(name, identity);
    const size = fstatSync(fd).size;
    source = createReadStream(spillPath, { fd });
    const counter = new ByteLineCounter();
    source.once('error', (error) => counter.destroy(error));
    const argv = [
      '/bin/sh',
      '-c',
      RECEIVE_SCRIPT,
      'berth-spill',
      target,
      receiver.needsByteCount ? String(size) : '',
    ];
    const result = await receiver.run(
      argv,
      source.pipe(counter),
      `moving ${spillPath} into the ${receiver.box}`,
    );
    const written = result.stdout.toString('utf8').trim();
    if (result.exitCode !== 0 || written !== String(counter.bytes)) {
      const why =
        result.exitCode !== 0
          ? `exit ${result.exitCode}: ${oneLine(result.stderr) || 'no message'}`
          : `${written || 'no'} bytes arrived of ${counter.bytes}`;
      // A short copy (the connection broke) is not left to pass for the whole stream.
      await receiver.run(['rm', '-f', '--', target], undefined, `removing ${target}`).catch(() => undefined);
      throw new IoError(`writing ${target} in the ${receiver.box} failed (${why})`);
    }
    dir.removeFile(name);
    return { path: target, bytes: counter.bytes, lineBreaks: counter.lineBreaks };
  } catch (error) {
    host.spills.set(spillPath, identity);
    throw error;
  } finally {
    source?.destroy();
  }
}

/** The end of a command's stderr as one line of a message. */
function oneLine(stderr: string): string {
  return stderr
    .trim()
    .slice(-300)
    .replace(/\s*\n\s*/g, '; ');
}
