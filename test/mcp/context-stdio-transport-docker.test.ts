import { existsSync, realpathSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDockerContext, type DockerContext } from '../../src/contexts/docker/index.js';
import type { ContextHandle } from '../../src/contract/types.js';
import { createContextStdioTransport } from '../../src/mcp/index.js';
import { newMarker, pidsWithMarker, waitForNoMarker } from '../support/process-markers.js';

// The test image is busybox only, without node. node is dynamically linked, so the container gets
// the host's node binary plus the loader and library directories it needs, and the repository
// (fixture + node_modules) at the same path, all read-only.
const IMAGE = 'berth-test:busybox';
const REPO = realpathSync(new URL('../..', import.meta.url).pathname);
const FIXTURE = `${REPO}/test/fixtures/mcp/echo-server.mjs`;
const NODE_IN_CONTAINER = '/opt/berth-node/node';
// The loader (/lib64/ld-linux-*.so.2) and libc/libstdc++ live under these; on merged-/usr hosts they
// are symlinks into /usr, so the real directory is mounted at the path the loader looks for.
const LIBRARY_DIRS = ['/lib', '/lib64'].filter((dir) => existsSync(dir));

let context: DockerContext;
let handle: ContextHandle;

beforeAll(async () => {
  context = createDockerContext({ image: IMAGE });
  handle = await context.spawn({
    cwd: '/workspace',
    mounts: [
      { source: realpathSync(process.execPath), target: NODE_IN_CONTAINER, readOnly: true },
      // The busybox image keeps its own /bin; only the library directories are shared.
      ...LIBRARY_DIRS.map((dir) => ({ source: realpathSync(dir), target: dir, readOnly: true })),
      { source: REPO, target: REPO, readOnly: true },
    ],
  });
});
afterAll(async () => {
  await context?.destroy(handle);
});

describe('createContextStdioTransport in a Docker container', () => {
  it('drives a real SDK server inside the container and leaves no process after close', async () => {
    const marker = newMarker();
    const transport = createContextStdioTransport(context, handle, {
      command: NODE_IN_CONTAINER,
      args: [FIXTURE, marker, '--ignore-eof'],
      graceMs: 500,
    });
    const client = new Client({ name: 'berth-test', version: '1.0.0' });
    await client.connect(transport).catch((error: Error) => {
      throw new Error(`${error.message}; server stderr: ${transport.stderrTail()}`);
    });
    try {
      const cwd = (await client.callTool({ name: 'cwd', arguments: {} })) as { content: { text: string }[] };
      expect(cwd.content[0]!.text).toBe('/workspace');
      // The server sees the container's filesystem, not the host's.
      const release = (await client.callTool({ name: 'read', arguments: { path: '/etc/passwd' } })) as {
        content: { text: string }[];
      };
      expect(release.content[0]!.text).toBe(
        'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/home:/bin/sh\n',
      );
      const echo = (await client.callTool({ name: 'echo', arguments: { text: 'from the container ✓' } })) as {
        content: { text: string }[];
      };
      expect(echo.content[0]!.text).toBe('from the container ✓');
      await client.callTool({ name: 'spawn_child', arguments: {} });
      expect(transport.stderrTail()).toContain('echo-server ready');
      // Container processes are visible in the host's /proc (same kernel, runc runtime).
      expect(pidsWithMarker(marker).length).toBeGreaterThanOrEqual(2);
    } finally {
      await client.close();
    }
    expect(await waitForNoMarker(marker, 5000)).toEqual([]);
  });
});
