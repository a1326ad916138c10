// A host daemon's Unix socket outside the hidden list (here: a real listening socket under /var/tmp,
// outside every writable root) against a sandboxed command that connects to it, with the network
// denied and allowed; abstract sockets; and the policy's allow-list.
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProcessContext, type ProcessContext } from '../../../src/contexts/process/index.js';
import { createSandboxPolicy, type SandboxPolicyOptions } from '../../../src/sandbox/index.js';
import { makeScene, type Scene } from './fake-home.js';

let scene: Scene;
let hostSocket: string;
let abstractName: string;
const servers: Server[] = [];
const contexts: ProcessContext[] = [];

function listen(path: string): Promise<Server> {
  const server = createServer((socket) => socket.end('HOST-DAEMON\n'));
  servers.push(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve(server));
  });
}

beforeAll(async () => {
  scene = makeScene('sockets');
  hostSocket = join(scene.outside, 'daemon.sock');
  await listen(hostSocket);
  abstractName = `berth-attack-${process.pid}`;
  await listen(`\0${abstractName}`);
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  scene?.remove();
});

/** Connect to `target` from inside a sandbox built with `extra`; what the command printed. */
async function connectFrom(extra: Partial<SandboxPolicyOptions>, target: string): Promise<string> {
  const context = createProcessContext({
    sandbox: createSandboxPolicy({ writableRoots: [scene.ws], home: scene.home, env: {}, ...extra }),
  });
  contexts.push(context);
  const handle = await context.spawn({ cwd: scene.ws });
  const script = `require('net').connect(${JSON.stringify(target)}).on('data', (d) => { process.stdout.write('GOT ' + d); process.exit(0); }).on('error', (e) => { console.log('ERR ' + e.code); process.exit(3); })`;
  const result = await context.exec(handle, `${JSON.stringify(process.execPath)} -e ${shellQuote(script)}`, {
    timeoutMs: 20_000,
  });
  return result.stdout + result.stderr;
}

const shellQuote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

describe('a sandboxed command against a host Unix socket', () => {
  it('the socket works from the host (control)', async () => {
    const { connect } = await import('node:net');
    const got = await new Promise<string>((resolve, reject) => {
      connect(hostSocket)
        .on('data', (data) => resolve(String(data)))
        .on('error', reject);
    });
    expect(got).toBe('HOST-DAEMON\n');
  });

  it('cannot connect by default, network denied', async () => {
    const out = await connectFrom({}, hostSocket);
    expect(out).not.toContain('HOST-DAEMON');
    expect(out).toContain('ERR EPERM');
  });

  it('cannot connect by default with the network allowed, nor to an abstract socket', async () => {
    expect(await connectFrom({ network: 'allow' }, hostSocket)).not.toContain('HOST-DAEMON');
    const abstract = await connectFrom({ network: 'allow' }, `\0${abstractName}`);
    expect(abstract).not.toContain('HOST-DAEMON');
    expect(abstract).toContain('ERR EPERM');
  });

  it('socketpair still works under the filter (a program talking to its child over pipes)', async () => {
    const context = createProcessContext({
      sandbox: createSandboxPolicy({ writableRoots: [scene.ws], home: scene.home, env: {} }),
    });
    contexts.push(context);
    const handle = await context.spawn({ cwd: scene.ws });
    const script =
      "process.stdout.write(require('child_process').execFileSync('sh', ['-c', 'echo from-child']))";
    const result = await context.exec(handle, `${JSON.stringify(process.execPath)} -e ${shellQuote(script)}`);
    expect(result.stdout).toBe('from-child\n');
  });

  it('an allow-list admits the sockets it names, and only those', async () => {
    expect(await connectFrom({ unixSockets: [hostSocket] }, hostSocket)).toContain('GOT HOST-DAEMON');
    const other = join(scene.outside, 'other.sock');
    await listen(other);
    const refused = await connectFrom({ unixSockets: [hostSocket] }, other);
    expect(refused).not.toContain('HOST-DAEMON');
    expect(refused).toMatch(/ERR (ECONNREFUSED|ENOTSOCK|EACCES|ENOENT)/);
  });

  it('an empty allow-list still lets a command use sockets inside its writable roots', async () => {
    const inside = join(scene.ws, 'own.sock');
    await listen(inside);
    expect(await connectFrom({ unixSockets: [] }, inside)).toContain('GOT HOST-DAEMON');
    expect(await connectFrom({ unixSockets: [] }, hostSocket)).not.toContain('HOST-DAEMON');
    expect(await connectFrom({}, inside)).toContain('ERR EPERM');
  });
});
