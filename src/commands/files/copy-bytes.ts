/**
 * A file's bytes copied through two open handles in bounded chunks (what `cp`, `mv` across mounts
 * and `install` do), yielding to the host between chunks and stopping on cancellation.
 * @module
 */
import type { CommandContext } from '../command.js';

const CHUNK_BYTES = 256 * 1024;

/** Copy `source` onto `dest` (created with `mode` if missing, truncated if present). */
export async function copyFileBytes(
  ctx: CommandContext,
  source: string,
  dest: string,
  options: { readonly mode: number; readonly exclusive?: boolean },
): Promise<void> {
  const input = await ctx.fs.open(source, { read: true });
  try {
    const output = await ctx.fs.open(dest, {
      write: true,
      create: true,
      truncate: true,
      exclusive: options.exclusive === true,
      mode: options.mode,
    });
    try {
      for (;;) {
        if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('aborted');
        const chunk = await input.read(CHUNK_BYTES);
        if (chunk.length === 0) break;
        await output.write(chunk);
        const c = ctx.cooperate();
        if (c !== undefined) await c;
      }
    } finally {
      await output.close();
    }
  } finally {
    await input.close();
  }
}
