/**
 * Spill files belong to the context and go when it is destroyed; `berth run --json` names them
 * after berth has exited, so it copies them to a directory of their own first.
 * @module
 */
import { copyFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecResult, StreamFacts } from '../contract/types.js';

/**
 * Copy each spilled stream to a private directory (0700, from `mkdtemp`) that outlives the context,
 * and return the result with `spillPath` pointing at the copies. The caller removes them.
 */
export async function keepSpills(result: ExecResult): Promise<ExecResult> {
  if (result.stdoutFacts.spillPath === null && result.stderrFacts.spillPath === null) return result;
  const dir = await mkdtemp(join(tmpdir(), 'berth-run-'));
  const keep = async (facts: StreamFacts, name: string): Promise<StreamFacts> => {
    if (facts.spillPath === null) return facts;
    const path = join(dir, name);
    await copyFile(facts.spillPath, path);
    return { ...facts, spillPath: path };
  };
  return {
    ...result,
    stdoutFacts: await keep(result.stdoutFacts, 'stdout.out'),
    stderrFacts: await keep(result.stderrFacts, 'stderr.out'),
  };
}
