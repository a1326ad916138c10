/**
 * `--context virtual` on the command line: `berth shell` as a person uses it in a real terminal
 * (line editing, history, state from line to line, Ctrl-C, Ctrl-D, exit), `berth run`, `berth
 * tools call`, and the flags that do not fit the virtual context.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { berth } from './berth-binary.js';
import { berthInPty, type PtySession } from './pty-session.js';

let root: string;
let state: string;
let env: NodeJS.ProcessEnv;
const sessions: PtySession[] = [];
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'berth-cli-vshell-')));
  state = realpathSync(mkdtempSync(join(tmpdir(), 'berth-cli-vstate-')));
  env = { BERTH_STATE_DIR: state };
  writeFileSync(join(root, 'file.txt'), 'on disk\n');
});
afterEach(() => {
  for (const session of sessions.splice(0)) session.kill();
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
});

function start(args: string[]): PtySession {
  const session = berthInPty(args, { cwd: root, env: { ...env } });
  sessions.push(session);
  return session;
}

describe('berth shell --context virtual in a real terminal', () => {
  it('keeps state from line to line, shows the directory in the prompt, leaves on exit with its status', async () => {
    const session = start(['shell', '--context', 'virtual']);
    await session.waitFor(/berth:\/workspace\$ /);
    session.write('x=$((40+2)); mkdir_ok=1; cd /tmp\r');
    await session.waitFor(/berth:\/tmp\$ /);
    session.write('echo "x is $x in $PWD"\r');
    await session.waitFor(/x is 42 in \/tmp/);
    session.write('exit 5\r');
    expect(await session.exited).toBe(5);
  });

  it('Ctrl-C ends the running command and the prompt comes back; Ctrl-D leaves', async () => {
    const session = start(['shell', '--context', 'virtual']);
    await session.waitFor(/berth:\/workspace\$ /);
    session.write('while :; do :; done\r');
    await new Promise((resolve) => setTimeout(resolve, 300));
    session.write('\x03');
    await session.waitFor(/\^C[\s\S]*\[130\] berth:\/workspace\$ /);
    session.write('echo after-interrupt\r');
    await session.waitFor(/after-interrupt/);
    session.write('\x04');
    expect(await session.exited).toBe(0);
  });

  it('edits the line and recalls history (also from an earlier run)', async () => {
    const first = start(['shell', '--context', 'virtual']);
    await first.waitFor(/berth:\/workspace\$ /);
    // Type, go left one, insert, go to the end, type on: each key as a terminal sends it.
    for (const keys of ['echo rememberd', '\x1b[D', 'e', '\x1b[F', '-me', '\r']) {
      first.write(keys);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await first.waitFor(/\nremembered-me\r?\n/);
    first.write('exit\r');
    await first.exited;
    const second = start(['shell', '--context', 'virtual']);
    await second.waitFor(/berth:\/workspace\$ /);
    // Up twice: past the earlier run's `exit` to its echo.
    for (const keys of ['\x1b[A', '\x1b[A', '\r']) {
      second.write(keys);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await second.waitFor(/\nremembered-me\r?\n/);
    second.write('exit\r');
    await second.exited;
  });

  it('never writes the directory, and says what it dropped', async () => {
    const session = start(['shell', '--context', 'virtual']);
    await session.waitFor(/berth:\/workspace\$ /);
    session.write('echo changed > file.txt; read -r l < file.txt; echo "now: $l"\r');
    await session.waitFor(/now: changed/);
    session.write('exit\r');
    await session.exited;
    expect(session.output()).toMatch(/1 change to .* was dropped/);
    expect(readFileSync(join(root, 'file.txt'), 'utf8')).toBe('on disk\n');
  });
});

describe('berth run and berth tools with --context virtual', () => {
  it('runs a command in the virtual shell, keeps the change in a named session for review', async () => {
    const run = await berth(
      ['run', '--context', 'virtual', '--session', 'cli-run', '--', 'echo v > v.txt; echo done'],
      {
        cwd: root,
        env,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('done\n');
    expect(run.stderr).toMatch(/session [0-9a-f]{8} \(cli-run\) keeps 1 change/);
    const tools = await berth(
      ['tools', 'call', 'changes', '{}', '--context', 'virtual', '--session', 'cli-run'],
      {
        cwd: root,
        env,
      },
    );
    expect(tools.stdout).toContain('A  /workspace/v.txt');
    expect((await berth(['discard', '--session', 'cli-run'], { env })).stdout).toMatch(/dropped 1 change/);
  });

  it('refuses flags that do not fit the virtual context, naming them', async () => {
    for (const [args, pattern] of [
      [['--sandbox'], /--sandbox: applies to the process context/],
      [['--network', 'allow'], /--network: allow is not possible in the virtual context/],
      [['--image', 'x'], /--image: applies to the docker context only/],
      [['--unix-sockets', 'own'], /--unix-sockets: applies to the OS sandbox of the process context/],
      [['--template', 'base'], /--template: applies to the e2b and daytona contexts only/],
    ] as const) {
      const result = await berth(['run', '--context', 'virtual', ...args, '--', 'true'], { cwd: root, env });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(pattern);
    }
    const session = await berth(['run', '--session', 'x', '--', 'true'], { cwd: root, env });
    expect(session.code).toBe(2);
    expect(session.stderr).toMatch(/--session: applies to the virtual context only/);
    const commitFlag = await berth(['mcp', '--allow-commit'], { cwd: root, env });
    expect(commitFlag.code).toBe(2);
    expect(commitFlag.stderr).toMatch(/--allow-commit: applies to the virtual context only/);
  });
});

describe('berth doctor on the virtual context', () => {
  it('runs the virtual shell, and fails the sessions check with a fix for a bad state directory', async () => {
    const good = JSON.parse((await berth(['doctor', '--json'], { env, timeoutMs: 120_000 })).stdout);
    const virtual = good.checks.find((c: { id: string }) => c.id === 'virtual');
    expect(virtual.status).toBe('ok');
    expect(virtual.checks[0].detail).toMatch(/a pipeline, a redirection and a diff of the change in \d+ ms/);
    expect(virtual.checks[1].detail).toContain(`kept in ${state}`);
    const bad = JSON.parse(
      (await berth(['doctor', '--json'], { env: { BERTH_STATE_DIR: 'relative/dir' }, timeoutMs: 120_000 }))
        .stdout,
    );
    const failed = bad.checks.find((c: { id: string }) => c.id === 'virtual');
    expect(failed.status).toBe('fail');
    expect(failed.detail).toMatch(/BERTH_STATE_DIR/);
    expect(failed.fix).toMatch(/BERTH_STATE_DIR to an absolute path/);
  });
});
