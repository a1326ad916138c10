import { describe, expect, it } from 'vitest';
import type { CommandSpec } from '../../../src/commands/command.js';
import { builtinCommands } from '../../../src/commands/registry.js';
import { runStandalone } from '../../../src/commands/standalone.js';
import { echoCommand, falseCommand, trueCommand } from '../../../src/commands/system/basic.js';
import { dateCommand } from '../../../src/commands/system/date.js';
import { envCommand, printenvCommand, whichCommand } from '../../../src/commands/system/env.js';
import {
  hostnameCommand,
  nprocCommand,
  ttyCommand,
  unameCommand,
} from '../../../src/commands/system/host-info.js';
import { groupsCommand, idCommand, whoamiCommand } from '../../../src/commands/system/identity-commands.js';
import { sleepCommand, timeoutCommand } from '../../../src/commands/system/waiting.js';
import { niceCommand, nohupCommand, timeCommand } from '../../../src/commands/system/wrappers.js';
import { xargsCommand } from '../../../src/commands/system/xargs.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';
import { oracleTable } from '../text/support/oracle-table.js';

const all = builtinCommands();

oracleTable(echoCommand, [
  { argv: ['echo', 'a', 'b'] },
  { argv: ['echo', '-n', 'x'] },
  { argv: ['echo', '-e', 'a\\tb\\n\\x41\\0101\\\\\\cignored'] },
  { argv: ['echo', '-e', '\\xff\\xfe'] },
  { argv: ['echo', '-neE', 'a\\tb'] },
  { argv: ['echo', '--', '-n'] },
  { argv: ['echo', '-nx'] },
  { argv: ['echo', '--help'] },
  { argv: ['echo', 'caf\xe9'] },
]);

oracleTable(falseCommand, [{ argv: ['false'] }, { argv: ['false', '--help'] }, { argv: ['false', 'x'] }]);
oracleTable(trueCommand, [{ argv: ['true'] }, { argv: ['true', '--help'] }, { argv: ['true', '--bogus'] }]);

oracleTable(
  envCommand,
  [
    { argv: ['env', '-i', 'A=1', 'B=2'] },
    { argv: ['env', '-0', '-i', 'A=1'] },
    { argv: ['env', '-i', 'A=1', 'printenv', 'A'] },
    { argv: ['env', '-u', 'HOME', 'printenv', 'HOME'] },
    { argv: ['env', 'A=1', '-u', 'A', 'printenv', 'A'] },
    { argv: ['env', '-u'] },
    { argv: ['env', 'nonexist'] },
    { argv: ['env', '-C', 'nonexist', 'true'] },
    { argv: ['env', '-C', 'd', 'cat', 'x'], files: { 'd/x': 'in d\n' } },
    { argv: ['env', '-S', 'echo a  "b c"'] },
    { argv: ['env', '-S', "echo 'x"] },
    { argv: ['env', '-v', '-i', 'true'] },
    { argv: ['env', '-', 'printenv'] },
    { argv: ['env', 'false'] },
    { argv: ['env', '--bogus'] },
  ],
  all,
);

oracleTable(printenvCommand, [
  { argv: ['printenv', 'HOME'] },
  { argv: ['printenv', 'HOME', 'NOPE', 'LC_ALL'] },
  { argv: ['printenv', '-0', 'HOME'] },
  { argv: ['printenv', '-x'] },
]);

