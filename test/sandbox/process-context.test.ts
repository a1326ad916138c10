// The sandbox wired into the process context: every way of running a command is confined, writes
// from berth's own file methods follow the same policy, and a missing sandbox fails closed.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProcessContext, type ProcessContext } from '../../src/contexts/process/index.js';
import type { ContextHandle } from '../../src/contract/types.js';
import { createSandboxPolicy, SandboxDeniedError, SandboxUnavailableError } from '../../src/sandbox/index.js';
import { newSleepMarker } from '../support/process-markers.js';
import { pidsRunning, pidsWithMarker, waitFor } from './run-confined.js';

let base: string;
let ws: string;
let outside: string;
let context: ProcessContext;
let handle: ContextHandle;
/** A host path outside /tmp (which commands see as a private tmpfs), in a read-only place. */
const hostFile = `/etc/berth-sandbox-escape-${process.pid}`;

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'berth-sbx-ctx-')));
  ws = join(base, 'ws');
  outside = join(base, 'outside');
  mkdirSync(join(ws, '.git', 'hooks'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(ws, '.mcp.json'), '{}\n');
  const sandbox = createSandboxPolicy({ writableRoots: [ws], home: join(base, 'home'), env: {} });
  context = createProcessContext({ sandbox, killGraceMs: 500 });
  handle = await context.spawn({ cwd: ws });
});

afterAll(async () => {
  await context.close();
  rmSync(base, { recursive: true, force: true });
});

