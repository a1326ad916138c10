// The virtual context against the whole ExecutionContext contract: once over a workspace in
// memory without network (so `network/denied` probes with the shell's own curl), once over a
// copy-on-write view of a real directory with its changes in a state directory, the file
// methods confined to the workspace (which the containment section then attacks) and a network
// allowlist admitting the suite's HTTP server on 127.0.0.1 (so `network/reachable` runs). The
// suite's cases are POSIX sh with common tools and run unchanged.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import { builtinCommands } from '../../../src/commands/registry.js';
import { createVirtualContext, type VirtualContext } from '../../../src/contexts/virtual/index.js';
import { runConformanceSuite } from '../../../src/testing/index.js';

const outputPolicy = { maxOutputBytes: 64 * 1024, maxSpillBytes: 1024 * 1024 };

/**
 * The commands outside the shell's builtins that the suite's fixture and cases run. Until every
 * one is a built-in command of the virtual shell the suite cannot even set up its scratch
 * directory (`mkdir -p`), so the file says which are missing instead of reporting 213 failures.
 */
const SUITE_COMMANDS = [
  'cat',
  'cmp',
  'cut',
  'env',
  'head',
  'ln',
  'mkdir',
  'mv',
  'rm',
  'sleep',
  'tail',
  'touch',
  'tr',
  'wc',
];

function freshDir(label: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `berth-conformance-virtual-${label}-`)));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const registry = builtinCommands();
const missing = SUITE_COMMANDS.filter((name) => !registry.has(name));

if (missing.length > 0) {
  it.todo(`conformance on the virtual context: the shell lacks ${missing.join(', ')}`);
} else {
  runConformanceSuite({
    name: 'virtual (memory)',
    createContext: () => createVirtualContext({ output: outputPolicy, killGraceMs: 1000 }),
    disposeContext: (context) => (context as VirtualContext).close(),
    spawnConfig: { cwd: '/workspace' },
    outputPolicy,
    // Spill files live in the context's private host directory, mounted into the namespace at
    // the same path: read them back through the context here, and through the host below.
    spillLocation: 'context',
    leftovers: 'ended-on-return',
  });

  const root = freshDir('root');
  const state = freshDir('state');
  runConformanceSuite({
    name: 'virtual (overlay, containment)',
    createContext: () =>
      createVirtualContext({
        root,
        stateDirectory: state,
        containment: true,
        output: outputPolicy,
        killGraceMs: 1000,
        // The suite's token server listens on a port it picks per case.
        network: { allow: ['http://127.0.0.1:*/probe'] },
      }),
    disposeContext: async (context) => {
      await (context as VirtualContext).close();
      rmSync(root, { recursive: true, force: true });
      rmSync(state, { recursive: true, force: true });
    },
    spawnConfig: { cwd: '/workspace' },
    workspaceRoot: '/workspace',
    outputPolicy,
    spillLocation: 'host',
    leftovers: 'ended-on-return',
  });
}
