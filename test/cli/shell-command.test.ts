import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { newSleepMarker, pidsWithMarker, waitForNoMarker } from '../support/process-markers.js';
import { MAIN } from './berth-binary.js';
import { berthInPty, berthInPtyShell, type PtySession } from './pty-session.js';

let root: string;
const sessions: PtySession[] = [];
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'berth-cli-shell-')));
});
afterEach(() => {
  for (const session of sessions.splice(0)) session.kill();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function start(args: string[]): PtySession {
  const session = berthInPty(args, { cwd: root, env: { SHELL: '/bin/sh', PS1: 'berth-test$ ' } });
  sessions.push(session);
  return session;
}

describe('berth shell in a real terminal', () => {
  it('runs what is typed and leaves on exit, with the shell exit status (unsandboxed)', async () => {
    const session = start(['shell', '--no-sandbox', '--root', root]);
    session.write('echo hi-$((40+2))\r');
    await session.waitFor(/hi-42/);
    session.write('pwd\r');
    await session.waitFor(new RegExp(root.replaceAll('/', '\\/')));
    session.write('exit 5\r');
    expect(await session.exited).toBe(5);
  });

  it('runs in the sandbox by default: typing works, writes outside the root fail, exit leaves', async () => {
    const session = start(['shell', '--root', root]);
    session.write('echo hi-$((2*3))-sandboxed\r');
    await session.waitFor(/hi-6-sandboxed/);
    session.write('touch /usr/berth-shell-test 2>&1 | head -1\r');
    await session.waitFor(/Read-only file system/);
    session.write('exit\r');
    // berth leaves when the shell does; the status is the sandboxed shell's own.
    expect(typeof (await session.exited)).toBe('number');
  });

  it('passes window size changes through (SIGWINCH)', async () => {
    const session = start(['shell', '--no-sandbox', '--root', root]);
    session.write('stty size\r');
    await session.waitFor(/\b30 100\b/);
    session.resize(120, 40);
    await new Promise((resolve) => setTimeout(resolve, 300));
    session.write('stty size\r');
    await session.waitFor(/\b40 120\b/);
    session.write('exit\r');
    expect(await session.exited).toBe(0);
  });

  it('hands Ctrl-C to the program in the terminal, not to berth', async () => {
    const session = start(['shell', '--no-sandbox', '--root', root]);
    const marker = newSleepMarker();
    session.write(`sleep ${marker}; echo after-$((1+1))-sleep\r`);
    // Interrupt the sleep itself (not the shell still reading its line), then wait for it to end.
    expect(await eventually(() => pidsWithMarker(marker).length > 0)).toBe(true);
    session.write('\u0003');
    expect(await waitForNoMarker(marker, 10_000)).toEqual([]);
    session.write('echo still-$((6*7))\r');
    // The shell's answer, not the echo of what was typed: berth survived the Ctrl-C.
    await session.waitFor(/still-42/);
    expect(session.output()).not.toContain('after-2-sleep');
    session.write('exit 0\r');
    expect(await session.exited).toBe(0);
  });
});

describe('berth shell in a container', () => {
  it('opens the container shell in /workspace and passes its exit status', async () => {
    const session = start(['shell', '--context', 'docker', '--image', 'berth-test:busybox', '--root', root]);
    session.write('echo in-$((6*7)); pwd\r');
    await session.waitFor(/in-42\r?\r\n\/workspace/, 30_000);
    session.write('exit 3\r');
    expect(await session.exited).toBe(3);
  });
});

describe('berth shell leaves the terminal as it found it', () => {
  it('restores cooked mode and echo after the shell exits', async () => {
    // An outer shell in the pty runs berth shell, then reports its own terminal's mode.
    const session = berthInPtyShell(
      `${JSON.stringify(process.execPath)} ${JSON.stringify(MAIN)} shell --no-sandbox --root ${JSON.stringify(root)}; stty -a; echo outer-$((3*3))`,
      { cwd: root, env: { SHELL: '/bin/sh' } },
    );
    sessions.push(session);
    session.write('echo inner-$((5*5))\r');
    await session.waitFor(/inner-25/);
    session.write('exit\r');
    await session.waitFor(/outer-9/);
    const mode = session.output();
    expect(mode).toMatch(/(^|\s)icanon(\s|$)/m);
    expect(mode).toMatch(/(^|\s)echo(\s|$)/m);
    expect(mode).not.toMatch(/-icanon/);
    expect(await session.exited).toBe(0);
  });
});

describe('the container spinner', () => {
  it('shows a progress line on a TTY while the container starts', async () => {
    const session = start([
      'run',
      '--context',
      'docker',
      '--image',
      'berth-test:busybox',
      '--root',
      root,
      '--',
      'echo',
      'in-container',
    ]);
    expect(await session.exited).toBe(0);
    expect(session.output()).toContain('starting a container from berth-test:busybox');
    expect(session.output()).toContain('in-container');
  });
});
