// `--unix-sockets` on the command line: deny (default), own (sockets inside the root and the temp
// directory only), allow; refused with the docker context. Checked against a real host socket.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseContext } from '../../src/cli/context-setup.js';
import { InvalidArgumentError } from '../../src/errors/index.js';
import { berth } from './berth-binary.js';

let root: string;
let outside: string;
let server: Server;
let socketPath: string;

beforeAll(async () => {
  root = realpathSync(mkdtempSync('/tmp/berth-cli-sockets-'));
  outside = realpathSync(mkdtempSync('/var/tmp/berth-cli-sockets-'));
  socketPath = join(outside, 'daemon.sock');
  server = createServer((socket) => socket.end('HOST-DAEMON\n'));
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('--unix-sockets', () => {
  it('maps deny, own and allow onto the policy, and refuses anything else or another context', () => {
    expect(chooseContext({ root }, '/')).toMatchObject({ kind: 'process', unixSockets: 'deny' });
    expect(chooseContext({ root, 'unix-sockets': 'own' }, '/')).toMatchObject({ unixSockets: [] });
    expect(chooseContext({ root, 'unix-sockets': 'allow' }, '/')).toMatchObject({ unixSockets: 'allow' });
    expect(() => chooseContext({ root, 'unix-sockets': 'some' }, '/')).toThrow(InvalidArgumentError);
    expect(() =>
      chooseContext({ root, context: 'docker', image: 'x', 'unix-sockets': 'allow' }, '/'),
    ).toThrow(/applies to the OS sandbox/);
    expect(() => chooseContext({ context: 'e2b', 'unix-sockets': 'own' }, root)).toThrow(
      /applies to the OS sandbox of the process context; the e2b context/,
    );
  });

  it('berth run keeps a sandboxed command off a host socket unless told otherwise', async () => {
    const client = `require('net').connect(${JSON.stringify(socketPath)}).on('data',d=>{process.stdout.write('GOT '+d);process.exit(0)}).on('error',e=>{console.log('ERR '+e.code);process.exit(3)})`;
    const run = (extra: string[]) =>
      berth(['run', '--sandbox', '--root', root, ...extra, '--', process.execPath, '-e', client]);
    const denied = await run([]);
    expect(denied.stdout).toContain('ERR EPERM');
    const own = await run(['--unix-sockets', 'own']);
    expect(own.stdout).not.toContain('HOST-DAEMON');
    const allowed = await run(['--unix-sockets', 'allow']);
    expect(allowed.stdout).toContain('GOT HOST-DAEMON');
  });
});
