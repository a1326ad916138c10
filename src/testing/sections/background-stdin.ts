/**
 * A background task's stdin (`stdin: 'pipe'` and `writeBackground`): a REPL-like task answers
 * what is written, bytes arrive exact and in call order, close ends the input, a task that does
 * not read bounds what is held for it, reassignment keeps the pipe, and every refusal is typed.
 * @module
 */
import { expect } from 'vitest';
import { MAX_BACKGROUND_WRITE_BYTES } from '../../contract/defaults.js';
import type { BackgroundWriteOptions, ContextHandle, ExecutionContext } from '../../contract/types.js';
import type { TaskStdinError } from '../../errors/index.js';
import type { ConformanceCase, ConformanceSection } from '../case.js';
import { expectBerthError } from '../expect-error.js';
import { gateCommand } from '../process-probe.js';
import { mustSettleWithin, SOON_MS, waitUntil } from '../wait-until.js';
import { background, entry } from './background-methods.js';

type Write = (
  handle: ContextHandle,
  id: string,
  data: string | Uint8Array,
  options?: BackgroundWriteOptions,
) => Promise<void>;

function writer(context: ExecutionContext): Write {
  const write = context.writeBackground;
  if (!write) throw new Error('capabilities.backgroundStdin is true but writeBackground is missing');
  return write.bind(context);
}

/** Waits until the task's log holds `text`; returns the log. */
function logShows(
  context: ExecutionContext,
  handle: ContextHandle,
  path: string,
  text: string,
): Promise<string> {
  return waitUntil(`the task's log to show ${JSON.stringify(text)}`, async () => {
    const log = await context.readFile(handle, path);
    return log.includes(text) ? log : undefined;
  });
}

async function expectRefusal(
  promise: Promise<unknown>,
  reason: TaskStdinError['reason'],
  what: string,
): Promise<void> {
  const error = (await expectBerthError(promise, 'E_TASK_STDIN', what)) as TaskStdinError;
  expect(error.reason, `${what}: the reason`).toBe(reason);
  expect(error.fix.length, `${what}: the error says what to do`).toBeGreaterThan(0);
}

