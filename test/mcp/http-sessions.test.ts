/**
 * HTTP MCP sessions are reclaimed. The SDK client's close() sends no DELETE, so an endpoint that
 * only forgot sessions on DELETE filled its cap after 16 clients and answered 503 to every later
 * one until restart. Driven by the official SDK client throughout.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpEndpoint, listenHttp } from '../../src/mcp/http-endpoint.js';
import { buildToolServer } from '../../src/mcp/tool-server.js';
import type { McpTool } from '../../src/mcp/tool-shape.js';

/** A tool that holds its call open until released, so a session can be kept busy on purpose. */
function holdingTool(): { tool: McpTool; release: () => void; started: Promise<void> } {
  let release!: () => void;
  let markStarted!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  const tool: McpTool = {
    name: 'hold',
    description: 'Waits until the test releases it.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    async execute() {
      markStarted();
      await released;
      return { content: [{ type: 'text', text: 'released' }] };
    },
  };
  return { tool, release, started };
}

const echo: McpTool = {
  name: 'echo',
  description: 'Echoes.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, additionalProperties: false },
  async execute(args) {
    return { content: [{ type: 'text', text: String((args as { text?: unknown }).text) }] };
  },
};

let endpoint: HttpEndpoint | undefined;
const open: Client[] = [];
afterEach(async () => {
  await Promise.allSettled(open.splice(0).map((client) => client.close()));
  await endpoint?.close();
  endpoint = undefined;
});

async function connect(target: HttpEndpoint): Promise<Client> {
  const client = new Client({ name: 'sessions-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(target.url), {
      requestInit: { headers: { Authorization: `Bearer ${target.token}` } },
    }),
  );
  return client;
}

/** Wait for a condition the endpoint reaches by itself (a timer or a socket close), with a deadline. */
async function until(condition: () => boolean, what: string, deadlineMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > deadlineMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function untilAsync(
  condition: () => Promise<boolean>,
  what: string,
  deadlineMs = 10_000,
): Promise<void> {
  const start = Date.now();
  while (!(await condition())) {
    if (Date.now() - start > deadlineMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('HTTP MCP sessions are reclaimed', () => {
  it('50 connect/close cycles of the SDK client (no DELETE), then a working session', async () => {
    endpoint = await listenHttp(() => buildToolServer([echo], { name: 't', version: '1' }));
    for (let cycle = 0; cycle < 50; cycle++) {
      const client = await connect(endpoint);
      expect(await client.callTool({ name: 'echo', arguments: { text: `cycle ${cycle}` } })).toMatchObject({
        content: [{ text: `cycle ${cycle}` }],
      });
      await client.close();
      expect(endpoint.sessionCount()).toBeLessThanOrEqual(16);
    }
    const last = await connect(endpoint);
    open.push(last);
    expect(await last.callTool({ name: 'echo', arguments: { text: 'still serving' } })).toMatchObject({
      content: [{ text: 'still serving' }],
    });
  });

  it('when the cap is reached the oldest idle session is reclaimed; a client still using its session keeps it', async () => {
    endpoint = await listenHttp(() => buildToolServer([echo], { name: 't', version: '1' }), {
      maxSessions: 2,
    });
    const first = await connect(endpoint);
    await first.close(); // gone without a word: its session is idle
    const second = await connect(endpoint);
    open.push(second);
    const third = await connect(endpoint); // the cap: the idle first session makes room
    open.push(third);
    expect(endpoint.sessionCount()).toBe(2);
    for (const client of [second, third]) {
      expect(await client.callTool({ name: 'echo', arguments: { text: 'ok' } })).toMatchObject({
        content: [{ text: 'ok' }],
      });
    }
  });

  it('a session idle longer than idleTimeoutMs is closed by the endpoint itself', async () => {
    endpoint = await listenHttp(() => buildToolServer([echo], { name: 't', version: '1' }), {
      idleTimeoutMs: 200,
    });
    const client = await connect(endpoint);
    await client.close();
    expect(endpoint.sessionCount()).toBe(1);
    await until(() => endpoint!.sessionCount() === 0, 'the idle session to be reclaimed');
  });

  it('when every session is busy the 503 reports the cap; a client that goes away makes room', async () => {
    const holds = [holdingTool(), holdingTool()];
    let built = 0;
    endpoint = await listenHttp(
      () =>
        buildToolServer(built < holds.length ? [holds[built++]!.tool, echo] : [echo], {
          name: 't',
          version: '1',
        }),
      {
        maxSessions: 2,
      },
    );
    const clients = [await connect(endpoint), await connect(endpoint)];
    open.push(...clients);
    const calls = clients.map((client) => client.callTool({ name: 'hold', arguments: {} }));
    await Promise.all(holds.map((hold) => hold.started));
    const refused = (await connect(endpoint).then(
      () => null,
      (error: unknown) => error,
    )) as (Error & { code?: number }) | null;
    expect(refused?.code).toBe(503);
    expect(refused?.message).toContain('all 2 sessions (maxSessions) are busy');
    for (const hold of holds) hold.release();
    expect(await Promise.all(calls)).toMatchObject([
      { content: [{ text: 'released' }] },
      { content: [{ text: 'released' }] },
    ]);
    // A connected SDK client keeps an event stream open (GET), so its session stays busy: still no room.
    const stillRefused = (await connect(endpoint).then(
      () => null,
      (error: unknown) => error,
    )) as { code?: number } | null;
    expect(stillRefused?.code).toBe(503);
    await clients[0]!.close();
    // The endpoint learns of the closed event stream when its socket closes, a moment later.
    let next: Client | undefined;
    await untilAsync(async () => {
      next = await connect(endpoint!).catch((error: { code?: number }) => {
        if (error.code !== 503) throw error;
        return undefined;
      });
      return next !== undefined;
    }, 'room for a new session');
    next = next!;
    open.push(next);
    expect(await next.callTool({ name: 'echo', arguments: { text: 'room' } })).toMatchObject({
      content: [{ text: 'room' }],
    });
    expect(endpoint.sessionCount()).toBe(2);
  });
});