oracleTable(
  xargsCommand,
  [
    { argv: ['xargs', 'echo'], stdin: 'a b\nc "d e" f\\ g\n\n' },
    { argv: ['xargs', '-t', 'echo'], stdin: 'a b\nc "d e" f\\ g\n' },
    { argv: ['xargs'], stdin: 'one two\nthree\n' },
    { argv: ['xargs', '-0', '-n1', 'echo'], stdin: 'a\0b c\0' },
    { argv: ['xargs', '-n', '2', 'echo'], stdin: '1\n2\n3\n4\n5\n' },
    { argv: ['xargs', '-L', '1', 'echo'], stdin: '1 2\n3\n4 \n5\n' },
    { argv: ['xargs', '-I{}', 'echo', '[{}]', '{}'], stdin: 'x\n  y\n\nz w\n' },
    { argv: ['xargs', '-I', 'X', 'echo', 'X-X'], stdin: 'a\nb\n' },
    { argv: ['xargs', 'echo', 'hi'], stdin: '\n' },
    { argv: ['xargs', '-r', 'echo', 'hi'], stdin: '\n' },
    { argv: ['xargs', 'echo'], stdin: "'a\n" },
    { argv: ['xargs', '-d', ':', 'echo'], stdin: 'a:b:c' },
    { argv: ['xargs', '-d', '\\n', 'echo'], stdin: 'a b\nc\n' },
    { argv: ['xargs', 'nonexist'], stdin: 'a\n' },
    { argv: ['xargs', 'false'], stdin: 'a\n' },
    { argv: ['xargs', '-s', '10', 'echo'], stdin: 'a b c d\n' },
    { argv: ['xargs', '-x', '-s', '5', 'echo'], stdin: 'a b\n' },
    { argv: ['xargs', '-E', 'END', 'echo'], stdin: 'a\nEND\nb\n' },
    { argv: ['xargs', '-n1', '-P', '1', 'basename'], stdin: '/a/b /c/d\n' },
    { argv: ['xargs', '-a', 'list', 'cat'], files: { list: 'f1 f2\n', f1: 'one\n', f2: 'two\n' } },
    { argv: ['xargs', '-a', 'nonexist', 'echo'] },
    { argv: ['xargs', '-P', 'x'] },
    { argv: ['xargs', '-n', '0'] },
    { argv: ['xargs', '--bogus'] },
    { argv: ['xargs', 'echo'], stdin: 'caf\xe9 \udcff\n' },
    { argv: ['xargs', 'echo'], stdin: '' },
  ],
  all,
);

oracleTable(dateCommand, [
  { argv: ['date', '-d', '@1700000000'] },
  { argv: ['date', '-d', '2024-01-15 10:00:00', '+%F %T %Z %z %s'] },
  { argv: ['date', '-u', '-d', '2024-01-01 10:00 +0200'] },
  { argv: ['date', '-d', '@0'], env: { TZ: 'Asia/Tokyo' } },
  { argv: ['date', '-d', '@0', '-I'] },
  { argv: ['date', '-d', '@0', '-Ins'] },
  { argv: ['date', '-d', '@0', '-Iseconds'] },
  { argv: ['date', '-d', '@0', '-Ih'] },
  { argv: ['date', '-d', '@0', '-R'] },
  { argv: ['date', '-d', '@0', '--rfc-3339=ns'] },
  { argv: ['date', '-d', '@0', '--rfc-3339=date'] },
  {
    argv: ['date', '-d', '2024-07-04 12:00', '+%c|%x|%X|%a %A %b %B %j %U %V %G'],
    env: { TZ: 'America/New_York' },
  },
  { argv: ['date', '-r', 'f', '+%F %T'], files: { f: '' }, mtimes: { f: 1705312800 } },
  { argv: ['date', '-r', 'nonexist'] },
  { argv: ['date', '-f', 'dates', '+%F'], files: { dates: '2024-01-01\nbad\n@0\n' } },
  { argv: ['date', '-f', '-', '+%s'], stdin: '@5\n2000-01-01 UTC\n' },
  { argv: ['date', '-d', 'garbage'] },
  { argv: ['date', 'a', 'b'] },
  { argv: ['date', '+%s', '+%s'] },
  { argv: ['date', '-I', '-R'] },
  { argv: ['date', '-Ix'] },
  { argv: ['date', '--rfc-3339=x'] },
  { argv: ['date', '0101'] },
  { argv: ['date', '-s', 'now'], known: 'setting the clock is refused in the virtual shell' },
  { argv: ['date', '-d', '@0', '-d', '@1', '+%s'] },
]);

oracleTable(sleepCommand, [
  { argv: ['sleep', '0.05', '0.01s'] },
  { argv: ['sleep'] },
  { argv: ['sleep', 'x'] },
  { argv: ['sleep', '1', 'y', '2z'] },
  { argv: ['sleep', '-1'] },
]);

oracleTable(
  timeoutCommand,
  [
    { argv: ['timeout', '5', 'echo', 'quick'] },
    { argv: ['timeout', '0.2', 'sleep', '5'] },
    { argv: ['timeout', '--preserve-status', '0.2', 'sleep', '5'] },
    { argv: ['timeout', '-s', 'INT', '--preserve-status', '0.2', 'sleep', '5'] },
    { argv: ['timeout', '0', 'echo', 'zero disables'] },
    { argv: ['timeout', '1x', 'sleep', '0'] },
    { argv: ['timeout', '-s', 'BOGUS', '1', 'true'] },
    { argv: ['timeout', '1', 'nonexist'] },
    { argv: ['timeout'] },
    { argv: ['timeout', '1'] },
    { argv: ['timeout', '5', 'false'] },
  ],
  all,
);

