/**
 * The readable side of a remote stream: backpressure where the SDK awaits the callback, and one
 * warning when the unread backlog passes its threshold where it cannot.
 */
import { describe, expect, it } from 'vitest';
import { StreamQueue } from '../../../src/contexts/remote/stream-queue.js';

describe('StreamQueue', () => {
  it('warns once when the unread backlog passes the threshold, and keeps every byte', async () => {
    const warnings: string[] = [];
    const queue = new StreamQueue('test stdout', 1024, (message) => warnings.push(message));
    for (let i = 0; i < 10; i++) void queue.offer(new Uint8Array(512).fill(i));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/test stdout has \d+ unread bytes queued \(more than 1024\)/);
    queue.close();
    const chunks: Buffer[] = [];
    for await (const chunk of queue) chunks.push(chunk as Buffer);
    const all = Buffer.concat(chunks);
    expect(all.length).toBe(5120);
    expect([...all.subarray(4608)]).toEqual(new Array(512).fill(9));
  });

  it('offer returns a promise once the consumer is behind, settled when it reads', async () => {
    const queue = new StreamQueue('test', 64 * 1024 * 1024, () => undefined);
    let pending: Promise<void> | undefined;
    for (let i = 0; i < 64 && pending === undefined; i++) pending = queue.offer(new Uint8Array(64 * 1024));
    expect(pending, 'the queue never reported the consumer behind').toBeInstanceOf(Promise);
    let settled = false;
    void pending!.then(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    queue.resume();
    await expect.poll(() => settled).toBe(true);
    queue.destroy();
  });
});
