import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors/index.js';
import { type HttpEndpoint, listenHttp } from '../../src/mcp/http-endpoint.js';
import { buildToolServer } from '../../src/mcp/tool-server.js';
import type { McpTool } from '../../src/mcp/tool-shape.js';

const upper: McpTool = {
  name: 'upper',
  description: 'Upper-cases text.',
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
  async execute(args) {
    const text = (args as { text?: unknown }).text;
    if (typeof text !== 'string')
      return { content: [{ type: 'text', text: 'text must be a string' }], isError: true };
    return { content: [{ type: 'text', text: text.toUpperCase() }] };
  },
};
const broken: McpTool = {
  name: 'broken',
  description: 'Always throws.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  async execute() {
    throw new Error('the disk is on fire');
  },
};
const newServer = () => buildToolServer([upper, broken], { name: 'test', version: '1.0.0' });

let endpoint: HttpEndpoint | undefined;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await endpoint?.close();
  endpoint = undefined;
});

async function connect(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** A raw request, so Host and Origin can be set to what a browser under attack would send. */
function raw(
  port: number,
  headers: Record<string, string>,
  body = '{}',
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('listenHttp', () => {
  it('serves tools to the SDK client that sends the token', async () => {
    endpoint = await listenHttp(newServer);
    expect(endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(endpoint.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const client = await connect(endpoint.url, endpoint.token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['upper', 'broken']);
    expect(tools[0]!.inputSchema).toEqual(upper.inputSchema);
    expect(tools[0]!.annotations).toEqual({ readOnlyHint: true });
    const result = await client.callTool({ name: 'upper', arguments: { text: 'hi' } });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'HI' }], isError: false });
    expect(endpoint.sessionCount()).toBe(1);
  });

  it('answers a throwing tool, an unknown tool and bad arguments as tool errors', async () => {
    endpoint = await listenHttp(newServer);
    const client = await connect(endpoint.url, endpoint.token);
    expect(await client.callTool({ name: 'broken', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'broken failed: the disk is on fire' }],
      isError: true,
    });
    const unknown = await client.callTool({ name: 'nope', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(unknown.content).toEqual([
      { type: 'text', text: 'unknown tool "nope"; available tools: upper, broken' },
    ]);
    const bad = await client.callTool({ name: 'upper', arguments: { text: 5 } });
    expect(bad).toMatchObject({ isError: true, content: [{ text: 'text must be a string' }] });
  });

  it('refuses a client without the token (401) and the SDK client fails to connect', async () => {
    endpoint = await listenHttp(newServer);
    const res = await raw(endpoint.port, { host: `127.0.0.1:${endpoint.port}` }, initialize);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="berth"');
    expect(JSON.parse(res.body).error.message).toMatch(/missing Authorization: Bearer <token>/);
    await expect(connect(endpoint.url)).rejects.toThrow();
    expect(endpoint.sessionCount()).toBe(0);
  });

  it('refuses a wrong token, a near-miss token and a non-bearer scheme', async () => {
    endpoint = await listenHttp(newServer, { token: 'correct-horse-battery-staple' });
    expect(endpoint.token).toBe('correct-horse-battery-staple');
    const host = `127.0.0.1:${endpoint.port}`;
    for (const authorization of [
      'Bearer wrong-token-wrong-token',
      'Bearer correct-horse-battery-stapl',
      'Bearer correct-horse-battery-staple2',
      'Basic correct-horse-battery-staple',
      'Bearer',
    ]) {
      const res = await raw(endpoint.port, { host, authorization }, initialize);
      expect(res.status, authorization).toBe(401);
    }
    await expect(connect(endpoint.url, 'wrong-token-wrong-token')).rejects.toThrow();
    const ok = await raw(
      endpoint.port,
      { host, authorization: 'bearer correct-horse-battery-staple' },
      initialize,
    );
    expect(ok.status).toBe(200);
  });

  it('refuses a foreign Host or Origin (DNS rebinding) even with the token', async () => {
    endpoint = await listenHttp(newServer, { allowedOrigins: ['http://localhost:5173'] });
    const authorization = `Bearer ${endpoint.token}`;
    const host = `127.0.0.1:${endpoint.port}`;
    const evilHost = await raw(
      endpoint.port,
      { host: `evil.example:${endpoint.port}`, authorization },
      initialize,
    );
    expect(evilHost.status).toBe(403);
    expect(JSON.parse(evilHost.body).error.message).toMatch(/Host "evil.example:\d+" is not allowed/);
    const wrongPort = await raw(endpoint.port, { host: '127.0.0.1:1', authorization }, initialize);
    expect(wrongPort.status).toBe(403);
    const evilOrigin = await raw(
      endpoint.port,
      { host, authorization, origin: 'http://evil.example' },
      initialize,
    );
    expect(evilOrigin.status).toBe(403);
    const ownOrigin = await raw(
      endpoint.port,
      { host, authorization, origin: `http://localhost:${endpoint.port}` },
      initialize,
    );
    expect(ownOrigin.status).toBe(200);
    const allowed = await raw(
      endpoint.port,
      { host, authorization, origin: 'http://localhost:5173' },
      initialize,
    );
    expect(allowed.status).toBe(200);
  });

  it('listens on loopback only', async () => {
    endpoint = await listenHttp(newServer);
    const external = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal);
    expect(external, 'this test needs a non-loopback IPv4 interface').toBeDefined();
    const reached = await new Promise<string>((resolve) => {
      const req = request(
        { host: external!.address, port: endpoint!.port, path: '/mcp', method: 'GET' },
        () => resolve('connected'),
      );
      req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      req.end();
    });
    expect(reached).toBe('ECONNREFUSED');
  });

  it('refuses an unknown session and requests outside the endpoint path', async () => {
    endpoint = await listenHttp(newServer);
    const headers = { host: `127.0.0.1:${endpoint.port}`, authorization: `Bearer ${endpoint.token}` };
    const stale = await raw(endpoint.port, { ...headers, 'mcp-session-id': 'no-such-session' }, initialize);
    expect(stale.status).toBe(404);
    const notInit = await raw(
      endpoint.port,
      headers,
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    );
    expect(notInit.status).toBe(400);
    expect(endpoint.sessionCount()).toBe(0);
  });

  it('caps concurrent sessions', async () => {
    endpoint = await listenHttp(newServer, { maxSessions: 1 });
    await connect(endpoint.url, endpoint.token);
    const res = await raw(
      endpoint.port,
      { host: `127.0.0.1:${endpoint.port}`, authorization: `Bearer ${endpoint.token}` },
      initialize,
    );
    expect(res.status).toBe(503);
  });

  it('close() ends sessions and stops listening', async () => {
    endpoint = await listenHttp(newServer);
    const { port } = endpoint;
    await connect(endpoint.url, endpoint.token);
    await endpoint.close();
    await endpoint.close();
    expect(endpoint.sessionCount()).toBe(0);
    await expect(raw(port, { host: `127.0.0.1:${port}` })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('says which port is taken', async () => {
    endpoint = await listenHttp(newServer);
    await expect(listenHttp(newServer, { port: endpoint.port })).rejects.toMatchObject({
      code: 'E_IO',
      message: `port ${endpoint.port} on 127.0.0.1 is already in use; choose another port, or 0 for a free one`,
    });
  });

  it('refuses bad options with typed errors', async () => {
    await expect(listenHttp(newServer, { port: 70000 })).rejects.toThrow(InvalidArgumentError);
    await expect(listenHttp(newServer, { port: -1 })).rejects.toThrow(
      /port: must be an integer from 0 to 65535/,
    );
    await expect(listenHttp(newServer, { token: 'short' })).rejects.toThrow(
      /token: must be a string of at least 16/,
    );
    await expect(listenHttp(newServer, { token: 'has a space in the token' })).rejects.toThrow(
      InvalidArgumentError,
    );
    await expect(listenHttp(newServer, { maxSessions: 0 })).rejects.toThrow(/maxSessions/);
    await expect(listenHttp(newServer, { path: 'mcp' })).rejects.toThrow(/path: must start with/);
  });
});
