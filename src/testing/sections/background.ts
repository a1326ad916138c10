/**
 * Background tasks, one handle at a time: spawn-and-return, the interleaved log read through the
 * context, list, wait, kill, options, log completeness and cap, and stall.
 * @module
 */

import { expect } from 'vitest';
import { logCapMarker } from '../../contract/log-markers.js';
import type { BackgroundStall } from '../../contract/types.js';
import { shQuote } from '../../subprocess/shell-quote.js';
import { numberedBytes, numberedBytesCommand } from '../byte-patterns.js';
import type { ConformanceCase, ConformanceSection } from '../case.js';
import { expectBerthError } from '../expect-error.js';
import { gateCommand, grandchildCommand, orphanCommand, waitForFileCommand } from '../process-probe.js';
import { delay, mustSettleWithin, SOON_MS, waitUntil } from '../wait-until.js';
import { background, entry, exitRecorder, QUIET_MS } from './background-methods.js';

const cases: ConformanceCase[] = [
  {
    id: 'background/spawn-and-log',
    title:
      'execBackground settles while the task runs and returns { id, pid, outputPath }; the log interleaves both streams and is read with readFile',
    needs: ['shell', 'background', 'filesystem'],
    exercises: ['background'],
    run: async ({ context, handle, dir }) => {
      const bg = background(context);
      const gate = `${dir}/gate`;
      const task = await mustSettleWithin(
        'execBackground of a task that waits for a gate',
        bg.execBackground(
          handle,
          `echo to-stdout; echo to-stderr >&2; ${gateCommand(gate)}; echo after-gate`,
        ),
      );
      expect(typeof task.id === 'string' && task.id.length > 0, 'id is a non-empty string').toBe(true);
      expect(Number.isInteger(task.pid) && task.pid > 0, 'pid is a positive integer').toBe(true);
      expect(typeof task.outputPath === 'string' && task.outputPath.length > 0, 'outputPath').toBe(true);
      const log = await waitUntil('both streams in the log', async () => {
        const text = await context.readFile(handle, task.outputPath);
        return text.includes('to-stdout\n') && text.includes('to-stderr\n') ? text : undefined;
      });
      expect(log).not.toContain('after-gate');
      await context.writeFile(handle, gate, '');
      const exit = await bg.waitBackground(handle, task.id, { timeoutMs: SOON_MS });
      expect(exit?.exitCode).toBe(0);
      const final = await context.readFile(handle, task.outputPath);
      expect(final).toContain('after-gate\n');
    },
  },
  {
    id: 'background/list',
    title: 'listBackground reports running then exited tasks with their facts',
    needs: ['shell', 'background'],
    exercises: ['background'],
    run: async ({ fx, context, handle, dir }) => {
      const bg = background(context);
      const gate = `${dir}/gate`;
      const before = Date.now();
      const command = `printf 'abc'; ${gateCommand(gate)}; exit 5`;
      const task = await bg.execBackground(handle, command);
      const running = await entry(bg, handle, task.id);
      expect(running, 'the new task is listed').toBeDefined();
      expect(running).toMatchObject({
        id: task.id,
        pid: task.pid,
        outputPath: task.outputPath,
        command,
        status: 'running',
        exit: null,
      });
      expect(running?.startedAt).toBeGreaterThanOrEqual(before - 60_000);
      expect(running?.startedAt).toBeLessThanOrEqual(Date.now() + 60_000);
      await fx.sh(`: > ${shQuote(gate)}`);
      await bg.waitBackground(handle, task.id, { timeoutMs: SOON_MS });
      const exited = await entry(bg, handle, task.id);
      expect(exited?.status).toBe('exited');
      expect(exited?.exit).toMatchObject({ id: task.id, exitCode: 5, killed: false });
      expect(exited?.logBytes, 'logBytes counts what the task wrote').toBe(3);
    },
  },
  {
    id: 'background/wait-and-on-exit',
    title:
      'waitBackground resolves with the exit (again at once when already exited); onExit fires exactly once',
    needs: ['shell', 'background'],
    exercises: ['background'],
    run: async ({ context, handle }) => {
      const bg = background(context);
      const recorder = exitRecorder();
      const task = await bg.execBackground(handle, 'echo done; exit 3', { onExit: recorder.onExit });
      const exit = await mustSettleWithin('waitBackground', bg.waitBackground(handle, task.id));
      expect(exit).toMatchObject({
        id: task.id,
        exitCode: 3,
        signal: null,
        killed: false,
        logTruncated: false,
      });
      expect(exit?.durationMs).toBeGreaterThanOrEqual(0);
      const again = await mustSettleWithin(
        'waitBackground on an exited task',
        bg.waitBackground(handle, task.id, { timeoutMs: 1 }),
      );
      expect(again).toEqual(exit);
      await recorder.first();
      await delay(QUIET_MS);
      expect(recorder.calls, 'onExit calls').toHaveLength(1);
      expect(recorder.calls[0]).toEqual(exit);
    },
  },
  {
    id: 'background/wait-null-cases',
    title: 'waitBackground answers null on timeout, on abort and for an unknown id; the task keeps running',
    needs: ['shell', 'background'],
    exercises: ['background'],
    run: async ({ fx, context, handle, dir }) => {
      const bg = background(context);
      const gate = `${dir}/gate`;
      const task = await bg.execBackground(handle, gateCommand(gate));
      expect(
        await mustSettleWithin('wait with timeoutMs', bg.waitBackground(handle, task.id, { timeoutMs: 200 })),
      ).toBeNull();
      const controller = new AbortController();
      const waiting = bg.waitBackground(handle, task.id, { signal: controller.signal });
      controller.abort();
      expect(await mustSettleWithin('wait with an aborted signal', waiting)).toBeNull();
      expect(
        await mustSettleWithin(
          'wait with a pre-aborted signal',
          bg.waitBackground(handle, task.id, { signal: AbortSignal.abort() }),
        ),
      ).toBeNull();
      expect(await bg.waitBackground(handle, 'no-such-task-id', { timeoutMs: SOON_MS })).toBeNull();
      expect((await entry(bg, handle, task.id))?.status, 'a timed-out wait must not touch the task').toBe(
        'running',
      );
      await fx.sh(`: > ${shQuote(gate)}`);
      expect((await bg.waitBackground(handle, task.id, { timeoutMs: SOON_MS }))?.exitCode).toBe(0);
    },
  },
  {
    id: 'background/kill-tree',
    title:
      'killBackground ends the whole group (an orphaned descendant too), flushes the log, reports killed; idempotent',
    needs: ['shell', 'background', 'filesystem'],
    exercises: ['background'],
    run: async ({ fx, context, handle, dir, note }) => {
      const bg = background(context);
      const recorder = exitRecorder();
      const childPid = `${dir}/child.pid`;
      const orphanPid = `${dir}/orphan.pid`;
      const ready = `${dir}/ready`;
      // "planted" goes to the log before the ready file exists, so the kill below must flush it.
      const command = `${grandchildCommand(childPid)}\n${orphanCommand(orphanPid)}\n${waitForFileCommand(childPid)}; ${waitForFileCommand(orphanPid)}; echo planted; : > ${shQuote(ready)}; sleep 300`;
      const task = await bg.execBackground(handle, command, { onExit: recorder.onExit });
      await waitUntil('the task to plant its descendants', () => fx.exists(ready));
      const watches = [await fx.watch(childPid, 'grandchild'), await fx.watch(orphanPid, 'orphan')];
      const exit = await mustSettleWithin('killBackground', bg.killBackground(handle, task.id));
      expect(exit).toMatchObject({ id: task.id, killed: true });
      await fx.expectGone(watches, 'killBackground', note);
      expect(
        await context.readFile(handle, task.outputPath),
        'output written before the kill is in the log',
      ).toContain('planted\n');
      const second = await mustSettleWithin('second killBackground', bg.killBackground(handle, task.id));
      if (second !== null) expect(second, 'a second kill returns null or the same exit').toEqual(exit);
      expect((await entry(bg, handle, task.id))?.status).toBe('killed');
      await recorder.first();
      await delay(QUIET_MS);
      expect(recorder.calls, 'onExit calls').toHaveLength(1);
      expect(recorder.calls[0]?.killed).toBe(true);
      expect(
        await bg.killBackground(handle, 'no-such-task-id'),
        'killBackground on an unknown id',
      ).toBeNull();
    },
  },
  {
    id: 'background/kill-exited',
    title: 'killBackground on a task that already exited returns null or its natural exit (killed: false)',
    needs: ['shell', 'background'],
    exercises: ['background'],
    run: async ({ context, handle }) => {
      const bg = background(context);
      const task = await bg.execBackground(handle, 'exit 4');
      const exit = await bg.waitBackground(handle, task.id, { timeoutMs: SOON_MS });
      const killed = await bg.killBackground(handle, task.id);
      if (killed !== null) expect(killed).toEqual(exit);
      expect((await entry(bg, handle, task.id))?.status).toBe('exited');
    },
  },
  {
    id: 'background/options',
    title: 'execBackground honours cwd and env',
    needs: ['shell', 'background', 'filesystem'],
    exercises: ['background'],
    run: async ({ fx, context, handle, dir }) => {
      const bg = background(context);
      const sub = `${dir}/sub`;
      await fx.sh(`mkdir -p ${shQuote(sub)}`);
      const physical = (await fx.sh(`cd ${shQuote(sub)} && pwd -P`)).trim();
      const task = await bg.execBackground(handle, 'pwd -P; printf "%s\\n" "$CONFORMANCE_BG"', {
        cwd: sub,
        env: { CONFORMANCE_BG: 'bg value' },
      });
      await bg.waitBackground(handle, task.id, { timeoutMs: SOON_MS });
      expect(await context.readFile(handle, task.outputPath)).toBe(`${physical}\nbg value\n`);
    },
  },
  {
    id: 'background/log-complete',
    title: 'the log holds every byte once the task exited (200 KB, read back through the context)',
    needs: ['shell', 'background', 'filesystem'],
    exercises: ['background'],
    run: async ({ context, handle }) => {
      const bg = background(context);
      const length = 200_000;
      const task = await bg.execBackground(handle, numberedBytesCommand(length), { maxLogBytes: 4 * length });
      const exit = await bg.waitBackground(handle, task.id, { timeoutMs: SOON_MS * 2 });
      expect(exit?.exitCode).toBe(0);
      expect(exit?.logTruncated).toBe(false);
      const log = await context.readFile(handle, task.outputPath);
      expect(log.length).toBe(length);
      expect(log === new TextDecoder().decode(numberedBytes(length)), 'log content equals the output').toBe(
        true,
      );
    },
  },
  {
    id: 'background/concurrent',
    title: '16 background tasks at once each get their own id, log and exit code',
    needs: ['shell', 'background', 'filesystem'],
    exercises: ['background'],
    run: async ({ context, handle }) => {
      const bg = background(context);
      const tasks = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          bg.execBackground(
            handle,
            `i=0; while [ $i -lt 100 ]; do echo "task-${i} line $i"; i=$((i+1)); done; exit ${i}`,
          ),
        ),
      );
      expect(new Set(tasks.map((t) => t.id)).size, 'ids are unique').toBe(16);
      expect(new Set(tasks.map((t) => t.outputPath)).size, 'logs are separate').toBe(16);
      const exits = await Promise.all(
        tasks.map((t) => bg.waitBackground(handle, t.id, { timeoutMs: SOON_MS * 2 })),
      );
      for (const [i, task] of tasks.entries()) {
        expect(exits[i]?.exitCode, `task ${i}`).toBe(i);
        const expected = Array.from({ length: 100 }, (_, line) => `task-${i} line ${line}\n`).join('');
        expect(await context.readFile(handle, task.outputPath), `log of task ${i}`).toBe(expected);
      }
    },
  },
  {
    id: 'background/log-cap',
    title: 'maxLogBytes caps the log (keeping its start) and the exit reports logTruncated',
    needs: ['shell', 'background', 'filesystem'],
    exercises: ['background'],
    run: async ({ context, handle }) => {
      const bg = background(context);
      const maxLogBytes = 4096;
      const task = await bg.execBackground(handle, numberedBytesCommand(maxLogBytes * 16), { maxLogBytes });
      const exit = await bg.waitBackground(handle, task.id, { timeoutMs: SOON_MS * 2 });
      expect(exit, 'the task ended').not.toBeNull();
      expect(exit?.logTruncated).toBe(true);
      const log = await context.readFile(handle, task.outputPath);
      expect(new TextEncoder().encode(log).length, 'log size').toBeLessThanOrEqual(maxLogBytes + 1024);
      expect(
        log.startsWith(new TextDecoder().decode(numberedBytes(1000))),
        'the log keeps the start of the output',
      ).toBe(true);
      // The log itself says where output stopped and how much was dropped, on every backend.
      expect(log, 'the cap marker line').toContain(logCapMarker(maxLogBytes));
      expect(log, 'the closing note').toMatch(/\[berth: \d+ bytes of output were dropped in total\]\n$/);
    },
  },
  {
    id: 'background/invalid-options',
    title: 'a negative or NaN stallMs, maxLogBytes or wait timeoutMs is an InvalidArgumentError naming it',
    needs: ['shell', 'background'],
    exercises: ['background'],
    run: async ({ context, handle }) => {
      const bg = background(context);
      for (const [field, options] of [
        ['stallMs', { stallMs: -1 }],
        ['stallMs', { stallMs: Number.NaN }],
        ['maxLogBytes', { maxLogBytes: -1 }],
        ['maxLogBytes', { maxLogBytes: Number.NaN }],
      ] as const) {
        const error = await expectBerthError(
          bg.execBackground(handle, 'true', options),
          'E_INVALID_ARGUMENT',
          `execBackground with ${JSON.stringify(options)}`,
        );
        expect(error.message).toContain(field);
      }
      const task = await bg.execBackground(handle, 'true');
      const error = await expectBerthError(
        bg.waitBackground(handle, task.id, { timeoutMs: -1 }),
        'E_INVALID_ARGUMENT',
        'waitBackground with timeoutMs -1',
      );
      expect(error.message).toContain('timeoutMs');
      await bg.waitBackground(handle, task.id, { timeoutMs: SOON_MS });
    },
  },
  {
    id: 'background/stall',
    title: 'onStall fires after stallMs of silence with the task id, silence and log size',
    needs: ['shell', 'background'],
    exercises: ['background'],
    run: async ({ fx, context, handle, dir }) => {
      const bg = background(context);
      const gate = `${dir}/gate`;
      const stalls: BackgroundStall[] = [];
      const stallMs = 1000;
      const task = await bg.execBackground(handle, `printf 'x\\n'; ${gateCommand(gate)}`, {
        stallMs,
        onStall: (stall) => stalls.push(stall),
      });
      // On a slow machine a first stall may come before the output; a later one must count it.
      const stall = await waitUntil('onStall to fire after the output', () =>
        stalls.find((st) => st.logBytes === 2),
      );
      expect(stall.id).toBe(task.id);
      expect(stall.silentMs).toBeGreaterThanOrEqual(stallMs);
      for (const st of stalls) expect(st.id).toBe(task.id);
      await fx.sh(`: > ${shQuote(gate)}`);
      await bg.waitBackground(handle, task.id, { timeoutMs: SOON_MS });
    },
  },
];

export const backgroundSection: ConformanceSection = { name: 'background', cases };
