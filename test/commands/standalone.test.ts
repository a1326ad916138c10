import { describe, expect, it } from 'vitest';
import { readAll } from '../../src/commands/byte-io.js';
import type { CommandHandler } from '../../src/commands/command.js';
import { runStandalone } from '../../src/commands/standalone.js';
import { type Filesystem, VfsError } from '../../src/vfs/filesystem.js';

// A filesystem on which every call fails: these commands must not need one.
const failingFs = new Proxy({} as Filesystem, {
  get: (_t, name) =>
    name === 'capabilities'
      ? { symlinks: false, hardLinks: false, readOnly: true }
      : () => Promise.reject(new VfsError('EIO', String(name), '/')),
});

const enc = (s: string) => new TextEncoder().encode(s);
const upper: CommandHandler = async (ctx) => {
  const input = await readAll(ctx.stdin, 1 << 20);
  await ctx.stdout.write(enc(new TextDecoder().decode(input).toUpperCase()));
  return 0;
};

describe('runStandalone', () => {
  it('runs a command with stdin, env and cwd, and dispatches to the commands it knows', async () => {
    const outer: CommandHandler = async (ctx) => {
      await ctx.stdout.write(enc(`${ctx.cwd} ${ctx.env.get('X')} ${ctx.dispatch.classify('upper')} `));
      const status = await ctx.dispatch.run(['upper'], {
        stdin: ctx.stdin,
        stdout: ctx.stdout,
        stderr: ctx.stderr,
      });
      const missing = await ctx.dispatch.run(['nope'], {
        stdin: ctx.stdin,
        stdout: ctx.stdout,
        stderr: ctx.stderr,
      });
      return status + missing;
    };
    const r = await runStandalone(outer, {
      argv: ['outer'],
      fs: failingFs,
      cwd: '/w',
      env: { X: 'x' },
      stdin: enc('abc'),
      commands: new Map([['upper', upper]]),
    });
    expect(new TextDecoder().decode(r.stdout)).toBe('/w x command ABC');
    expect(r.status).toBe(127);
  });

  it('turns a throwing command into status 1 with the message on stderr', async () => {
    const r = await runStandalone(
      async () => {
        throw new Error('boom');
      },
      { argv: ['bad'], fs: failingFs },
    );
    expect(r.status).toBe(1);
    expect(new TextDecoder().decode(r.stderr)).toBe('bad: internal error: boom\n');
  });

  it('masks the status to 0-255 as a process exit does', async () => {
    const r = await runStandalone(async () => 256 + 3, { argv: ['x'], fs: failingFs });
    expect(r.status).toBe(3);
  });
});
