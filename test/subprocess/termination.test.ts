import { afterAll, describe, expect, it } from 'vitest';
import { LocalSubprocessRuntime, readProcStat } from '../../src/subprocess/index.js';
import { alive, commandPid, fixture, spec, treePids, waitFor } from './helpers.js';

// Every case holds with the per-command supervisor (the default) and without it.
describe.each([
  ['supervised', {}],
  ['unsupervised', { supervise: false }],
] as const)('tree-scoped termination (%s)', (mode, options) => {
  const runtime = new LocalSubprocessRuntime(options);
  afterAll(() => runtime.dispose());

  it('leads its own session and process group', async () => {
    const handle = runtime.spawn(spec(['/bin/sleep', '1000']));
    const stat = await waitFor(() => readProcStat(handle.pid), 'the child in /proc');
    expect(stat.pgrp).toBe(handle.pid);
    expect(stat.session).toBe(handle.pid);
    handle.terminate();
    expect(await handle.waitForExit()).toBe(true);
    expect(await handle.done).toEqual({ exitCode: null, signal: 'SIGTERM' });
  });

  it('kills a TERM-trapping descendant after grace, setsid grandchildren, and one orphaned mid-teardown', async () => {
    const handle = runtime.spawn(spec(['/bin/sh', fixture('tree.sh')], { graceMs: 300 }));
    const pids = await treePids(handle.collected.stdout!);
    // The setsid child really left the group and session: only the /proc walk can find it. (Read
    // its stat after setsid took effect: a stat read before still shows the parent's group.)
    await waitFor(() => readProcStat(pids.setsid)?.session === pids.setsid, 'setsid to take effect');
    const setsidStat = await waitFor(() => readProcStat(pids.setsid), 'the setsid child');
    expect(setsidStat.pgrp).not.toBe(handle.pid);
    for (const pid of Object.values(pids)) expect(alive(pid)).toBe(true);

    await waitFor(() => readProcStat(pids.orphan)?.comm === 'sleep', 'the orphan-to-be to exec sleep');

    const shell = readProcStat(pids.orphan)!.ppid;
    handle.terminate();
    // The shell dies of the TERM at once; the orphan ignores it and is reparented: to its owner,
    // the supervisor, when there is one, else away from the tree (to init).
    const adopted = await waitFor(() => {
      const stat = readProcStat(pids.orphan);
      return stat && stat.ppid !== shell && stat;
    }, 'the orphan to be reparented');
    if (mode === 'supervised') expect(adopted.ppid).toBe(handle.pid);
    else expect(adopted.ppid).not.toBe(handle.pid);
    expect(alive(pids.orphan)).toBe(true);
    expect(await handle.waitForExit()).toBe(true);
    for (const pid of [handle.pid, ...Object.values(pids)]) expect(alive(pid), `pid ${pid}`).toBe(false);
    const outcome = await handle.done;
    expect(outcome.exitCode).toBeNull();
    expect(['SIGTERM', 'SIGKILL']).toContain(outcome.signal);
  });

  it('continues a stopped tree so it can act on the TERM within the grace (no KILL needed)', async () => {
    // A stopped process cannot run its TERM trap: without the SIGCONT after the TERM it would sit
    // stopped until the KILL at the end of the (long) grace.
    const handle = runtime.spawn(
      spec(['/bin/sh', '-c', 'trap "echo cleaned; exit 7" TERM; echo armed; while :; do sleep 0.05; done'], {
        graceMs: 60_000,
      }),
    );
    await waitFor(() => handle.collected.stdout!.readFrom(0).text === 'armed\n', 'the trap to be set');
    // Supervised, handle.pid is the supervisor (a STOP cannot be passed on): stop the shell itself.
    const shell = mode === 'supervised' ? commandPid(handle.pid) : handle.pid;
    process.kill(shell, 'SIGSTOP');
    await waitFor(() => readProcStat(shell)?.state === 'T', 'the shell to be stopped');
    handle.terminate();
    expect(await handle.done).toEqual({ exitCode: 7, signal: null });
    expect(handle.collected.stdout!.readFrom(0).text).toBe('armed\ncleaned\n');
  });

  it('escalates to SIGKILL when the root itself ignores SIGTERM, and keeps killing what it forks', async () => {
    const handle = runtime.spawn(
      spec(['/bin/sh', '-c', 'trap "" TERM; echo armed; while :; do sleep 0.05; done'], { graceMs: 300 }),
    );
    await waitFor(() => handle.collected.stdout!.readFrom(0).text === 'armed\n', 'the trap to be set');
    handle.terminate();
    expect(await handle.done).toEqual({ exitCode: null, signal: 'SIGKILL' });
    expect(await handle.waitForExit()).toBe(true);
  });

  it('a member that ignored the TERM and restores it during the grace gets the TERM then', async () => {
    // The sandbox's wrapper shape: TERM ignored while setting up, the default restored at exec.
    const handle = runtime.spawn(
      spec(
        [
          'env',
          '--ignore-signal=TERM',
          '/bin/sh',
          '-c',
          'echo armed; sleep 0.3; exec env --default-signal=TERM /bin/sleep 1000',
        ],
        { graceMs: 5000 },
      ),
    );
    await waitFor(() => handle.collected.stdout!.readFrom(0).text === 'armed\n', 'the wrapper to start');
    handle.terminate();
    // SIGTERM, not SIGKILL: no escalation was needed (it would come after the 5 s grace).
    expect(await handle.done).toEqual({ exitCode: null, signal: 'SIGTERM' });
    expect(await handle.waitForExit()).toBe(true);
  });

  it("a TERM handler's cleanup commands are not signalled while another member still ignores TERM", async () => {
    const handle = runtime.spawn(
      spec(
        [
          '/bin/sh',
          '-c',
          'env --ignore-signal=TERM /bin/sleep 1000 & trap "sleep 0.4; echo cleaned; exit 0" TERM; echo armed; while :; do sleep 0.05; done',
        ],
        { graceMs: 1500 },
      ),
    );
    await waitFor(() => handle.collected.stdout!.readFrom(0).text === 'armed\n', 'the trap to be set');
    handle.terminate();
    expect(await handle.done).toEqual({ exitCode: 0, signal: null });
    expect(handle.collected.stdout!.readFrom(0).text).toBe('armed\ncleaned\n');
    expect(await handle.waitForExit()).toBe(true);
  });

  it('waitForExit observes the whole tree, not just the root', async () => {
    const handle = runtime.spawn(
      spec(['/bin/sh', '-c', 'sleep 1000 & echo $!'], {
        stdio: { stdin: 'ignore', stdout: 'ignore', stderr: 'ignore' },
      }),
    );
    expect(await handle.done).toEqual({ exitCode: 0, signal: null });
    const bounded = new AbortController();
    setTimeout(() => bounded.abort(), 200);
    // The root is gone but its background child lives on: the tree has not exited.
    expect(await handle.waitForExit(bounded.signal)).toBe(false);
    handle.terminate();
    expect(await handle.waitForExit()).toBe(true);
  });

  it('terminate after close still finds session members in other groups (job control)', async () => {
    // With `set -m` the background job gets its own process group: the root's group empties at
    // close, so only a session scan finds the job.
    const handle = runtime.spawn(
      spec(['/bin/bash', '-c', 'set -m; sleep 1000 & echo $!'], {
        stdio: { stdin: 'ignore', stdout: { maxBytes: 100 }, stderr: 'ignore' },
      }),
    );
    expect(await handle.done).toEqual({ exitCode: 0, signal: null });
    const job = Number(handle.collected.stdout!.readFrom(0).text.trim());
    const stat = await waitFor(() => readProcStat(job), 'the job');
    expect(stat.pgrp).not.toBe(handle.pid);
    expect(stat.session).toBe(handle.pid);
    handle.terminate();
    expect(await handle.waitForExit()).toBe(true);
    expect(alive(job)).toBe(false);
  });

  it('a grandchild holding the collected stdout open does not hold done past grace', async () => {
    const handle = runtime.spawn(
      spec(['/bin/sh', '-c', 'sleep 1000 & echo $!; echo started'], { graceMs: 200 }),
    );
    const outcome = await handle.done;
    expect(outcome).toEqual({ exitCode: 0, signal: null });
    const text = handle.collected.stdout!.readFrom(0).text;
    expect(text).toMatch(/^\d+\nstarted\n$/);
    const grandchild = Number(text.split('\n')[0]);
    // done settled while the grandchild still held the pipe.
    expect(alive(grandchild)).toBe(true);
    handle.terminate();
    expect(await handle.waitForExit()).toBe(true);
    expect(alive(grandchild)).toBe(false);
  });

  it('a grandchild holding a raw stdout pipe does not hold done past grace either', async () => {
    const handle = runtime.spawn(
      spec(['/bin/sh', '-c', 'sleep 1000 & echo $!'], {
        graceMs: 200,
        stdio: { stdin: 'ignore', stdout: 'pipe', stderr: 'ignore' },
      }),
    );
    let text = '';
    handle.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    expect(await handle.done).toEqual({ exitCode: 0, signal: null });
    const grandchild = Number(await waitFor(() => text.trim(), 'the grandchild pid'));
    expect(alive(grandchild)).toBe(true);
    handle.terminate();
    expect(await handle.waitForExit()).toBe(true);
    expect(alive(grandchild)).toBe(false);
  });

  it('the abort signal starts the escalation', async () => {
    const controller = new AbortController();
    const handle = runtime.spawn(spec(['/bin/sleep', '1000'], { signal: controller.signal }));
    await waitFor(() => readProcStat(handle.pid), 'the child');
    controller.abort();
    expect(await handle.done).toEqual({ exitCode: null, signal: 'SIGTERM' });
    expect(await handle.waitForExit()).toBe(true);
  });

  it('an already-aborted signal terminates at once', async () => {
    const handle = runtime.spawn(spec(['/bin/sleep', '1000'], { signal: AbortSignal.abort() }));
    const outcome = await handle.done;
    expect(outcome.exitCode).toBeNull();
    expect(await handle.waitForExit()).toBe(true);
  });

  it('terminate is idempotent and a no-op once the tree is gone', async () => {
    const handle = runtime.spawn(spec(['/bin/sleep', '1000']));
    handle.terminate();
    handle.terminate();
    expect(await handle.waitForExit()).toBe(true);
    handle.terminate();
    expect(await handle.waitForExit()).toBe(true);
    expect(await handle.done).toEqual({ exitCode: null, signal: 'SIGTERM' });

    const finished = runtime.spawn(spec(['/bin/true']));
    await finished.done;
    expect(await finished.waitForExit()).toBe(true);
    finished.terminate();
    expect(await finished.done).toEqual({ exitCode: 0, signal: null });
  });

  it('waitForExit returns false when its signal aborts first, and true later', async () => {
    const handle = runtime.spawn(spec(['/bin/sleep', '1000']));
    expect(await handle.waitForExit(AbortSignal.abort())).toBe(false);
    const controller = new AbortController();
    const waiting = handle.waitForExit(controller.signal);
    controller.abort();
    expect(await waiting).toBe(false);
    handle.terminate();
    expect(await handle.waitForExit()).toBe(true);
  });

  it('dispose terminates every live tree and waits for it', async () => {
    const local = new LocalSubprocessRuntime(options);
    const first = local.spawn(spec(['/bin/sh', fixture('tree.sh')], { graceMs: 200 }));
    const second = local.spawn(spec(['/bin/sleep', '1000']));
    const pids = await treePids(first.collected.stdout!);
    expect(local.liveTreeCount).toBe(2);
    await local.dispose();
    for (const pid of [first.pid, second.pid, ...Object.values(pids)])
      expect(alive(pid), `pid ${pid}`).toBe(false);
    expect(local.liveTreeCount).toBe(0);
    await local.dispose();
    expect(() => local.spawn(spec(['/bin/true']))).toThrow(
      expect.objectContaining({ code: 'E_CONTEXT_DESTROYED' }),
    );
  });

  it('dispose ends many trees at once', async () => {
    const local = new LocalSubprocessRuntime(options);
    const handles = Array.from({ length: 20 }, () =>
      local.spawn(spec(['/bin/sh', '-c', 'sleep 1000 & echo $!; wait'], { graceMs: 1000 })),
    );
    const children = await Promise.all(
      handles.map((handle) =>
        waitFor(
          () => Number(handle.collected.stdout!.readFrom(0).text.trim()) || undefined,
          'the background pid',
        ),
      ),
    );
    await local.dispose();
    for (const pid of [...handles.map((handle) => handle.pid), ...children])
      expect(alive(pid), `pid ${pid}`).toBe(false);
  });

  it('forgets trees that finished on their own', async () => {
    const local = new LocalSubprocessRuntime(options);
    const handle = local.spawn(spec(['/bin/true']));
    await handle.done;
    expect(local.liveTreeCount).toBe(0);
    await local.dispose();
  });
});
