// The virtual shell's external gate in a shared overlay (`external.shareOverlay`): what a real
// command costs through the gate against the same command run directly on the process handle's
// overlay, when the virtual shell changed nothing since the last mount (no remount, one rescan)
// and when it made a new file first (a fresh mount before the command). All in one run,
// interleaved, so drift hits every variant alike. Needs root (the kernel overlay), bubblewrap.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProcessContext } from '../dist/contexts/process/index.js';
import { createVirtualContext } from '../dist/contexts/virtual/index.js';
import { createSandboxPolicy } from '../dist/sandbox/index.js';
import { interleavedMedians } from './support/interleaved-medians.mjs';

export const title = 'shared overlay: real commands through the virtual shell’s gate';

const WARMUP = 5;
const ROUNDS = 40;

export async function run() {
  if (process.getuid?.() !== 0) return [{ name: 'skipped', value: 'needs root (a kernel overlay mount)' }];
  const base = mkdtempSync(join(tmpdir(), 'berth-bench-shared-'));
  const ws = join(base, 'ws');
  mkdirSync(join(ws, 'src'), { recursive: true });
  for (let i = 0; i < 200; i++) writeFileSync(join(ws, 'src', `f${i}.txt`), `file ${i}\n`);
  const host = createProcessContext({
    workspaceRoot: ws,
    sandbox: createSandboxPolicy({ writableRoots: [ws], home: join(base, 'home'), env: {} }),
    overlay: { stateDir: join(base, 'state') },
  });
  try {
    const hostHandle = await host.spawn({ cwd: ws });
    const shell = createVirtualContext({
      root: ws,
      external: { context: host, handle: hostHandle, allow: ['dash'], shareOverlay: true },
    });
    const handle = await shell.spawn();
    let made = 0;
    const check = await shell.exec(handle, 'echo x > /workspace/probe; dash -c "cat probe"');
    if (check.stdout !== 'x\n') throw new Error(`the shared overlay does not work here: ${check.stderr}`);
    const t = await interleavedMedians(
      {
        direct: () => host.exec(hostHandle, 'true'),
        gateClean: () => shell.exec(handle, 'dash -c true'),
        gateAfterWrite: () => shell.exec(handle, `echo x > /workspace/new${made++}; dash -c true`),
        writeOnly: () => shell.exec(handle, `echo x > /workspace/alone${made++}`),
      },
      { warmup: WARMUP, rounds: ROUNDS },
    );
    await shell.close();
    const remount = t.gateAfterWrite - t.writeOnly - t.gateClean;
    return [
      {
        name: "exec('true') directly on the process handle's overlay, median",
        value: `${t.direct.toFixed(2)} ms`,
      },
      {
        name: '`dash -c true` through the gate, nothing changed since the last mount, median',
        value: `${t.gateClean.toFixed(2)} ms`,
      },
      { name: 'through the gate, clean / direct', value: `${(t.gateClean / t.direct).toFixed(2)}x` },
      {
        name: 'a new file, then `dash -c true` through the gate (a fresh mount first), median',
        value: `${t.gateAfterWrite.toFixed(2)} ms`,
      },
      { name: 'the new file alone (virtual), median', value: `${t.writeOnly.toFixed(2)} ms` },
      {
        name: 'what the fresh mount adds (after write - write alone - clean)',
        value: `${remount.toFixed(2)} ms`,
      },
    ];
  } finally {
    await host.close();
    rmSync(base, { recursive: true, force: true });
  }
}
