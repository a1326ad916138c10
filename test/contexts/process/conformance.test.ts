// The process context against the whole ExecutionContext contract: once with no containment and
// once confined to a workspace root (which the containment section then attacks).
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProcessContext, type ProcessContext } from '../../../src/contexts/process/index.js';
import { runConformanceSuite } from '../../../src/testing/index.js';

const outputPolicy = { maxOutputBytes: 64 * 1024, maxSpillBytes: 1024 * 1024 };

/**
 * A fresh real directory (no symlinks on the way, so paths compare exactly). It is made while the
 * file is collected; a run filtered to other files' tests skips afterAll, so the worker's exit
 * removes it too.
 */
function freshDir(label: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `berth-conformance-${label}-`)));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const plainDir = freshDir('plain');
runConformanceSuite({
  name: 'process',
  createContext: () => createProcessContext({ output: outputPolicy, killGraceMs: 1000 }),
  disposeContext: async (context) => {
    await (context as ProcessContext).close();
    rmSync(plainDir, { recursive: true, force: true });
  },
  spawnConfig: { cwd: plainDir },
  outputPolicy,
  // Host and context share one filesystem here: read spills back through the context's own
  // readFileBytes in this run, and through the host (with the 0600 mode check) in the next.
  spillLocation: 'context',
  expectedFailures: [],
  leftovers: 'ended-on-return',
});

const root = freshDir('root');
runConformanceSuite({
  name: 'process (workspaceRoot)',
  createContext: () => createProcessContext({ workspaceRoot: root, output: outputPolicy, killGraceMs: 1000 }),
  disposeContext: async (context) => {
    await (context as ProcessContext).close();
    rmSync(root, { recursive: true, force: true });
  },
  spawnConfig: { cwd: root },
  workspaceRoot: root,
  outputPolicy,
  spillLocation: 'host',
  expectedFailures: [],
  leftovers: 'ended-on-return',
});
