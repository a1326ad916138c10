/**
 * Where a download goes: the command's stdout, or a file of the virtual filesystem written chunk
 * by chunk as the body arrives (so the byte budget, not host memory, bounds it).
 * @module
 */
import { isVfsError, type VfsError, type VfsFileHandle } from '../../vfs/filesystem.js';
import type { CommandContext } from '../command.js';

/** Writing the download failed (a full budget, a read-only mount): curl's exit 23. */
export class OutputWriteError extends Error {
  readonly error: VfsError | undefined;
  constructor(message: string, error?: VfsError) {
    super(message);
    this.name = 'OutputWriteError';
    this.error = error;
  }
}

export interface OutputSink {
  write(bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

export function stdoutSink(ctx: CommandContext): OutputSink {
  return { write: (bytes) => ctx.stdout.write(bytes), close: async () => {} };
}

/** Open `path` for writing (created or emptied); `createDirs` makes its parents first. */
export async function openOutput(
  ctx: CommandContext,
  path: string,
  createDirs: boolean,
): Promise<
  { readonly ok: true; readonly sink: OutputSink } | { readonly ok: false; readonly error: VfsError }
> {
  let handle: VfsFileHandle;
  try {
    if (createDirs) {
      const parent = path.slice(0, path.lastIndexOf('/'));
      if (parent !== '') await ctx.fs.mkdir(parent, { recursive: true });
    }
    handle = await ctx.fs.open(path, { write: true, create: true, truncate: true });
  } catch (error) {
    if (isVfsError(error)) return { ok: false, error };
    throw error;
  }
  let closed = false;
  return {
    ok: true,
    sink: {
      write: async (bytes) => {
        try {
          await handle.write(bytes);
        } catch (error) {
          if (isVfsError(error)) throw new OutputWriteError('Failure writing output to destination', error);
          throw error;
        }
      },
      close: async () => {
        if (closed) return;
        closed = true;
        await handle.close();
      },
    },
  };
}
