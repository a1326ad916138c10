/**
 * A `sh` for tests of commands that run command strings (`awk`'s `system()`, `| getline`,
 * `print | cmd`): the real `/bin/sh` (what gawk runs) runs the string as a host process, fed from and writing to the
 * command's byte streams. It lets a test see the virtual command's plumbing through
 * `ctx.dispatch` end to end against a real shell; the command itself never starts a process.
 */
import { spawn } from 'node:child_process';
import type { CommandHandler } from '../../../../src/commands/command.js';

export const hostShell: CommandHandler = async (ctx) => {
  const script = ctx.argv[ctx.argv.indexOf('-c') + 1] ?? '';
  const child = spawn('/bin/sh', ['-c', script], {
    env: Object.fromEntries(ctx.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const done = new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? 128 + (signal === 'SIGKILL' ? 9 : 15)));
  });
  const pump = async (from: NodeJS.ReadableStream, to: typeof ctx.stdout): Promise<void> => {
    for await (const chunk of from) await to.write(new Uint8Array(chunk as Buffer)).catch(() => {});
  };
  const feeding = (async () => {
    for (;;) {
      const chunk = await ctx.stdin.read();
      if (chunk === null) break;
      if (!child.stdin.write(chunk)) await new Promise((r) => child.stdin.once('drain', r));
    }
    child.stdin.end();
  })().catch(() => child.stdin.destroy());
  child.stdin.on('error', () => {});
  await Promise.all([pump(child.stdout, ctx.stdout), pump(child.stderr, ctx.stderr)]);
  void feeding;
  return await done;
};
