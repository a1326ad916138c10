// The OS sandbox's cost: a sandboxed exec('true') round trip against the same bubblewrap argv
// spawned raw, and against an unsandboxed exec('true'), all in one run. Also what bubblewrap itself
// adds over spawning `/bin/sh -c true` directly, and what building the argv costs. The workspace
// is an empty directory, the worst case for guarded names: every one of them needs a placeholder;
// the raw variants show what the Unix socket filter and the read-only names cost on their own.
// The sandbox session (`session: true`): an exec on a warm handle against the unsandboxed exec,
// and a handle's first command (spawn, which starts the session's holder, plus one exec) against
// today's per-command sandboxed exec.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProcessContext } from '../dist/contexts/process/index.js';
import { confineCommand, createSandboxPolicy } from '../dist/sandbox/index.js';
import { planReadOnlyRoot } from '../dist/sandbox/read-only-root.js';
import { waitStatusPrefix } from '../dist/sandbox/wait-status.js';
import { interleavedMedians } from './support/interleaved-medians.mjs';

export const title = 'sandbox: exec round trip under bubblewrap';

const WARMUP = 10;
const ROUNDS = 60;

function spawnAndWait(argv, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))));
  });
}

/** Median of `ROUNDS` timed runs of `fn`, after `WARMUP` untimed ones. */
async function median(fn) {
  for (let i = 0; i < WARMUP; i++) await fn();
  const samples = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

export async function run() {
  const workspace = mkdtempSync(join(tmpdir(), 'berth-bench-sandbox-'));
  const policy = createSandboxPolicy({ writableRoots: [workspace] });
  const variants = {
    rawNoFilter: createSandboxPolicy({ writableRoots: [workspace], unixSockets: 'allow' }),
    rawNoNames: createSandboxPolicy({ writableRoots: [workspace], defaultReadOnlyPaths: false }),
    rawNeither: createSandboxPolicy({
      writableRoots: [workspace],
      unixSockets: 'allow',
      defaultReadOnlyPaths: false,
    }),
  };
  const rawRun = (variant) => () => {
    const argv = confineCommand(variant, ['/bin/sh', '-c', 'true'], { cwd: workspace });
    if (!argv.ok) throw new Error(`sandbox unavailable: ${argv.reason}`);
    return spawnAndWait(argv.argv, workspace).finally(argv.release);
  };
  const sandboxed = createProcessContext({ sandbox: policy });
  const plain = createProcessContext({});
  const stateRoot = mkdtempSync(join(tmpdir(), 'berth-bench-overlay-state-'));
  const overlaid = createProcessContext({
    sandbox: policy,
    workspaceRoot: workspace,
    overlay: { stateDir: stateRoot },
  });
  const sessioned = createProcessContext({ sandbox: policy, session: true });
  const firstHandles = [];
  const waiter = waitStatusPrefix(process.env.PATH);
  try {
    const sandboxedHandle = await sandboxed.spawn({ cwd: workspace });
    const plainHandle = await plain.spawn({ cwd: workspace });
    const overlayHandle = await overlaid.spawn({ cwd: workspace });
    const sessionHandle = await sessioned.spawn({ cwd: workspace });
    const confined = confineCommand(policy, ['/bin/sh', '-c', 'true'], { cwd: workspace });
    if (!confined.ok) throw new Error(`sandbox unavailable: ${confined.reason}`);
    const check = await sandboxed.exec(sandboxedHandle, 'true');
    if (check.exitCode !== 0) throw new Error(`sandboxed exec('true') failed: ${check.stderr}`);

    // The raw run confines per round too, so both see the same root plan (whole or assembled).
    let assembledRounds = 0;
    const t = await interleavedMedians(
      {
        sandboxedExec: () => sandboxed.exec(sandboxedHandle, 'true'),
        rawBwrap: () => {
          const argv = confineCommand(policy, ['/bin/sh', '-c', 'true'], { cwd: workspace });
          if (!argv.ok) throw new Error(`sandbox unavailable: ${argv.reason}`);
          if (planReadOnlyRoot().assembled) assembledRounds++;
          return spawnAndWait(argv.argv, workspace).finally(argv.release);
        },
        rawNoFilter: rawRun(variants.rawNoFilter),
        rawNoNames: rawRun(variants.rawNoNames),
        rawNeither: rawRun(variants.rawNeither),
        plainExec: () => plain.exec(plainHandle, 'true'),
        rawSh: () => spawnAndWait(['/bin/sh', '-c', 'true'], workspace),
        ...(waiter ? { waiterSh: () => spawnAndWait([...waiter, '/bin/sh', '-c', 'true'], workspace) } : {}),
        overlayExec: () => overlaid.exec(overlayHandle, 'true'),
        sessionExec: () => sessioned.exec(sessionHandle, 'true'),
        sessionFirst: async () => {
          const handle = await sessioned.spawn({ cwd: workspace });
          firstHandles.push(handle);
          await sessioned.exec(handle, 'true');
        },
        // Untimed in the report: ends the handles the first-command rounds opened.
        sessionCleanup: () => Promise.all(firstHandles.splice(0).map((handle) => sessioned.destroy(handle))),
      },
      { warmup: WARMUP, rounds: ROUNDS },
    );
    const confineMs = await median(async () => {
      for (let i = 0; i < 100; i++)
        confineCommand(policy, ['/bin/sh', '-c', 'true'], { cwd: workspace }).release?.();
    });

    const ratio = t.sandboxedExec / t.rawBwrap;
    return [
      { name: "sandboxed exec('true') median", value: `${t.sandboxedExec.toFixed(2)} ms` },
      { name: 'same bubblewrap argv spawned raw, median', value: `${t.rawBwrap.toFixed(2)} ms` },
      { name: "unsandboxed exec('true') median", value: `${t.plainExec.toFixed(2)} ms` },
      { name: 'raw spawn of /bin/sh -c true, median', value: `${t.rawSh.toFixed(2)} ms` },
      {
        name: 'sandboxed exec / raw bubblewrap',
        value: `${ratio.toFixed(2)}x`,
        goal: '<= 1.15x',
        met: ratio <= 1.15,
      },
      { name: 'time bubblewrap adds (raw bwrap - raw sh)', value: `${(t.rawBwrap - t.rawSh).toFixed(2)} ms` },
      {
        name: "raw bubblewrap without the Unix socket filter (unixSockets: 'allow')",
        value: `${t.rawNoFilter.toFixed(2)} ms`,
      },
      {
        name: 'raw bubblewrap without read-only names (defaultReadOnlyPaths: false: no placeholders)',
        value: `${t.rawNoNames.toFixed(2)} ms`,
      },
      { name: 'raw bubblewrap without either', value: `${t.rawNeither.toFixed(2)} ms` },
      {
        name: 'time the sandbox adds to exec (sandboxed - unsandboxed)',
        value: `${(t.sandboxedExec - t.plainExec).toFixed(2)} ms`,
      },
      {
        name: 'the wait-status waiter alone (perl waiter + /bin/sh -c true, raw) - raw sh',
        value: t.waiterSh === undefined ? 'no perl' : `${(t.waiterSh - t.rawSh).toFixed(2)} ms`,
      },
      {
        name: "sandboxed exec('true') over a workspace overlay (nsenter + bubblewrap), median",
        value: `${t.overlayExec.toFixed(2)} ms`,
      },
      {
        name: 'time the workspace overlay adds to a sandboxed exec',
        value: `${(t.overlayExec - t.sandboxedExec).toFixed(2)} ms`,
      },
      {
        name: "sandbox session: exec('true') on a warm handle, median",
        value: `${t.sessionExec.toFixed(2)} ms`,
      },
      {
        name: 'sandbox session, warm handle / unsandboxed exec',
        value: `${(t.sessionExec / t.plainExec).toFixed(2)}x`,
        goal: '<= 1.3x',
        met: t.sessionExec / t.plainExec <= 1.3,
      },
      {
        name: "sandbox session: a handle's first command (spawn + exec('true')), median",
        value: `${t.sessionFirst.toFixed(2)} ms`,
      },
      {
        name: "sandbox session, first command / today's per-command sandboxed exec",
        value: `${(t.sessionFirst / t.sandboxedExec).toFixed(2)}x`,
        goal: '<= 1.15x',
        met: t.sessionFirst / t.sandboxedExec <= 1.15,
      },
      {
        name: 'confineCommand per call (cached check; placeholders held and released)',
        value: `${((confineMs / 100) * 1000).toFixed(1)} µs`,
      },
      {
        name: 'raw rounds with an assembled root (container mounts changing)',
        value: `${assembledRounds} of ${WARMUP + ROUNDS}`,
      },
    ];
  } finally {
    await Promise.allSettled([sandboxed.close(), plain.close(), overlaid.close(), sessioned.close()]);
    rmSync(workspace, { recursive: true, force: true });
    rmSync(stateRoot, { recursive: true, force: true });
  }
}
