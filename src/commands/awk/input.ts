/**
 * Where awk reads from: the chunk sources behind its record readers (standard input, a file of
 * the filesystem, the output of a command run through the shell's dispatcher).
 * @module
 */

import type { VfsFileHandle } from '../../vfs/filesystem.js';
import { createBytePipe } from '../byte-pipe.js';
import type { ByteReader } from '../command.js';
import type { StartCommand } from './output.js';
import type { ChunkSource } from './records.js';

const READ_BYTES = 64 * 1024;

export function readerSource(reader: ByteReader): ChunkSource {
  return () => reader.read();
}

/** Chunks of an open file, which is closed at its end. */
export function fileSource(handle: VfsFileHandle): ChunkSource {
  let closed = false;
  return async () => {
    if (closed) return null;
    const chunk = await handle.read(READ_BYTES);
    if (chunk.length === 0) {
      closed = true;
      await handle.close();
      return null;
    }
    return chunk;
  };
}

/** `cmd | getline`: the command's output, and its exit status once it has ended. */
export interface CommandInput {
  readonly source: ChunkSource;
  readonly status: Promise<number>;
  /** Stop reading (the command gets a broken pipe if it writes on). */
  close(): void;
}

export function commandInput(command: string, stdin: ByteReader, start: StartCommand): CommandInput {
  const pipe = createBytePipe();
  const status = start(command, { stdin, stdout: pipe.writer }).finally(() => pipe.writer.close());
  return {
    source: readerSource(pipe.reader),
    status,
    close: () => pipe.reader.close(),
  };
}
