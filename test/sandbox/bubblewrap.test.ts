import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confineCommand, createSandboxPolicy } from '../../src/sandbox/index.js';
import { flushIdlePlaceholders } from '../../src/sandbox/placeholders.js';
import { newSleepMarker } from '../support/process-markers.js';
import { pidsRunning, pidsWithMarker, runConfined, waitFor } from './run-confined.js';

let base: string;
let ws: string;
let outside: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'berth-sbx-'));
  ws = join(base, 'ws');
  outside = join(base, 'outside');
  mkdirSync(ws);
  mkdirSync(outside);
});

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

function policy(extra: Parameters<typeof createSandboxPolicy>[0] extends infer O ? Partial<O> : never = {}) {
  return createSandboxPolicy({ writableRoots: [ws], home: join(base, 'no-home'), env: {}, ...extra });
}

const sh = (script: string) => ['/bin/sh', '-c', script];

describe('writes', () => {
  it('a write inside a writable root lands on the host', async () => {
    const result = await runConfined(policy(), sh('echo inside > inside.txt'), { cwd: ws });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(join(ws, 'inside.txt'), 'utf8')).toBe('inside\n');
  });

  it('a write outside the writable roots fails and leaves nothing on the host', async () => {
    const result = await runConfined(
      policy(),
      sh(`echo escaped > /etc/berth-escape; echo $? ; echo x > ${outside}/x`),
      {
        cwd: ws,
      },
    );
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/Read-only file system|No such file|Permission denied/);
    expect(existsSync('/etc/berth-escape')).toBe(false);
    expect(existsSync(join(outside, 'x'))).toBe(false);
  });

  it('a symlink inside the root pointing outside does not carry a write out', async () => {
    symlinkSync(outside, join(ws, 'link-out'));
    const result = await runConfined(policy(), sh('echo x > link-out/through-link'), { cwd: ws });
    expect(result.code).not.toBe(0);
    expect(existsSync(join(outside, 'through-link'))).toBe(false);
  });

  it('reads outside the roots are allowed', async () => {
    const result = await runConfined(policy(), sh('cat /etc/hostname >/dev/null && echo read-ok'), {
      cwd: ws,
    });
    expect(result.stdout).toBe('read-ok\n');
  });

  it('/tmp is a private, writable, empty tmpfs per command (host /tmp is not written)', async () => {
    writeFileSync(join(base, 'host-tmp-file'), 'host');
    const script = `echo scratch > /tmp/berth-scratch && cat /tmp/berth-scratch && ls ${base}/host-tmp-file 2>&1; echo "TMP=$(ls -A /tmp | tr '\\n' ' ')"`;
    const result = await runConfined(policy(), sh(script), { cwd: ws });
    expect(result.stdout).toContain('scratch\n');
    expect(result.stdout).toMatch(/No such file/);
    expect(existsSync('/tmp/berth-scratch')).toBe(false);
  });

  it('a working directory in /tmp outside the roots stays reachable, read-only', async () => {
    const result = await runConfined(policy(), sh('pwd; echo x > here.txt'), { cwd: outside });
    expect(result.stdout).toBe(`${outside}\n`);
    expect(result.code).not.toBe(0);
    expect(existsSync(join(outside, 'here.txt'))).toBe(false);
  });
});

