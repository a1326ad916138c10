// The process context with one sandbox session per handle (`session: true`), against the whole
// ExecutionContext contract. A session is a machine of its own: another handle cannot see its
// processes, but both write the same workspace, so the suite watches across handles through a
// heartbeat file (`handles: 'shared'`); what a command leaves running (a background `&`, a daemon)
// leaves the command's tree for the session's init and stays until the handle's destroy
// (`leftovers: 'kept-until-destroy'`).
//
// The workspace lives under /var/tmp, not /tmp: the session's /tmp is its own.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createProcessContext } from '../../src/contexts/process/index.js';
import { createSandboxPolicy } from '../../src/sandbox/index.js';
import { runConformanceSuite } from '../../src/testing/index.js';

const outputPolicy = { maxOutputBytes: 64 * 1024, maxSpillBytes: 1024 * 1024 };
const base = realpathSync(mkdtempSync(join('/var/tmp', 'berth-session-conformance-')));
const root = join(base, 'root');
mkdirSync(root);

runConformanceSuite({
  name: 'process (sandbox session, network deny)',
  createContext: () =>
    createProcessContext({
      sandbox: createSandboxPolicy({ writableRoots: [root], network: 'deny' }),
      session: true,
      output: outputPolicy,
      killGraceMs: 1000,
    }),
  disposeContext: () => rmSync(base, { recursive: true, force: true }),
  spawnConfig: { cwd: root },
  outputPolicy,
  spillLocation: 'host',
  handles: 'shared',
  leftovers: 'kept-until-destroy',
});