oracleTable(
  nohupCommand,
  [
    { argv: ['nohup', 'echo', 'x'] },
    { argv: ['nohup'] },
    { argv: ['nohup', 'nonexist'] },
    { argv: ['nohup', 'false'] },
  ],
  all,
);
oracleTable(
  niceCommand,
  [
    // Bare `nice` prints the niceness the tests run at for GNU; berth's is the virtual one (below).
    { argv: ['nice', '-n', '5', 'echo', 'x'] },
    { argv: ['nice', '-5', 'echo', 'y'] },
    { argv: ['nice', '-n', 'x', 'true'] },
    { argv: ['nice', 'nonexist'] },
  ],
  all,
);

oracleTable(unameCommand, [
  { argv: ['uname'] },
  { argv: ['uname', '-s'] },
  { argv: ['uname', '-o'] },
  { argv: ['uname', '-x'] },
  { argv: ['uname', 'a'] },
]);
oracleTable(ttyCommand, [{ argv: ['tty'] }, { argv: ['tty', '-s'] }, { argv: ['tty', 'x'] }]);
oracleTable(whoamiCommand, [{ argv: ['whoami'] }, { argv: ['whoami', 'x'] }]);
oracleTable(idCommand, [
  { argv: ['id'] },
  { argv: ['id', '-u'] },
  { argv: ['id', '-un'] },
  { argv: ['id', '-G'] },
  { argv: ['id', '-Gn'] },
  { argv: ['id', '-n'] },
  { argv: ['id', '-ug'] },
  { argv: ['id', 'root'] },
  { argv: ['id', 'nobodyx'] },
  { argv: ['id', '-z'] },
]);
oracleTable(groupsCommand, [{ argv: ['groups'] }, { argv: ['groups', 'root'] }]);

// hostname, nproc and which report the virtual host; their command lines are the real tools'.
oracleTable(hostnameCommand, [{ argv: ['hostname', '--bogus'] }, { argv: ['hostname', '-Q'] }]);
oracleTable(nprocCommand, [
  { argv: ['nproc', '--bogus'] },
  { argv: ['nproc', 'x'] },
  { argv: ['nproc', '--ignore=x'] },
]);
oracleTable(whichCommand, [
  { argv: ['which'] },
  { argv: ['which', '--bogus'] },
  { argv: ['which', '-x', 'ls'] },
  { argv: ['which', 'nonexist-tool'] },
  { argv: ['which', './nonexist-tool'] },
]);

// GNU time's figures vary run to run; its exit statuses, messages and -f conversions that do not.
oracleTable(
  timeCommand,
  [
    { argv: ['time', '-f', '%C|%x', 'false'] },
    { argv: ['time', '-f', '%C %x', 'echo', 'hi'] },
    { argv: ['time', '-q', '-f', '%x', 'false'] },
    { argv: ['time', '-f', '%%|%Z', 'true'] },
    { argv: ['time', '-o', 'out', '-f', '%x', 'true'], captureTree: true },
    { argv: ['time', '--bogus'] },
    { argv: ['time', '-f'] },
  ],
  all,
);

async function run(
  spec: CommandSpec,
  argv: string[],
  options: Parameters<typeof runStandalone>[1] extends infer O ? Partial<O> : never = {},
) {
  const commands = new Map([...all].map(([k, v]) => [k, v.run]));
  const r = await runStandalone(spec.run, { argv, fs: createMemoryFilesystem(), commands, ...options });
  return {
    status: r.status,
    stdout: new TextDecoder().decode(r.stdout),
    stderr: new TextDecoder().decode(r.stderr),
  };
}

