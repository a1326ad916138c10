// The process context with the OS sandbox on, against the whole ExecutionContext contract: once
// with network denied (the suite then proves a fetch fails) and once with network allowed (it
// proves the fetch works), the second also confined to a workspace root for berth's file methods.
//
// The workspaces live under /var/tmp, not /tmp: sandboxed commands get a private /tmp, and the
// containment section plants its secrets next to the root and reads them back with a command. For
// the same reason the second run's sandbox may write one level above its workspaceRoot: the
// containment section attacks berth's file methods, and sets the stage with commands.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createProcessContext } from '../../src/contexts/process/index.js';
import { createSandboxPolicy } from '../../src/sandbox/index.js';
import { runConformanceSuite } from '../../src/testing/index.js';

const outputPolicy = { maxOutputBytes: 64 * 1024, maxSpillBytes: 1024 * 1024 };

/** A fresh real directory `<base>/root` (no symlinks on the way, so paths compare exactly). */
function freshRoot(label: string): { base: string; root: string } {
  const base = realpathSync(mkdtempSync(join('/var/tmp', `berth-sandbox-conformance-${label}-`)));
  const root = join(base, 'root');
  mkdirSync(root);
  return { base, root };
}

/** Known gaps, each a visible entry (a listed case that starts passing fails the run): none. */
const SANDBOX_GAPS: string[] = [];

const denied = freshRoot('deny');
runConformanceSuite({
  name: 'process (sandbox, network deny)',
  createContext: () =>
    createProcessContext({
      sandbox: createSandboxPolicy({ writableRoots: [denied.root], network: 'deny' }),
      output: outputPolicy,
      killGraceMs: 1000,
    }),
  disposeContext: () => rmSync(denied.base, { recursive: true, force: true }),
  spawnConfig: { cwd: denied.root },
  outputPolicy,
  spillLocation: 'host',
  expectedFailures: SANDBOX_GAPS,
  leftovers: 'ended-on-return',
});

const allowed = freshRoot('allow');
runConformanceSuite({
  name: 'process (sandbox, network allow, workspaceRoot)',
  createContext: () =>
    createProcessContext({
      sandbox: createSandboxPolicy({ writableRoots: [allowed.base], network: 'allow' }),
      workspaceRoot: allowed.root,
      output: outputPolicy,
      killGraceMs: 1000,
    }),
  disposeContext: () => rmSync(allowed.base, { recursive: true, force: true }),
  spawnConfig: { cwd: allowed.root },
  workspaceRoot: allowed.root,
  outputPolicy,
  spillLocation: 'host',
  expectedFailures: SANDBOX_GAPS,
  leftovers: 'ended-on-return',
});
