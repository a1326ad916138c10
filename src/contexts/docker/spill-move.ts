/**
 * `moveSpill` for the Docker context: a spill file lives on the host, where the container's file
 * methods cannot read it, so its bytes are streamed into the container (an exec reading its stdin,
 * as the container's user, so permissions apply as they do to its commands), counted on the way,
 * checked there, and only then removed from the host.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename, dirname } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import type { MovedSpill } from '../../contract/types.js';
import { InvalidArgumentError, IoError } from '../../errors/index.js';
import { collectExec } from './collect-exec.js';
import { STATE_DIR } from './container-spec.js';
import type { EngineClient } from './engine-client.js';
import type { HandleState } from './handle-state.js';

// $1 = the new file (a fresh random name). Created exclusively (noclobber) and private; a failed
// copy leaves nothing; prints the bytes that arrived.
const RECEIVE_SCRIPT = `umask 077
set -C
cat > "$1" || { rm -f -- "$1"; exit 4; }
wc -c < "$1"`;

/** Counts the bytes and line breaks that pass. */
class Counter extends Transform {
  bytes = 0;
  lineBreaks = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) this.lineBreaks++;
    done(null, chunk);
  }
}

/**
 * Move the handle's spill file `spillPath` into its container (`/tmp/.berth/<label>-<random>.out`,
 * mode 0600). The spill is claimed first, so it moves once; a failed copy gives it back.
 */
export async function moveSpillIntoContainer(
  client: EngineClient,
  state: HandleState,
  spillPath: string,
  label: string,
): Promise<MovedSpill> {
  const identity = state.spills.get(spillPath);
  const dir = state.spillDir;
  if (
    typeof spillPath !== 'string' ||
    identity === undefined ||
    dir === undefined ||
    dirname(spillPath) !== dir.path
  )
    throw new InvalidArgumentError(
      'spillPath',
      `${JSON.stringify(spillPath)} is not a spill file of handle ${state.handle.id} still on the host; pass a StreamFacts.spillPath of one of its exec results, once`,
    );
  state.spills.delete(spillPath);
  const name = basename(spillPath);
  const target = `${STATE_DIR}/${label.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40)}-${randomBytes(6).toString('hex')}.out`;
  let source: ReturnType<typeof createReadStream> | undefined;
  try {
    // Only the very file berth wrote, through the held directory, no link followed.
    source = createReadStream(spillPath, { fd: dir.openFile(name, identity) });
    const counter = new Counter();
    source.once('error', (error) => counter.destroy(error));
    const result = await collectExec(
      client,
      state.containerId,
      ['/bin/sh', '-c', RECEIVE_SCRIPT, 'berth-spill', target],
      { stdin: source.pipe(counter), maxStdoutBytes: 1024, what: `moving ${spillPath} into the container` },
    );
    const written = result.stdout.toString('utf8').trim();
    if (result.exitCode !== 0 || written !== String(counter.bytes)) {
      const why =
        result.exitCode !== 0
          ? `exit ${result.exitCode}: ${oneLine(result.stderr) || 'no message'}`
          : `${written || 'no'} bytes arrived of ${counter.bytes}`;
      // A short copy (the connection broke) is not left to pass for the whole stream.
      await collectExec(client, state.containerId, ['rm', '-f', '--', target], {
        maxStdoutBytes: 1024,
        what: `removing ${target}`,
      }).catch(() => undefined);
      throw new IoError(`writing ${target} in the container failed (${why})`);
    }
    dir.removeFile(name);
    return { path: target, bytes: counter.bytes, lineBreaks: counter.lineBreaks };
  } catch (error) {
    state.spills.set(spillPath, identity);
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