describe('read-only names inside a writable root', () => {
  it('cannot be written, replaced or removed; their contents on the host are unchanged', async () => {
    const root = join(base, 'ro-root');
    mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(root, '.git', 'config'), '[core]\n');
    writeFileSync(join(root, '.bashrc'), 'original rc\n');
    writeFileSync(join(root, '.mcp.json'), '{}\n');
    const p = createSandboxPolicy({ writableRoots: [root], home: join(base, 'no-home'), env: {} });
    const attempts = [
      'echo evil >> .bashrc',
      'rm -f .bashrc',
      'mv .mcp.json gone.json',
      'echo evil > .mcp.json',
      'echo "#!/bin/sh" > .git/hooks/pre-commit',
      'echo "[core] hooksPath=/x" >> .git/config',
    ];
    for (const attempt of attempts) {
      const result = await runConfined(p, sh(attempt), { cwd: root });
      expect(result.code, attempt).not.toBe(0);
    }
    const ok = await runConfined(p, sh('echo fine > notes.txt && echo obj > .git/objects-like'), {
      cwd: root,
    });
    expect(ok.code).toBe(0);
    expect(readFileSync(join(root, '.bashrc'), 'utf8')).toBe('original rc\n');
    expect(readFileSync(join(root, '.mcp.json'), 'utf8')).toBe('{}\n');
    expect(readFileSync(join(root, '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(existsSync(join(root, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('fine\n');
  });

  it('a guarded name that does not exist cannot be created; its placeholder goes with the command', async () => {
    const root = join(base, 'ro-missing');
    mkdirSync(root);
    const p = createSandboxPolicy({ writableRoots: [root], home: join(base, 'no-home'), env: {} });
    const result = await runConfined(
      p,
      sh('ls -A .vscode && mkdir -p .vscode && echo {} > .vscode/tasks.json'),
      {
        cwd: root,
      },
    );
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/Permission denied/);
    flushIdlePlaceholders();
    expect(existsSync(join(root, '.vscode'))).toBe(false);
  });
});

describe('hidden paths', () => {
  it('credential directories read as empty and files as empty; nothing can be written into them', async () => {
    const home = join(base, 'home');
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'id_ed25519'), 'SECRET-KEY');
    mkdirSync(join(home, '.aws'));
    writeFileSync(join(home, '.aws', 'credentials'), 'SECRET-AWS');
    writeFileSync(join(home, '.netrc'), 'machine x password SECRET-NETRC');
    writeFileSync(join(home, '.bashrc'), 'rc\n');
    const p = createSandboxPolicy({ writableRoots: [home], home, env: {} });
    const script = [
      'echo "ssh=[$(ls -A .ssh)]"',
      'echo "aws=[$(ls -A .aws)]"',
      'cat .ssh/id_ed25519 .aws/credentials .netrc 2>/dev/null',
      'echo "netrc=[$(cat .netrc 2>/dev/null)]"',
      'touch .ssh/authorized_keys 2>/dev/null && echo WROTE-SSH',
      'grep -r SECRET . 2>/dev/null',
      'true',
    ].join('; ');
    const result = await runConfined(p, sh(script), { cwd: home });
    expect(result.stdout).toContain('ssh=[]\n');
    expect(result.stdout).toContain('aws=[]\n');
    expect(result.stdout).toContain('netrc=[]\n');
    expect(result.stdout).not.toContain('SECRET');
    expect(result.stdout).not.toContain('WROTE-SSH');
    expect(existsSync(join(home, '.ssh', 'authorized_keys'))).toBe(false);
    // The host copies are untouched.
    expect(readFileSync(join(home, '.ssh', 'id_ed25519'), 'utf8')).toBe('SECRET-KEY');
  });

  it('a read-only name that is a symlink into a hidden path does not uncover it', async () => {
    const home = join(base, 'home-link');
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'id_ed25519'), 'SECRET-KEY');
    symlinkSync(join(home, '.ssh'), join(home, '.vscode'));
    const p = createSandboxPolicy({ writableRoots: [home], home, env: {} });
    const result = await runConfined(
      p,
      sh('ls -A .vscode/; cat .vscode/id_ed25519 .ssh/id_ed25519 2>&1; true'),
      {
        cwd: home,
      },
    );
    expect(result.stdout).not.toContain('SECRET');
    expect(result.stdout).toMatch(/No such file/);
  });

  it('an explicit hidden path outside the roots is masked too', async () => {
    const secrets = join(ws, 'secrets');
    mkdirSync(secrets);
    writeFileSync(join(secrets, 'token'), 'SECRET-TOKEN');
    const p = policy({ hiddenPaths: [secrets] });
    const result = await runConfined(p, sh('ls -A secrets; cat secrets/token 2>&1; true'), { cwd: ws });
    expect(result.stdout).not.toContain('SECRET-TOKEN');
    expect(result.stdout).toMatch(/No such file/);
  });

  it('the container engine socket is masked: connecting to a hidden socket fails', async () => {
    const socketPath = join(ws, 'engine.sock');
    const server = createServer((socket) => socket.end('HELLO-FROM-HOST\n'));
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      const nodeClient = `require('net').connect(${JSON.stringify(socketPath)}).on('data',d=>{process.stdout.write(String(d));process.exit(0)}).on('error',e=>{console.log(e.code);process.exit(3)})`;
      // unixSockets: [] lets a command reach sockets inside its roots, so hiding is what stops it.
      const open = await runConfined(policy({ unixSockets: [] }), [process.execPath, '-e', nodeClient], {
        cwd: ws,
      });
      expect(open.stdout).toBe('HELLO-FROM-HOST\n');
      const hidden = await runConfined(
        policy({ hiddenPaths: [socketPath], unixSockets: [] }),
        [process.execPath, '-e', nodeClient],
        {
          cwd: ws,
        },
      );
      expect(hidden.code).toBe(3);
      expect(hidden.stdout).toMatch(/ECONNREFUSED|EACCES|ENOTSOCK|EPERM/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("by default the container engine's socket and runtime directories are out of reach", async () => {
    if (!existsSync('/run/docker.sock'))
      throw new Error('no /run/docker.sock: the docker engine should be running here');
    const probe = `require('net').connect('/run/docker.sock').on('connect',()=>{console.log('CONNECTED');process.exit(0)}).on('error',e=>{console.log(e.code);process.exit(3)})`;
    const connect = await runConfined(policy(), [process.execPath, '-e', probe], { cwd: ws });
    expect(connect.stdout).not.toContain('CONNECTED');
    const listing = await runConfined(
      policy(),
      sh('find /run/docker /run/containerd -mindepth 1 2>/dev/null; true'),
      {
        cwd: ws,
      },
    );
    expect(listing.stdout).toBe('');
  });

  it('refuses to start a command whose working directory is hidden', () => {
    const secrets = join(ws, 'hidden-cwd');
    mkdirSync(secrets);
    const confined = confineCommand(policy({ hiddenPaths: [secrets] }), ['true'], { cwd: secrets });
    expect(confined.ok).toBe(false);
    if (!confined.ok) expect(confined.reason).toContain('inside the hidden path');
  });
});

describe('network', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((socket) => socket.end('PONG\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const client = () =>
    `require('net').connect(${port},'127.0.0.1').on('data',d=>{process.stdout.write(String(d));process.exit(0)}).on('error',e=>{console.log(e.code);process.exit(3)})`;

  it("'deny': a connection to a listener on the host's loopback fails", async () => {
    const result = await runConfined(policy({ network: 'deny' }), [process.execPath, '-e', client()], {
      cwd: ws,
    });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('ECONNREFUSED\n');
  });

  it("'deny' is the default", async () => {
    const result = await runConfined(policy(), [process.execPath, '-e', client()], { cwd: ws });
    expect(result.stdout).toBe('ECONNREFUSED\n');
  });

  it("'allow': the same connection works", async () => {
    const result = await runConfined(policy({ network: 'allow' }), [process.execPath, '-e', client()], {
      cwd: ws,
    });
    expect(result).toMatchObject({ code: 0, stdout: 'PONG\n' });
  });
});

describe('process tree', () => {
  it('SIGKILL to bubblewrap alone ends the whole sandbox, a setsid daemon that ignores TERM included', async () => {
    const marker = newSleepMarker();
    const script = `(setsid sh -c 'trap "" TERM; sleep ${marker}' &) ; exec sleep ${marker}`;
    const confined = confineCommand(policy(), sh(script), { cwd: ws });
    if (!confined.ok) throw new Error(confined.reason);
    const child = spawn(confined.argv[0]!, confined.argv.slice(1), {
      cwd: ws,
      stdio: 'ignore',
      detached: true,
    });
    expect(await waitFor(() => pidsRunning(['sleep', marker]).length === 2, 5000)).toBe(true);
    const sessions = new Set(
      pidsRunning(['sleep', marker]).map(
        (pid) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[3],
      ),
    );
    // The daemon really left the command's session (the gap a process-group kill leaves).
    expect(sessions.size).toBe(2);
    // Only bubblewrap's own pid: everything inside dies with it.
    process.kill(child.pid!, 'SIGKILL');
    expect(await waitFor(() => pidsWithMarker(marker).length === 0, 5000)).toBe(true);
  });

  it('SIGTERM reaches the command, which gets its grace period; bubblewrap reports its exit code', async () => {
    const marker = newSleepMarker();
    const script = `trap 'sleep 0.3; echo cleaned > cleaned.txt; exit 7' TERM; sleep ${marker} & wait`;
    const confined = confineCommand(policy(), sh(script), { cwd: ws });
    if (!confined.ok) throw new Error(confined.reason);
    const child = spawn(confined.argv[0]!, confined.argv.slice(1), {
      cwd: ws,
      stdio: 'ignore',
      detached: true,
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    expect(await waitFor(() => pidsRunning(['sleep', marker]).length === 1, 5000)).toBe(true);
    // What berth's tree termination does first: SIGTERM to every process of the tree.
    for (const pid of [child.pid!, ...pidsWithMarker(marker)]) process.kill(pid, 'SIGTERM');
    expect(await exited).toBe(7);
    expect(readFileSync(join(ws, 'cleaned.txt'), 'utf8')).toBe('cleaned\n');
    for (const pid of pidsRunning(['sleep', marker])) process.kill(pid, 'SIGKILL');
  });

  it('the command runs in its own PID namespace and new session', async () => {
    const result = await runConfined(policy(), sh('echo "pid=$$"; ls /proc | grep -c "^[0-9]"'), { cwd: ws });
    const [pidLine, count] = result.stdout.trim().split('\n');
    expect(Number(pidLine!.slice(4))).toBeLessThan(10);
    expect(Number(count)).toBeLessThan(10);
  });

  it('has no capabilities even when berth runs as root', async () => {
    const result = await runConfined(
      policy(),
      sh('grep CapEff /proc/self/status; mount -o remount,rw / 2>/dev/null && echo REMOUNTED; true'),
      {
        cwd: ws,
      },
    );
    expect(result.stdout).toContain('CapEff:\t0000000000000000');
    expect(result.stdout).not.toContain('REMOUNTED');
  });

  it("cannot change the host kernel's settings through /proc, even as root", async () => {
    // Writes the current value back: harmless if the cover were missing, refused when it works.
    const script = [
      'v=$(cat /proc/sys/kernel/core_pattern)',
      'printf "%s\\n" "$v" > /proc/sys/kernel/core_pattern && echo CORE-PATTERN-WRITTEN',
      's=$(cat /proc/sys/vm/swappiness)',
      'echo "$s" > /proc/sys/vm/swappiness 2>/dev/null && echo SWAPPINESS-WRITTEN',
      'true',
    ].join('; ');
    const result = await runConfined(policy(), sh(script), { cwd: ws });
    expect(result.stdout).toBe('');
    // Read-only for root; not permitted at all for anyone else.
    expect(result.stderr).toMatch(/Read-only file system|Permission denied/);
  });

  it('passes the exit code through', async () => {
    const result = await runConfined(policy(), sh('exit 42'), { cwd: ws });
    expect(result.code).toBe(42);
  });
});

describe('as an unprivileged user (user namespace)', () => {
  it('the non-root flag set confines a command run by an unprivileged uid', async () => {
    const { chmodSync, chownSync } = await import('node:fs');
    const { namespaceFlags } = await import('../../src/sandbox/bwrap-availability.js');
    const { planMounts } = await import('../../src/sandbox/bwrap-mounts.js');
    const { runArgv } = await import('./run-confined.js');
    const runningAsRoot = process.getuid?.() === 0;
    // As root, switch to uid 65534 for the run (through the test's private directory); otherwise
    // this process is the unprivileged user already.
    const uid = runningAsRoot ? 65534 : process.getuid!();
    const userWs = join(base, 'unprivileged-ws');
    mkdirSync(userWs);
    if (runningAsRoot) {
      chmodSync(base, 0o711);
      chownSync(userWs, 65534, 65534);
    }
    const p = createSandboxPolicy({ writableRoots: [userWs], home: join(base, 'no-home'), env: {} });
    const mounts = planMounts(p, userWs);
    if (!mounts.ok) throw new Error(mounts.reason);
    const flags = namespaceFlags({ isRoot: false, network: 'deny', newSession: true });
    expect(flags).toContain('--unshare-user');
    expect(flags).not.toContain('--cap-drop');
    const switchUser = runningAsRoot
      ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--']
      : [];
    const argv = [
      ...switchUser,
      'bwrap',
      ...flags,
      ...mounts.args,
      '--chdir',
      userWs,
      '--',
      '/bin/sh',
      '-c',
      'echo "uid=$(id -u)"; echo ok > mine.txt && echo WROTE; echo x > /var/tmp/berth-unprivileged-escape 2>/dev/null || echo DENIED',
    ];
    const result = await runArgv(argv, { cwd: '/' });
    expect(result.stdout, result.stderr).toBe(`uid=${uid}\nWROTE\nDENIED\n`);
    expect(readFileSync(join(userWs, 'mine.txt'), 'utf8')).toBe('ok\n');
    expect(existsSync('/var/tmp/berth-unprivileged-escape')).toBe(false);
  });
});
