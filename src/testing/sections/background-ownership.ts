/**
 * Background tasks across handles: isolation, reassignment (to another handle and to the same one)
 * and destroy ending what a handle owns.
 * @module
 */
import { expect } from 'vitest';
import type { BackgroundStall } from '../../contract/types.js';
import { shQuote } from '../../subprocess/shell-quote.js';
import type { ConformanceCase, ConformanceSection } from '../case.js';
import { gateCommand, grandchildCommand } from '../process-probe.js';
import { delay, mustSettleWithin, SOON_MS, waitUntil } from '../wait-until.js';
import { background, entry, exitRecorder, QUIET_MS } from './background-methods.js';

const cases: ConformanceCase[] = [
  {
    id: 'background/isolation',
    title: "another handle cannot see, wait for or kill a handle's task",
    needs: ['shell', 'background'],
    exercises: ['background'],
    run: async ({ fx, context, handle, dir }) => {
      const bg = background(context);
      const other = await fx.spawn();
      const gate = `${dir}/gate`;
      const task = await bg.execBackground(handle, gateCommand(gate));
      expect((await bg.listBackground(other)).map((t) => t.id)).not.toContain(task.id);
      expect(await bg.killBackground(other, task.id), 'kill from another handle').toBeNull();
      expect(
        await bg.waitBackground(other, task.id, { timeoutMs: SOON_MS }),
        'wait from another handle',
      ).toBeNull();
      expect(await bg.reassignBackground(other, other), 'reassign of a handle without tasks').toEqual([]);
      expect((await entry(bg, handle, task.id))?.status, 'the task survived foreign calls').toBe('running');
      await fx.sh(`: > ${shQuote(gate)}`);
      expect((await bg.waitBackground(handle, task.id, { timeoutMs: SOON_MS }))?.exitCode).toBe(0);
    },
  },
  {
    id: 'background/reassign',
    title:
      'reassignBackground moves running tasks (not exited ones) and rebinds onExit; destroy of the old handle spares them',
    needs: ['shell', 'background'],
    exercises: ['background'],
    run: async ({ fx, context, dir }) => {
      const bg = background(context);
      const from = await fx.spawn();
      const to = await fx.spawn();
      for (const h of [from, to]) await fx.sh(`mkdir -p ${shQuote(dir)}`, h);
      const gate = `${dir}/gate`;
      const oldExit = exitRecorder();
      const newExit = exitRecorder();
      const finished = await bg.execBackground(from, 'exit 0');
      await bg.waitBackground(from, finished.id, { timeoutMs: SOON_MS });
      const running = await bg.execBackground(from, `${gateCommand(gate)}; exit 6`, {
        onExit: oldExit.onExit,
      });
      const moved = await bg.reassignBackground(from, to, { onExit: newExit.onExit });
      expect(
        moved.map((t) => t.id),
        'reassign returns the running tasks only',
      ).toEqual([running.id]);
      expect((await bg.listBackground(to)).map((t) => t.id)).toContain(running.id);
      expect((await bg.listBackground(from)).map((t) => t.id)).not.toContain(running.id);
      expect(
        (await bg.listBackground(from)).map((t) => t.id),
        'an exited task stays with its handle',
      ).toContain(finished.id);
      expect(await bg.killBackground(from, running.id), 'kill through the old handle').toBeNull();
      await context.destroy(from);
      expect((await entry(bg, to, running.id))?.status, 'destroy of the old handle killed a moved task').toBe(
        'running',
      );
      await fx.sh(`: > ${shQuote(gate)}`);
      const exit = await bg.waitBackground(to, running.id, { timeoutMs: SOON_MS });
      expect(exit?.exitCode).toBe(6);
      expect((await newExit.first()).exitCode).toBe(6);
      await delay(QUIET_MS);
      expect(oldExit.calls, 'the replaced onExit must not fire').toEqual([]);
      expect(newExit.calls).toHaveLength(1);
    },
  },
  {
    id: 'background/reassign-same-handle',
    title: 'reassignBackground(h, h, callbacks) keeps ownership and only rebinds onExit / onStall',
    needs: ['shell', 'background'],
    exercises: ['background'],
    run: async ({ fx, context, dir }) => {
      const bg = background(context);
      const handle = await fx.spawn();
      await fx.sh(`mkdir -p ${shQuote(dir)}`, handle);
      const gate = `${dir}/gate`;
      const oldExit = exitRecorder();
      const newExit = exitRecorder();
      const oldStalls: BackgroundStall[] = [];
      const newStalls: BackgroundStall[] = [];
      const task = await bg.execBackground(handle, `${gateCommand(gate)}; exit 2`, {
        onExit: oldExit.onExit,
        onStall: (stall) => oldStalls.push(stall),
        stallMs: 1000,
      });
      const moved = await bg.reassignBackground(handle, handle, {
        onExit: newExit.onExit,
        onStall: (stall) => newStalls.push(stall),
      });
      const oldStallsAtReassign = oldStalls.length;
      await waitUntil('the rebound onStall to fire', () => newStalls[0]);
      expect(oldStalls.length, 'the replaced onStall fired after reassign').toBe(oldStallsAtReassign);
      expect(moved.map((t) => t.id)).toEqual([task.id]);
      expect((await entry(bg, handle, task.id))?.status).toBe('running');
      await fx.sh(`: > ${shQuote(gate)}`, handle);
      expect((await newExit.first()).exitCode).toBe(2);
      await delay(QUIET_MS);
      expect(oldExit.calls, 'the replaced onExit must not fire').toEqual([]);
    },
  },
  {
    id: 'background/destroy-kills',
    title: "destroy ends the handle's running tasks and their descendants; onExit reports killed",
    needs: ['shell', 'background'],
    exercises: ['background'],
    run: async ({ fx, context, dir, note }) => {
      const bg = background(context);
      const handle = await fx.spawn();
      await fx.sh(`mkdir -p ${shQuote(dir)}`, handle);
      const pidFile = `${dir}/child.pid`;
      const recorder = exitRecorder();
      await bg.execBackground(handle, `${grandchildCommand(pidFile)}\nwait`, { onExit: recorder.onExit });
      await waitUntil('the task to plant its grandchild', () => fx.exists(pidFile, handle));
      const watch = await fx.watchAcross(pidFile, 'destroy', handle);
      await mustSettleWithin('destroy with a running task', context.destroy(handle), SOON_MS * 2);
      if (fx.expectWatchableAcross(watch)) await fx.expectGone([watch], 'destroy', note);
      expect((await recorder.first()).killed).toBe(true);
    },
  },
];

export const backgroundOwnershipSection: ConformanceSection = { name: 'background ownership', cases };
