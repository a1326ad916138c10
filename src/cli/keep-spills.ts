/**
 * Spill files belong to the context and go when it is destroyed; `berth run --json` names them
 * after berth has exited, so it copies them to a directory of their own first.
 * @module
 */
import { constants, existsSync } from 'node:fs';
import { mkdtemp, open, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ExecResult, StreamFacts } from '../contract/types.js';
import { IoError } from '../errors/index.js';

const hasProcFd = existsSync('/proc/self/fd');

/**
 * Copy each spilled stream to a private directory (0700, from `mkdtemp`) that outlives the context,
 * and return the result with `spillPath` pointing at the copies. The caller removes them. A spill
 * is opened without following a link, and only where its path still leads (no link on the way):
 * the copy is of the file berth wrote, never of one a command pointed it at.
 */
export async function keepSpills(result: ExecResult): Promise<ExecResult> {
  if (result.stdoutFacts.spillPath === null && result.stderrFacts.spillPath === null) return result;
  const dir = await mkdtemp(join(tmpdir(), 'berth-run-'));
  const keep = async (facts: StreamFacts, name: string): Promise<StreamFacts> => {
    if (facts.spillPath === null) return facts;
    const path = join(dir, name);
    await copyOwnFile(facts.spillPath, path);
    return { ...facts, spillPath: path };
  };
  try {
    return {
      ...result,
      stdoutFacts: await keep(result.stdoutFacts, 'stdout.out'),
      stderrFacts: await keep(result.stderrFacts, 'stderr.out'),
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

async function copyOwnFile(from: string, to: string): Promise<void> {
  const source = await open(from, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    if (
      !(await source.stat()).isFile() ||
      (hasProcFd && (await readlink(`/proc/self/fd/${source.fd}`)) !== from)
    ) {
      throw new IoError(`the spill file ${from} was replaced; berth does not copy it`);
    }
    const target = await open(to, 'wx', 0o600);
    // Streamed: a spill can be as large as maxSpillBytes. The streams close their handles.
    await pipeline(source.createReadStream(), target.createWriteStream());
  } catch (error) {
    await source.close().catch(() => {});
    throw error;
  }
}
