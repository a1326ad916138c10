/**
 * The registry's side of a task's stdin, against a delivery the test holds back and lets go: call
 * order, the bound on undelivered input, a broken pipe, the end, and a stdin that cannot end.
 * The real pipes of every backend are the conformance suite's `background/stdin-*` cases.
 */
import { describe, expect, it } from 'vitest';
import { MAX_BACKGROUND_WRITE_BYTES } from '../../src/contract/defaults.js';
import type { BackgroundStdin } from '../../src/contract/task-stdin.js';
import { TaskStdinQueue } from '../../src/contract/task-stdin.js';
import { writeData } from '../../src/contract/task-stdin-data.js';
import { CapabilityError, InvalidArgumentError, TaskStdinError } from '../../src/errors/index.js';

/** A stdin whose deliveries wait until `release()`; records what arrived, in order. */
function heldStdin(): BackgroundStdin & {
  arrived: string[];
  ended: boolean;
  release(): void;
  breakNext(): void;
} {
  let gate: () => void = () => undefined;
  let held = new Promise<void>((resolve) => {
    gate = resolve;
  });
  let broken = false;
  const stdin = {
    arrived: [] as string[],
    ended: false,
    async write(bytes: Uint8Array) {
      await held;
      if (broken) throw Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
      stdin.arrived.push(Buffer.from(bytes).toString('utf8'));
    },
    async end() {
      await held;
      stdin.ended = true;
    },
    release() {
      gate();
      held = Promise.resolve();
    },
    breakNext() {
      broken = true;
    },
  };
  return stdin;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('TaskStdinQueue', () => {
  it('delivers concurrent writes in call order, then the end, and refuses writes after close', async () => {
    const stdin = heldStdin();
    const queue = new TaskStdinQueue(stdin);
    const calls = ['a', 'b', 'c'].map((text, i) => queue.write('bg-1', writeData(text), i === 2));
    await Promise.all(calls); // accepted at once, although nothing was delivered yet
    expect(stdin.arrived).toEqual([]);
    expect(queue.state).toBe('closed');
    expect(() => queue.write('bg-1', writeData('d'), false)).toThrow(TaskStdinError);
    stdin.release();
    await settle();
    expect(stdin.arrived).toEqual(['a', 'b', 'c']);
    expect(stdin.ended).toBe(true);
  });

  it('refuses a write past the bound of undelivered input, and takes it again once delivered', async () => {
    const stdin = heldStdin();
    const queue = new TaskStdinQueue(stdin);
    const half = new Uint8Array(MAX_BACKGROUND_WRITE_BYTES / 2);
    await queue.write('bg-2', half, false);
    await queue.write('bg-2', half, false);
    let refusal: unknown;
    try {
      queue.write('bg-2', new Uint8Array(1), false);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(TaskStdinError);
    expect((refusal as TaskStdinError).reason).toBe('backlog');
    expect((refusal as TaskStdinError).message).toContain(`has not read ${MAX_BACKGROUND_WRITE_BYTES} bytes`);
    stdin.release();
    await settle();
    await queue.write('bg-2', new Uint8Array(1), false);
  });

  it('a delivery that breaks closes the stdin: the next write is refused as closed', async () => {
    const stdin = heldStdin();
    const queue = new TaskStdinQueue(stdin);
    stdin.breakNext();
    await queue.write('bg-3', writeData('lost'), false);
    stdin.release();
    await settle();
    expect(queue.state).toBe('closed');
    let refusal: unknown;
    try {
      queue.write('bg-3', writeData('more'), false);
    } catch (error) {
      refusal = error;
    }
    expect((refusal as TaskStdinError).reason).toBe('closed');
    expect((refusal as TaskStdinError).message).toContain('is broken');
  });

  it('the end of the task refuses later writes as exited', () => {
    const queue = new TaskStdinQueue(heldStdin());
    queue.taskEnded();
    expect(() => queue.write('bg-4', writeData('x'), false)).toThrow(/has exited/);
  });

  it("close on a stdin that cannot end is the backend's refusal, and nothing of the call is queued", async () => {
    const stdin = {
      ...heldStdin(),
      endRefusal: () => new CapabilityError("closing a background task's stdin", 'test'),
    };
    const queue = new TaskStdinQueue(stdin);
    expect(() => queue.write('bg-5', writeData('x'), true)).toThrow(CapabilityError);
    expect(queue.state).toBe('open');
  });

  it('data must be a string or bytes within the per-call cap', () => {
    expect(() => writeData(42)).toThrow(InvalidArgumentError);
    expect(() => writeData(new Uint8Array(MAX_BACKGROUND_WRITE_BYTES + 1))).toThrow(
      /over the 1048576-byte limit/,
    );
    const source = new Uint8Array([1, 2, 3]);
    const copy = writeData(source);
    source[0] = 9;
    expect([...copy]).toEqual([1, 2, 3]);
    expect([...writeData('é')]).toEqual([0xc3, 0xa9]);
  });
});