describe('system commands with virtual values', () => {
  it('whoami and id follow the context identity', async () => {
    const context = { identity: { uid: 1000, gid: 1000, user: 'agent', groups: [1000, 27] } };
    expect((await run(whoamiCommand, ['whoami'], { context })).stdout).toBe('agent\n');
    expect((await run(idCommand, ['id'], { context })).stdout).toBe(
      'uid=1000(agent) gid=1000(agent) groups=1000(agent),27(27)\n',
    );
    expect((await run(idCommand, ['id', '-un'], { env: { USER: 'someone' } })).stdout).toBe('someone\n');
  });

  it('nice reports the virtual niceness: 0, whatever the host process runs at', async () => {
    expect(await run(niceCommand, ['nice'])).toEqual({ status: 0, stdout: '0\n', stderr: '' });
  });

  it('uname, hostname and nproc report the virtual host', async () => {
    const a = await run(unameCommand, ['uname', '-a'], { env: { HOSTNAME: 'box.example' } });
    expect(a.stdout).toMatch(
      /^Linux box\.example 6\.1\.0-berth #1 SMP berth virtual shell \S+ GNU\/Linux\n$/,
    );
    expect(
      (await run(hostnameCommand, ['hostname', '-s'], { env: { HOSTNAME: 'box.example' } })).stdout,
    ).toBe('box\n');
    expect((await run(hostnameCommand, ['hostname'])).stdout).toBe('localhost\n');
    expect((await run(hostnameCommand, ['hostname', 'new'])).status).toBe(1);
    expect((await run(nprocCommand, ['nproc'])).stdout).toBe('1\n');
    expect((await run(nprocCommand, ['nproc'], { env: { OMP_NUM_THREADS: '4' } })).stdout).toBe('4\n');
  });

  it('which finds executables on PATH in the virtual filesystem and names built-in commands', async () => {
    const fs = createMemoryFilesystem({
      files: { '/opt/bin/tool': { content: '#!/bin/sh\n', mode: 0o755 }, '/opt/bin/plain': 'x' },
    });
    const r = await run(whichCommand, ['which', 'tool', 'plain', 'ls', 'nonexist'], {
      fs,
      env: { PATH: '/opt/bin:/usr/bin' },
    });
    expect(r).toEqual({ status: 1, stdout: '/opt/bin/tool\n/usr/bin/ls\n', stderr: '' });
  });

  it('sleep ends when the command is cancelled', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 50);
    const r = await run(sleepCommand, ['sleep', '30'], { signal: controller.signal });
    expect(r.status).not.toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('timeout aborts its command through its own signal and returns 124', async () => {
    let sawAbort = false;
    const slow = async (ctx: Parameters<CommandSpec['run']>[0]) => {
      await new Promise<void>((resolve) =>
        ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
      sawAbort = true;
      return 0;
    };
    const r = await runStandalone(timeoutCommand.run, {
      argv: ['timeout', '0.05', 'slow'],
      fs: createMemoryFilesystem(),
      commands: new Map([['slow', slow]]),
    });
    expect([r.status, sawAbort]).toEqual([124, true]);
  });

  it('timeout -k gives up on a command that ignores the abort (137)', async () => {
    const stubborn = () => new Promise<number>(() => {});
    const r = await runStandalone(timeoutCommand.run, {
      argv: ['timeout', '-k', '0.05', '0.05', 'stubborn'],
      fs: createMemoryFilesystem(),
      commands: new Map([['stubborn', stubborn]]),
    });
    expect(r.status).toBe(137);
  });

  it('time reports the elapsed time in GNU time formats', async () => {
    const r = await run(timeCommand, ['time', '-p', 'true']);
    expect(r.stderr).toMatch(/^real \d+\.\d\d\nuser 0\.00\nsys 0\.00\n$/);
    const f = await run(timeCommand, ['time', '-f', '%C %x', 'false']);
    expect(f).toEqual({ status: 1, stdout: '', stderr: 'Command exited with non-zero status 1\nfalse 1\n' });
    const missing = await run(timeCommand, ['time', 'nonexist']);
    expect(missing.status).toBe(127);
    expect(missing.stderr).toMatch(
      /^time: cannot run nonexist: No such file or directory\nCommand exited with non-zero status 127\n0\.00user /,
    );
  });

  it('xargs -P runs commands concurrently', async () => {
    let active = 0;
    let peak = 0;
    const job = async () => {
      active += 1;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 20));
      active -= 1;
      return 0;
    };
    const r = await runStandalone(xargsCommand.run, {
      argv: ['xargs', '-n1', '-P3', 'job'],
      fs: createMemoryFilesystem(),
      stdin: new TextEncoder().encode('1 2 3 4 5 6\n'),
      commands: new Map([['job', job]]),
    });
    expect([r.status, peak]).toEqual([0, 3]);
  });
});