const cases: ConformanceCase[] = [
  {
    id: 'background/stdin-repl',
    title:
      'a task started with stdin: pipe answers each line written before the next is sent (a REPL), and close ends its input',
    needs: ['shell', 'background', 'backgroundStdin', 'filesystem'],
    run: async ({ context, handle }) => {
      const bg = background(context);
      const write = writer(context);
      const task = await bg.execBackground(
        handle,
        'while IFS= read -r line; do echo "got:$line"; done; echo "input ended"',
        { stdin: 'pipe' },
      );
      await write(handle, task.id, 'first\n');
      await logShows(context, handle, task.outputPath, 'got:first\n');
      await write(handle, task.id, new TextEncoder().encode('second\n'));
      await logShows(context, handle, task.outputPath, 'got:second\n');
      expect((await entry(bg, handle, task.id))?.stdin, 'listBackground: stdin open').toBe('open');
      await write(handle, task.id, 'third\n', { close: true });
      const exit = await bg.waitBackground(handle, task.id, { timeoutMs: SOON_MS });
      expect(exit?.exitCode, 'close ends the input and the task exits').toBe(0);
      expect(await context.readFile(handle, task.outputPath)).toBe(
        'got:first\ngot:second\ngot:third\ninput ended\n',
      );
      expect((await entry(bg, handle, task.id))?.stdin, 'listBackground: stdin closed').toBe('closed');
    },
  },
  {
    id: 'background/stdin-bytes',
    title: 'cat echoes what is written into its log, bytes exact (every byte value counted by wc -c)',
    needs: ['shell', 'background', 'backgroundStdin', 'filesystem'],
    run: async ({ context, handle }) => {
      const bg = background(context);
      const write = writer(context);
      const echo = await bg.execBackground(handle, 'cat', { stdin: 'pipe' });
      await write(handle, echo.id, 'hello ');
      await write(handle, echo.id, 'wörld\n');
      await logShows(context, handle, echo.outputPath, 'hello wörld\n');
      await write(handle, echo.id, '', { close: true });
      expect((await bg.waitBackground(handle, echo.id, { timeoutMs: SOON_MS }))?.exitCode).toBe(0);
      const counter = await bg.execBackground(handle, 'wc -c', { stdin: 'pipe' });
      const every = new Uint8Array(256);
      for (let i = 0; i < every.length; i += 1) every[i] = i;
      await write(handle, counter.id, every, { close: true });
      expect((await bg.waitBackground(handle, counter.id, { timeoutMs: SOON_MS }))?.exitCode).toBe(0);
      expect((await context.readFile(handle, counter.outputPath)).trim()).toBe('256');
    },
  },
  {
    id: 'background/stdin-order',
    title: 'concurrent writes reach the task whole and in call order',
    needs: ['shell', 'background', 'backgroundStdin', 'filesystem'],
    run: async ({ context, handle }) => {
      const bg = background(context);
      const write = writer(context);
      const task = await bg.execBackground(handle, 'cat', { stdin: 'pipe' });
      const lines = Array.from({ length: 200 }, (_, i) => `line ${i} ${'x'.repeat(i % 37)}\n`);
      await mustSettleWithin(
        '200 concurrent writes',
        Promise.all(lines.map((line, i) => write(handle, task.id, line, { close: i === lines.length - 1 }))),
      );
      expect((await bg.waitBackground(handle, task.id, { timeoutMs: SOON_MS }))?.exitCode).toBe(0);
      expect(await context.readFile(handle, task.outputPath)).toBe(lines.join(''));
    },
  },
  {
    id: 'background/stdin-default-closed',
    title:
      "without stdin: 'pipe' a task reads end-of-file at once, and writing to it is refused as not-piped",
    needs: ['shell', 'background', 'backgroundStdin', 'filesystem'],
    run: async ({ context, handle, dir }) => {
      const bg = background(context);
      const write = writer(context);
      const eof = await bg.execBackground(handle, 'cat; echo "cat ended"');
      expect((await bg.waitBackground(handle, eof.id, { timeoutMs: SOON_MS }))?.exitCode).toBe(0);
      expect(await context.readFile(handle, eof.outputPath)).toBe('cat ended\n');
      const gate = `${dir}/gate`;
      const running = await bg.execBackground(handle, gateCommand(gate), { stdin: 'ignore' });
      expect((await entry(bg, handle, running.id))?.stdin, 'no stdin state without a pipe').toBeUndefined();
      await expectRefusal(write(handle, running.id, 'x'), 'not-piped', 'a write to a task without a pipe');
      await context.writeFile(handle, gate, '');
      await bg.waitBackground(handle, running.id, { timeoutMs: SOON_MS });
    },
  },
  {
    id: 'background/stdin-refusals',
    title:
      'writes to an exited, unknown, other-handle or closed task are typed refusals; bad data and options are argument errors',
    needs: ['shell', 'background', 'backgroundStdin'],
    run: async ({ fx, context, handle }) => {
      const bg = background(context);
      const write = writer(context);
      await expectBerthError(
        bg.execBackground(handle, 'cat', { stdin: 'open' as 'pipe' }),
        'E_INVALID_ARGUMENT',
        "stdin: 'open'",
      );
      const task = await bg.execBackground(handle, 'cat', { stdin: 'pipe' });
      const other = await fx.spawn();
      await expectRefusal(write(other, task.id, 'x\n'), 'unknown-task', 'a write from another handle');
      await expectRefusal(
        write(handle, 'bg-no-such-task', 'x\n'),
        'unknown-task',
        'a write to an unknown id',
      );
      await expectBerthError(
        write(handle, task.id, 42 as unknown as string),
        'E_INVALID_ARGUMENT',
        'data: 42',
      );
      await expectBerthError(
        write(handle, task.id, 'x', { clsoe: true } as BackgroundWriteOptions),
        'E_INVALID_ARGUMENT',
        'a misspelt option',
      );
      await expectBerthError(
        write(handle, task.id, 'x'.repeat(MAX_BACKGROUND_WRITE_BYTES + 1)),
        'E_INVALID_ARGUMENT',
        'a write over the per-call cap',
      );
      await write(handle, task.id, 'last\n', { close: true });
      await expectRefusal(write(handle, task.id, 'more\n'), 'closed', 'a write after close');
      expect((await bg.waitBackground(handle, task.id, { timeoutMs: SOON_MS }))?.exitCode).toBe(0);
      await expectRefusal(write(handle, task.id, 'more\n'), 'exited', 'a write after exit');
      const ended = await bg.execBackground(handle, 'exit 3', { stdin: 'pipe' });
      await bg.waitBackground(handle, ended.id, { timeoutMs: SOON_MS });
      await expectRefusal(write(handle, ended.id, 'x'), 'exited', 'a write to a task that exited unread');
      const killed = await bg.execBackground(handle, 'cat', { stdin: 'pipe' });
      await bg.killBackground(handle, killed.id);
      await expectRefusal(write(handle, killed.id, 'x'), 'exited', 'a write to a killed task');
    },
  },
  {
    id: 'background/stdin-backlog',
    title:
      'a task that never reads holds a bounded amount of unread input: further writes are refused as backlog',
    needs: ['shell', 'background', 'backgroundStdin'],
    run: async ({ context, handle, dir }) => {
      const bg = background(context);
      const write = writer(context);
      const gate = `${dir}/gate`;
      const task = await bg.execBackground(handle, gateCommand(gate), { stdin: 'pipe' });
      const chunk = new Uint8Array(256 * 1024).fill(0x61);
      let refusal: unknown;
      // 64 chunks are 16 MiB: far past the cap plus any pipe or socket buffer on the way.
      for (let i = 0; i < 64 && refusal === undefined; i += 1) {
        await write(handle, task.id, chunk).catch((error: unknown) => {
          refusal = error;
        });
        // Give delivery the chance to drain into whatever buffers the backend has.
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await expectRefusal(
        Promise.reject(refusal ?? new Error('no write was refused')),
        'backlog',
        '16 MiB to a task that never reads',
      );
      await bg.killBackground(handle, task.id);
    },
  },
  {
    id: 'background/stdin-reassign',
    title:
      "reassignBackground keeps the task's stdin: the new owner writes and closes it, the old one is refused",
    needs: ['shell', 'background', 'backgroundStdin', 'filesystem'],
    run: async ({ fx, context }) => {
      const bg = background(context);
      const write = writer(context);
      const from = await fx.spawn();
      const to = await fx.spawn();
      const task = await bg.execBackground(from, 'cat', { stdin: 'pipe' });
      await write(from, task.id, 'before\n');
      await logShows(context, from, task.outputPath, 'before\n');
      await bg.reassignBackground(from, to);
      await expectRefusal(write(from, task.id, 'old owner\n'), 'unknown-task', 'a write from the old owner');
      await write(to, task.id, 'after\n', { close: true });
      // cat ends only at end-of-file: the close through the new owner reached it.
      expect((await bg.waitBackground(to, task.id, { timeoutMs: SOON_MS }))?.exitCode).toBe(0);
      // Which handle may read a moved task's log is the backend's (a container's log stays in the
      // container that ran it), so the new owner checks its size.
      expect((await entry(bg, to, task.id))?.logBytes, 'the log holds both writes').toBe(
        'before\nafter\n'.length,
      );
    },
  },
];

export const backgroundStdinSection: ConformanceSection = { name: 'background stdin', cases };
