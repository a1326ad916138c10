import { realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, SpawnError } from '../../../src/contexts/process/index.js';
import { loginShell } from '../../../src/contexts/process/terminal.js';
import { alive, eventually, makeContext } from './helpers.js';

describe('execStream', () => {
  it('round-trips raw bytes through an argv process, exits on stdin end', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    const stream = await ctx.execStream!(h, ['cat']);
    const chunks: Buffer[] = [];
    stream.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.stderr?.resume();
    stream.stdin.write(Buffer.from([0, 1, 2, 255]));
    stream.stdin.end(Buffer.from('€'));
    expect(await stream.exited).toBe(0);
    expect([...Buffer.concat(chunks)]).toEqual([0, 1, 2, 255, 0xe2, 0x82, 0xac]);
  });

  it('moves 10 MiB through without deadlock, stderr separate', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    const stream = await ctx.execStream!(h, 'cat; echo bye >&2');
    let received = 0;
    let stderr = '';
    stream.stdout.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    stream.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const block = Buffer.alloc(64 * 1024, 7);
    for (let i = 0; i < 160; i++) {
      if (!stream.stdin.write(block)) await new Promise((resolve) => stream.stdin.once('drain', resolve));
    }
    stream.stdin.end();
    expect(await stream.exited).toBe(0);
    expect(received).toBe(10 * 1024 * 1024);
    expect(stderr).toBe('bye\n');
  });

  it('kill() ends the whole tree, idempotently; exited resolves null', async () => {
    const ctx = makeContext({ killGraceMs: 300 });
    const h = await ctx.spawn();
    const stream = await ctx.execStream!(h, 'sleep 60 & echo $!; wait');
    const pid = await new Promise<number>((resolve) =>
      stream.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString()))),
    );
    await Promise.all([stream.kill(), stream.kill()]);
    expect(await stream.exited).toBeNull();
    expect(alive(pid)).toBe(false);
  });

  it('an abort signal ends the stream', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    const controller = new AbortController();
    const stream = await ctx.execStream!(h, ['sleep', '60'], { signal: controller.signal });
    controller.abort();
    expect(await stream.exited).toBeNull();
  });

  it('destroying the handle ends its streams', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    const stream = await ctx.execStream!(h, ['sleep', '60']);
    await ctx.destroy(h);
    expect(await stream.exited).toBeNull();
  });

  it('a missing program is a SpawnError; bad argv is InvalidArgumentError', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    await expect(ctx.execStream!(h, ['definitely-not-a-program-berth'])).rejects.toBeInstanceOf(SpawnError);
    await expect(ctx.execStream!(h, [])).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(ctx.execStream!(h, ['ok', 3 as never])).rejects.toMatchObject({ field: 'command[1]' });
    await expect(ctx.execStream!(h, 12 as never)).rejects.toMatchObject({ field: 'command' });
  });
});

describe('openTerminal', () => {
  it('is declared and opens a PTY running a shell that echoes and runs input', async () => {
    // Interactive shells ignore TERM: a short grace keeps the KILL escalation quick.
    const ctx = makeContext({ killGraceMs: 300 });
    expect(ctx.capabilities.terminal).toBe(true);
    const h = await ctx.spawn();
    const term = await ctx.openTerminal!(h, { cols: 80, rows: 24, shell: ['/bin/sh'] });
    let output = '';
    term.onData((chunk) => {
      output += Buffer.from(chunk).toString();
    });
    term.write('tty; echo "cols=$(tput cols 2>/dev/null || stty size)"; echo mark-$((6*7))\n');
    expect(await eventually(() => output.includes('mark-42'))).toBe(true);
    expect(output).toMatch(/\/dev\/pts\/\d+/);
    term.resize(100, 30);
    term.write('stty size\n');
    expect(await eventually(() => output.includes('30 100'))).toBe(true);
    await term.kill();
    expect(alive(term.pid)).toBe(false);
  });

  it('defaults to the login shell with -l', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    const term = await ctx.openTerminal!(h, { cols: 80, rows: 24 });
    let output = '';
    term.onData((chunk) => {
      output += Buffer.from(chunk).toString();
    });
    term.write('echo "shell=$0"; exit 0\n');
    expect(await term.exited).toBe(0);
    // $0 may name the shell through a symlink; bash says "logout" when a login shell exits.
    const shown = /shell=(\/[^\s"]+)/.exec(output)?.[1];
    expect(shown && realpathSync(shown)).toBe(realpathSync(loginShell()));
    if (loginShell().endsWith('bash')) expect(output).toContain('logout');
  });

  it('rejects bad dimensions naming the field', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    await expect(ctx.openTerminal!(h, { cols: 0, rows: 24 })).rejects.toMatchObject({
      field: 'options.cols',
    });
    await expect(ctx.openTerminal!(h, { cols: 80, rows: 'x' as never })).rejects.toMatchObject({
      field: 'options.rows',
    });
    await expect(ctx.openTerminal!(h, undefined as never)).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});