describe('process context with a sandbox policy', () => {
  it('declares os-sandbox isolation and no network', () => {
    expect(context.capabilities.isolation).toBe('os-sandbox');
    expect(context.capabilities.network).toBe(false);
  });

  it('exec: writes inside the root land, writes outside fail, and the read-only names hold', async () => {
    const ok = await context.exec(handle, 'echo hi > made.txt && cat made.txt');
    expect(ok).toMatchObject({ exitCode: 0, stdout: 'hi\n' });
    const outsideWrite = await context.exec(handle, `echo x > ${hostFile}; echo x > ${outside}/x`);
    expect(outsideWrite.exitCode).not.toBe(0);
    expect(outsideWrite.stderr).toMatch(/Read-only file system/);
    expect(existsSync(hostFile)).toBe(false);
    expect(existsSync(join(outside, 'x'))).toBe(false);
    const hook = await context.exec(handle, 'echo evil > .git/hooks/pre-commit; echo evil > .mcp.json');
    expect(hook.exitCode).not.toBe(0);
    expect(existsSync(join(ws, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(readFileSync(join(ws, '.mcp.json'), 'utf8')).toBe('{}\n');
  });

  it('exec: a timeout ends a double-forked, setsid daemon with the tree', async () => {
    const marker = newSleepMarker();
    const result = await context.exec(handle, `(setsid sh -c 'sleep ${marker}' &); exec sleep ${marker}`, {
      timeoutMs: 800,
    });
    expect(result.timedOut).toBe(true);
    expect(await waitFor(() => pidsWithMarker(marker).length === 0, 5000)).toBe(true);
  });

  it('execBackground: confined, and killBackground ends a setsid daemon too', async () => {
    const marker = newSleepMarker();
    const task = await context.execBackground!(
      handle,
      `echo bg > bg.txt; echo x > ${outside}/bg 2>/dev/null || echo denied; (setsid sh -c 'sleep ${marker}' &); exec sleep ${marker}`,
    );
    expect(await waitFor(() => pidsWithMarker(marker).length >= 2, 5000)).toBe(true);
    expect(await waitFor(() => readFileSync(task.outputPath, 'utf8').includes('denied'), 5000)).toBe(true);
    await context.killBackground!(handle, task.id);
    expect(await waitFor(() => pidsWithMarker(marker).length === 0, 5000)).toBe(true);
    expect(readFileSync(join(ws, 'bg.txt'), 'utf8')).toBe('bg\n');
    expect(existsSync(join(outside, 'bg'))).toBe(false);
  });

  it('execStream: confined both ways (writes and network)', async () => {
    const server: Server = createServer((socket) => socket.end('PONG\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const script = `require('net').connect(${port},'127.0.0.1').on('data',d=>{process.stdout.write(String(d));process.exit(0)}).on('error',e=>{console.log(e.code);require('fs').writeFileSync(${JSON.stringify(hostFile)},'x')})`;
      const stream = await context.execStream!(handle, [process.execPath, '-e', script]);
      stream.stdin.end();
      let out = '';
      let err = '';
      stream.stdout.setEncoding('utf8').on('data', (text: string) => {
        out += text;
      });
      stream.stderr?.setEncoding('utf8').on('data', (text: string) => {
        err += text;
      });
      const ended = Promise.all([
        new Promise((resolve) => stream.stdout.on('end', resolve)),
        new Promise((resolve) => stream.stderr?.on('end', resolve)),
      ]);
      const code = await stream.exited;
      await ended;
      expect(out).toBe('ECONNREFUSED\n');
      expect(code).not.toBe(0);
      expect(err).toMatch(/EROFS/);
      expect(existsSync(hostFile)).toBe(false);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('openTerminal: the shell on the terminal is confined and keeps job control', async () => {
    if (context.openTerminal === undefined)
      throw new Error('node-pty is not installed: terminals cannot be tested');
    const terminal = await context.openTerminal(handle, { cols: 80, rows: 24, shell: ['/bin/sh', '-i'] });
    let screen = '';
    terminal.onData((chunk) => {
      screen += Buffer.from(chunk).toString('utf8');
    });
    // Job control: the interactive shell leads its own process group, and that group is the
    // terminal's foreground group (fields 5 and 8 of /proc/<pid>/stat).
    terminal.write(
      `echo x > ${hostFile}; echo "rc=$?"; echo "fg=$(awk '{print ($5 == $8) ? "yes" : "no"}' /proc/$$/stat)"; exit\n`,
    );
    await terminal.exited;
    expect(screen).toMatch(/Read-only file system/);
    expect(screen).toMatch(/rc=[1-9]/);
    expect(screen).toContain('fg=yes');
    expect(existsSync(hostFile)).toBe(false);
  });

  it('execStream kill() and a terminal kill() end their trees, setsid daemons included (checked from the host)', async () => {
    const streamMarker = newSleepMarker();
    const stream = await context.execStream!(handle, [
      '/bin/sh',
      '-c',
      `(setsid sh -c 'sleep ${streamMarker}' &); exec sleep ${streamMarker}`,
    ]);
    stream.stdout.resume();
    stream.stderr?.resume();
    expect(await waitFor(() => pidsRunning(['sleep', streamMarker]).length === 2, 5000)).toBe(true);
    await stream.kill();
    expect(await waitFor(() => pidsWithMarker(streamMarker).length === 0, 5000)).toBe(true);

    if (context.openTerminal === undefined)
      throw new Error('node-pty is not installed: terminals cannot be tested');
    const termMarker = newSleepMarker();
    const terminal = await context.openTerminal(handle, { cols: 80, rows: 24, shell: ['/bin/sh', '-i'] });
    terminal.onData(() => {});
    terminal.write(`(setsid sh -c 'sleep ${termMarker}' &); sleep ${termMarker} &\n`);
    expect(await waitFor(() => pidsRunning(['sleep', termMarker]).length === 2, 5000)).toBe(true);
    await terminal.kill();
    expect(await waitFor(() => pidsWithMarker(termMarker).length === 0, 5000)).toBe(true);
  });

  it('writeFile: allowed inside the root, denied outside and on read-only names', async () => {
    await context.writeFile(handle, join(ws, 'via-write.txt'), 'ok');
    expect(readFileSync(join(ws, 'via-write.txt'), 'utf8')).toBe('ok');
    await expect(context.writeFile(handle, join(outside, 'nope.txt'), 'x')).rejects.toBeInstanceOf(
      SandboxDeniedError,
    );
    await expect(context.writeFile(handle, join(ws, '.git', 'hooks', 'pre-push'), 'x')).rejects.toMatchObject(
      {
        code: 'E_SANDBOX_DENIED',
      },
    );
    expect(existsSync(join(outside, 'nope.txt'))).toBe(false);
    expect(existsSync(join(ws, '.git', 'hooks', 'pre-push'))).toBe(false);
  });
});

describe('process context when the sandbox cannot be applied', () => {
  let closed: ProcessContext;
  let closedHandle: ContextHandle;
  const marker = join(tmpdir(), `berth-must-not-exist-${process.pid}`);

  beforeAll(async () => {
    const sandbox = createSandboxPolicy({
      writableRoots: [base],
      home: join(base, 'home'),
      env: {},
      bwrapPath: join(base, 'missing', 'bwrap'),
    });
    closed = createProcessContext({ sandbox });
    closedHandle = await closed.spawn({ cwd: base });
  });
  afterAll(() => closed.close());

  it('exec returns exit 127 with the reason and the fix, and runs nothing', async () => {
    const result = await closed.exec(closedHandle, `touch ${marker}`);
    expect(result.exitCode).toBe(127);
    expect(result.stderr).toContain('sandbox unavailable');
    expect(result.stderr).toContain(join(base, 'missing', 'bwrap'));
    expect(result.stderr).toContain('install bubblewrap');
    expect(existsSync(marker)).toBe(false);
  });

  it('execBackground exits 127 with the explanation in its log, and runs nothing', async () => {
    const task = await closed.execBackground!(closedHandle, `touch ${marker}`);
    const exit = await closed.waitBackground!(closedHandle, task.id, { timeoutMs: 5000 });
    expect(exit?.exitCode).toBe(127);
    expect(await closed.readFile(closedHandle, task.outputPath)).toContain('install bubblewrap');
    expect(existsSync(marker)).toBe(false);
  });

  it('execStream exits 127 with the explanation on stderr', async () => {
    const stream = await closed.execStream!(closedHandle, ['/bin/sh', '-c', `touch ${marker}`]);
    let err = '';
    stream.stdout.resume();
    const ended = new Promise((resolve) => stream.stderr?.on('end', resolve));
    stream.stderr?.setEncoding('utf8').on('data', (text: string) => {
      err += text;
    });
    expect(await stream.exited).toBe(127);
    await ended;
    expect(err).toContain('install bubblewrap');
    expect(existsSync(marker)).toBe(false);
  });

  it('no bubblewrap on PATH: exec returns 127 naming the PATH searched, and runs nothing', async () => {
    const onPath = createProcessContext({
      sandbox: createSandboxPolicy({ writableRoots: [base], home: join(base, 'home'), env: {} }),
    });
    const savedPath = process.env.PATH;
    try {
      const onPathHandle = await onPath.spawn({ cwd: base });
      process.env.PATH = join(base, 'no-bin');
      const result = await onPath.exec(onPathHandle, `/usr/bin/touch ${marker}`);
      expect(result.exitCode).toBe(127);
      expect(result.stderr).toContain(`no executable "bwrap" on PATH (${join(base, 'no-bin')})`);
      expect(existsSync(marker)).toBe(false);
    } finally {
      process.env.PATH = savedPath;
      await onPath.close();
    }
  });

  it('openTerminal refuses with SandboxUnavailableError carrying the fix', async () => {
    if (closed.openTerminal === undefined)
      throw new Error('node-pty is not installed: terminals cannot be tested');
    const error = await closed.openTerminal(closedHandle, { cols: 80, rows: 24 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxUnavailableError);
    expect((error as SandboxUnavailableError).fix).toContain('install bubblewrap');
  });
});
