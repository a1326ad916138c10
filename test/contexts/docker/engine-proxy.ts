/**
 * A socket proxy in front of the real Docker engine, for fault tests: it forwards every byte until
 * told to misbehave. `hang` stops forwarding in both directions on every connection, old and new
 * (an engine that accepts but never answers); `slow` holds each answer back by `delayMs`; `reset`
 * destroys every open connection at once (an engine socket dying mid-stream) and forwards again
 * for new ones; `pass` heals it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type ProxyMode = 'pass' | 'hang' | 'slow';

export interface EngineProxy {
  /** The proxy's socket: point the context's `socketPath` here. */
  readonly socketPath: string;
  setMode(mode: ProxyMode, delayMs?: number): void;
  /** Destroy every open connection now (both sides); later connections are forwarded as the mode says. */
  resetAll(): void;
  /** Connections accepted so far. */
  readonly accepted: number;
  close(): Promise<void>;
}

export async function startEngineProxy(engineSocket: string): Promise<EngineProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'berth-engine-proxy-'));
  const socketPath = join(dir, 'engine.sock');
  let mode: ProxyMode = 'pass';
  let delayMs = 0;
  let accepted = 0;
  const open = new Set<net.Socket>();
  const forward = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk: Buffer) => {
      if (mode === 'hang') return; // swallowed: nothing ever arrives
      if (mode === 'slow') {
        from.pause();
        setTimeout(() => {
          if (!to.destroyed) to.write(chunk);
          from.resume();
        }, delayMs);
        return;
      }
      if (!to.destroyed) to.write(chunk);
    });
    from.on('end', () => {
      if (mode !== 'hang') to.end();
    });
  };
  const server = net.createServer((client) => {
    accepted++;
    const upstream = net.connect(engineSocket);
    open.add(client);
    open.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    socketPath,
    setMode(next, nextDelayMs = 0) {
      mode = next;
      delayMs = nextDelayMs;
    },
    resetAll() {
      for (const socket of open) socket.destroy();
      open.clear();
    },
    get accepted() {
      return accepted;
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
