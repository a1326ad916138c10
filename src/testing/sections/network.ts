/**
 * `capabilities.network` both ways: when claimed, a command fetches a token from an HTTP server
 * in the test process; when not, the same fetch must fail (and not because the tool is missing).
 * `capabilities.ports`: `getMappedPort` answers for published ports and null otherwise.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { ExecResult } from '../../contract/types.js';
import type { CaseScope, ConformanceSection } from '../case.js';
import { SOON_MS } from '../wait-until.js';

/** Serves `token` on every path, on all interfaces (a container reaches it through its gateway). */
async function withTokenServer<T>(token: string, body: (port: number) => Promise<T>): Promise<T> {
  const server: Server = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(token);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '0.0.0.0', resolve);
  });
  try {
    return await body((server.address() as AddressInfo).port);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/**
 * Fetches `http://host:port/probe` with curl, nc (busybox's works where its static wget cannot
 * resolve) or wget, whichever the context has; exit 127 when it has none.
 */
function fetchCommand(host: string, port: number): string {
  const url = `http://${host}:${port}/probe`;
  return [
    `if command -v curl >/dev/null 2>&1; then curl -fsS -m 5 '${url}'`,
    `elif command -v nc >/dev/null 2>&1; then printf 'GET /probe HTTP/1.0\\r\\nHost: ${host}\\r\\n\\r\\n' | nc -w 5 '${host}' ${port}`,
    `elif command -v wget >/dev/null 2>&1; then wget -q -T 5 -O - '${url}'`,
    'else echo "no curl, nc or wget in the context" >&2; exit 127; fi',
  ].join('\n');
}

async function probe(scope: CaseScope): Promise<{ token: string; result: ExecResult }> {
  const token = `berth-conformance-${randomBytes(8).toString('hex')}`;
  const result = await withTokenServer(token, (port) =>
    scope.fx.exec(fetchCommand(scope.fx.options.networkHost, port), {
      timeoutMs: SOON_MS,
    }),
  );
  return { token, result };
}

export const networkSection: ConformanceSection = {
  name: 'network',
  cases: [
    {
      id: 'network/reachable',
      title: 'a command reaches an HTTP server outside the context (at options.networkHost)',
      needs: ['network', 'shell'],
      exercises: ['network'],
      run: async (scope) => {
        const { token, result } = await probe(scope);
        expect(result.exitCode, `fetch failed: ${result.stderr}`).toBe(0);
        expect(result.stdout).toContain(token);
      },
    },
    {
      id: 'network/denied',
      title: 'without capabilities.network the same fetch fails (with a fetch tool present)',
      needs: ['shell'],
      needsAbsent: ['network'],
      exercises: ['network'],
      run: async (scope) => {
        const { token, result } = await probe(scope);
        expect(result.exitCode, 'no fetch tool: the probe proves nothing').not.toBe(127);
        expect(result.stdout, 'the fetch reached the server although network is not claimed').not.toContain(
          token,
        );
      },
    },
    {
      id: 'ports/mapped',
      title: 'getMappedPort answers a host port for a published container port and null for others',
      needs: ['ports'],
      run: async ({ fx, context }) => {
        const getMappedPort = context.getMappedPort?.bind(context);
        if (!getMappedPort) throw new Error('capabilities.ports is true but getMappedPort is missing');
        const handle = await fx.spawn({ ports: [{ container: 18_080 }] });
        const port = await getMappedPort(handle, 18_080);
        expect(
          Number.isInteger(port) && (port as number) > 0 && (port as number) < 65_536,
          `mapped port ${port}`,
        ).toBe(true);
        expect(await getMappedPort(handle, 18_081), 'an unpublished port').toBeNull();
      },
    },
  ],
};
