/**
 * The HTTP endpoint's sessions and how they are reclaimed. A client may vanish without the DELETE
 * that ends its session (the SDK client's `close()` sends none), so a session is closed when it has
 * had no open exchange for `idleTimeoutMs`, and when the cap is reached the session idle the
 * longest makes room. A session with a request in flight or an open event stream is busy and kept.
 * @module
 */
import type { ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: Server;
  /** Exchanges (requests, event streams) whose response is still open. */
  open: number;
  /** When the last exchange ended (or the session began): the idle clock. */
  idleSince: number;
  idleTimer: NodeJS.Timeout | undefined;
}

export class SessionTable {
  private readonly sessions = new Map<string, Session>();
  /** Sessions being initialized: counted against the cap before they have an id. */
  private pending = 0;

  constructor(
    private readonly maxSessions: number,
    private readonly idleTimeoutMs: number,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  /**
   * Make room for one more session: true when there is room (after closing the session idle the
   * longest, if the cap was reached), false when every session is busy.
   */
  async reserve(): Promise<boolean> {
    if (this.sessions.size + this.pending < this.maxSessions) {
      this.pending++;
      return true;
    }
    let oldest: [string, Session] | undefined;
    for (const entry of this.sessions) {
      if (entry[1].open === 0 && (oldest === undefined || entry[1].idleSince < oldest[1].idleSince))
        oldest = entry;
    }
    if (oldest === undefined) return false;
    this.pending++;
    await this.close(oldest[0]);
    return true;
  }

  /** The reservation was used (the session has an id now) or not (initialize failed). */
  release(): void {
    this.pending--;
  }

  add(id: string, transport: StreamableHTTPServerTransport, server: Server): void {
    this.sessions.set(id, { transport, server, open: 0, idleSince: Date.now(), idleTimer: undefined });
    this.armIdleTimer(id);
  }

  /** Forget a session that closed by itself (DELETE, or the server closed). */
  forget(id: string): void {
    const session = this.sessions.get(id);
    if (session === undefined) return;
    clearTimeout(session.idleTimer);
    this.sessions.delete(id);
  }

  /** Count `res` as an open exchange of session `id` until it closes. */
  track(id: string, res: ServerResponse): void {
    const session = this.sessions.get(id);
    if (session === undefined) return;
    session.open++;
    clearTimeout(session.idleTimer);
    session.idleTimer = undefined;
    res.once('close', () => {
      session.open--;
      if (session.open > 0) return;
      session.idleSince = Date.now();
      this.armIdleTimer(id);
    });
  }

  /** Close one session; its transport's `onclose` forgets it. */
  async close(id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (session === undefined) return;
    this.forget(id);
    await session.server.close().catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.sessions.keys()].map((id) => this.close(id)));
  }

  private armIdleTimer(id: string): void {
    const session = this.sessions.get(id);
    if (session === undefined || session.open > 0) return;
    clearTimeout(session.idleTimer);
    session.idleTimer = setTimeout(() => void this.close(id), this.idleTimeoutMs);
    // An idle session alone never keeps the process alive.
    session.idleTimer.unref();
  }
}
