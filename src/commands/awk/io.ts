/**
 * awk's redirections: the table of open output files and commands, `getline` files and commands,
 * `close`, `fflush` and `system`. Commands are run as `sh -c CMD` through the shell's dispatcher
 * (so the shell's whole resolution chain and its external-command gate apply), never as host
 * processes. Paths are resolved against the command's working directory in its filesystem.
 * @module
 */

import { describeVfsCode, isVfsError, type VfsErrorCode } from '../../vfs/filesystem.js';
import { normalizeVfsPath } from '../../vfs/vfs-path.js';
import { createBytePipe } from '../byte-pipe.js';
import type { ByteReader, ByteWriter, CommandContext } from '../command.js';
import type { AwkArray } from './arrays.js';
import { AwkFatalError } from './errors.js';
import { type CommandInput, commandInput, fileSource, readerSource } from './input.js';
import {
  CoprocessStream,
  FileStream,
  type OutputStream,
  PipeStream,
  type StartCommand,
  WriterStream,
} from './output.js';
import { type InputRecord, RecordReader } from './records.js';
import { type Runtime, SLOT } from './runtime.js';
import type { SourcePosition } from './source.js';

interface InputEntry {
  readonly reader: RecordReader;
  readonly command: CommandInput | undefined;
}

/** The text of a filesystem error, as strerror gives it. */
export function errorText(error: unknown): string {
  if (isVfsError(error)) return describeVfsCode(error.code as VfsErrorCode);
  return error instanceof Error ? error.message : String(error);
}

/** `path` resolved against the working directory (lexically, as the shell resolves operands). */
export function resolvePath(cwd: string, path: string): string {
  return normalizeVfsPath(path, cwd);
}

const STDOUT_NAMES = new Set(['/dev/stdout', '/dev/fd/1', '-']);
const STDERR_NAMES = new Set(['/dev/stderr', '/dev/fd/2']);
const STDIN_NAMES = new Set(['-', '/dev/stdin', '/dev/fd/0']);

export class AwkIO {
  readonly stdout: WriterStream;
  readonly stderr: WriterStream;
  private readonly outputs = new Map<string, OutputStream>();
  private readonly inputs = new Map<string, InputEntry>();
  private readonly start: StartCommand;
  private stdinReader: RecordReader | undefined;
  /** `--sandbox`: redirections and `system()` are refused. */
  sandbox = false;

  constructor(
    private readonly ctx: CommandContext,
    private readonly rt: Runtime,
    private readonly maxRecordChars: number,
    /** Print a warning (`awk: cmd. line:1: warning: ...`). */
    private readonly warn: (at: SourcePosition | undefined, message: string) => void,
  ) {
    this.stdout = new WriterStream(ctx.stdout, false);
    this.stderr = new WriterStream(ctx.stderr, true);
    this.start = (command, io) => this.runShell(command, io.stdin, io.stdout);
  }

  /** Run `sh -c command` through the dispatcher; 127 with a message when there is no `sh`. */
  private async runShell(command: string, stdin: ByteReader, stdout: ByteWriter): Promise<number> {
    const status = await this.ctx.dispatch.run(['sh', '-c', command], {
      stdin,
      stdout,
      stderr: this.ctx.stderr,
      signal: this.ctx.signal,
      env: this.environment(),
    });
    if (status === 127 && this.ctx.dispatch.classify('sh') === 'not-found') {
      this.warn(undefined, `cannot run \`${command}': this shell has no \`sh' command`);
    }
    return status;
  }

  /** The environment a command gets: ENVIRON as the program left it (gawk passes changes on). */
  private environment(): Map<string, string> {
    const environ = this.rt.globals[SLOT.ENVIRON] as AwkArray;
    const env = new Map<string, string>();
    for (const [k, v] of environ.entries()) env.set(k, this.rt.toStr(v));
    return env;
  }

  /** The reader of standard input shared by the main input and `getline < "-"`. */
  stdinRecords(): RecordReader {
    this.stdinReader ??= new RecordReader(readerSource(this.ctx.stdin), this.maxRecordChars);
    return this.stdinReader;
  }

  private checkOpenCount(at: SourcePosition | undefined): void {
    if (this.outputs.size + this.inputs.size >= this.rt.limits.maxOpenStreams) {
      throw new AwkFatalError(
        `more than ${this.rt.limits.maxOpenStreams} files and commands open at once (the limit of this shell); close() some`,
        at,
      );
    }
  }

  /** The stream for `print > name`, `>> name`, `| name` (opened on first use). */
  async output(
    kind: '>' | '>>' | '|' | '|&',
    name: string,
    at: SourcePosition | undefined,
  ): Promise<OutputStream> {
    if (kind === '>' || kind === '>>') {
      if (STDOUT_NAMES.has(name) && name !== '-') return this.stdout;
      if (STDERR_NAMES.has(name)) return this.stderr;
    }
    const open = this.outputs.get(name);
    if (open !== undefined) return open;
    if (this.sandbox) throw new AwkFatalError('redirection not allowed in sandbox mode', at);
    this.checkOpenCount(at);
    let stream: OutputStream;
    if (kind === '|&') {
      const output = this.startCoprocess(name, at).output;
      if (output === undefined)
        throw new AwkFatalError(`\`${name}' is no longer writable (closed with "to")`, at);
      return output;
    }
    if (kind === '|') {
      // gawk writes its own buffered output before a command starts writing beside it.
      await this.stdout.flush();
      stream = new PipeStream(name, this.ctx.stdout, this.start);
    } else {
      try {
        const path = resolvePath(this.ctx.cwd, name);
        const handle = await this.ctx.fs.open(path, {
          write: true,
          create: true,
          truncate: kind === '>',
          append: kind === '>>',
        });
        stream = new FileStream(handle);
      } catch (error) {
        throw new AwkFatalError(`cannot redirect to \`${name}': ${errorText(error)}`, at);
      }
    }
    this.outputs.set(name, stream);
    return stream;
  }

  /** `getline < name`: the next record, `null` at the end, or -1 when it cannot be read. */
  async getlineFile(name: string, at: SourcePosition | undefined): Promise<InputRecord | null | -1> {
    let entry = this.inputs.get(name);
    if (entry === undefined) {
      if (this.sandbox) throw new AwkFatalError('redirection not allowed in sandbox mode', at);
      if (STDIN_NAMES.has(name)) {
        entry = { reader: this.stdinRecords(), command: undefined };
      } else {
        this.checkOpenCount(undefined);
        try {
          const path = resolvePath(this.ctx.cwd, name);
          const st = await this.ctx.fs.stat(path);
          if (st.type === 'directory') {
            this.rt.globals[SLOT.ERRNO] = 'Is a directory';
            return -1;
          }
          const handle = await this.ctx.fs.open(path, { read: true });
          entry = { reader: new RecordReader(fileSource(handle), this.maxRecordChars), command: undefined };
        } catch (error) {
          this.rt.globals[SLOT.ERRNO] = errorText(error);
          return -1;
        }
      }
      this.inputs.set(name, entry);
    }
    try {
      return await entry.reader.next(this.rt.recordMode);
    } catch (error) {
      if (error instanceof AwkFatalError) throw error;
      this.rt.globals[SLOT.ERRNO] = errorText(error);
      return -1;
    }
  }

  /** `cmd | getline`: the next record of the command's output, `null` at its end. */
  async getlineCommand(command: string, at: SourcePosition | undefined): Promise<InputRecord | null> {
    let entry = this.inputs.get(command);
    if (entry === undefined) {
      if (this.sandbox) throw new AwkFatalError('redirection not allowed in sandbox mode', at);
      this.checkOpenCount(at);
      await this.flushAll();
      const input = commandInput(command, this.ctx.stdin, this.start);
      entry = { reader: new RecordReader(input.source, this.maxRecordChars), command: input };
      this.inputs.set(command, entry);
    }
    return await entry.reader.next(this.rt.recordMode);
  }

  /**
   * A two-way pipe (`print |& cmd`, `cmd |& getline`): one command whose standard input awk
   * writes and whose standard output awk reads.
   */
  private startCoprocess(
    name: string,
    at: SourcePosition | undefined,
  ): { output: OutputStream | undefined; input: InputEntry } {
    const out = this.outputs.get(name);
    const input = this.inputs.get(name);
    // Either side may have been closed already (`close(cmd, "to")`): the other goes on.
    if (input !== undefined || out !== undefined) {
      if (input === undefined)
        throw new AwkFatalError(`\`${name}' is no longer readable (closed with "from")`, at);
      return { output: out, input };
    }
    if (this.sandbox) throw new AwkFatalError('redirection not allowed in sandbox mode', at);
    this.checkOpenCount(at);
    const toCommand = createBytePipe();
    const fromCommand = createBytePipe();
    const status = this.runShell(name, toCommand.reader, fromCommand.writer).finally(() => {
      toCommand.reader.close();
      void fromCommand.writer.close();
    });
    const output = new CoprocessStream(toCommand.writer);
    const entry: InputEntry = {
      reader: new RecordReader(readerSource(fromCommand.reader), this.maxRecordChars),
      command: { source: readerSource(fromCommand.reader), status, close: () => fromCommand.reader.close() },
    };
    this.outputs.set(name, output);
    this.inputs.set(name, entry);
    return { output, input: entry };
  }

  /** `cmd |& getline`: what awk wrote to the coprocess goes first, then its next record. */
  async getlineCoprocess(name: string, at: SourcePosition | undefined): Promise<InputRecord | null> {
    const { output, input } = this.startCoprocess(name, at);
    await output?.flush();
    return await input.reader.next(this.rt.recordMode);
  }

  /** `close(name)`: the exit status for a command, 0 for a file, -1 when nothing is open by that name. */
  async close(name: string, how: string | undefined): Promise<number> {
    let result = -1;
    const out = this.outputs.get(name);
    const input = this.inputs.get(name);
    if (out === undefined && input === undefined) {
      if (STDOUT_NAMES.has(name) || STDERR_NAMES.has(name)) {
        await (STDERR_NAMES.has(name) ? this.stderr : this.stdout).flush();
        return 0;
      }
      return -1;
    }
    if (out !== undefined && how !== 'from') {
      this.outputs.delete(name);
      result = await this.closeOutput(name, out);
    }
    if (input !== undefined && how !== 'to') {
      this.inputs.delete(name);
      if (input.command !== undefined) {
        input.command.close();
        result = await input.command.status;
      } else {
        result = 0;
      }
    }
    return result;
  }

  private async closeOutput(name: string, out: OutputStream): Promise<number> {
    try {
      return await out.close();
    } catch (error) {
      throw new AwkFatalError(`close of \`${name}' failed: ${errorText(error)}`, undefined);
    }
  }

  /** `fflush()` (everything) or `fflush(name)`: 0, or -1 when nothing is open by that name. */
  async fflush(name: string | undefined, at: SourcePosition | undefined): Promise<number> {
    if (name === undefined) {
      await this.flushAll();
      return 0;
    }
    if (STDOUT_NAMES.has(name)) {
      await this.stdout.flush();
      return 0;
    }
    if (STDERR_NAMES.has(name)) {
      await this.stderr.flush();
      return 0;
    }
    const out = this.outputs.get(name);
    if (out === undefined) {
      this.warn(at, `fflush: \`${name}' is not an open file, pipe or co-process`);
      return -1;
    }
    await out.flush();
    return 0;
  }

  async flushAll(): Promise<void> {
    await this.stdout.flush();
    await this.stderr.flush();
    for (const out of this.outputs.values()) await out.flush();
  }

  /** `system(cmd)`: output is flushed first, as gawk does; the command's exit status. */
  async system(command: string, at: SourcePosition | undefined): Promise<number> {
    if (this.sandbox) throw new AwkFatalError("'system' function not allowed in sandbox mode", at);
    await this.flushAll();
    return await this.runShell(command, this.ctx.stdin, this.ctx.stdout);
  }

  /** At the end: close every redirection (commands are waited for), then flush standard output. */
  async closeAll(): Promise<void> {
    let first: unknown;
    for (const [name, out] of [...this.outputs]) {
      this.outputs.delete(name);
      try {
        await out.close();
      } catch (error) {
        first ??= error;
      }
    }
    for (const [name, input] of [...this.inputs]) {
      this.inputs.delete(name);
      if (input.command !== undefined) {
        input.command.close();
        await input.command.status.catch(() => 0);
      }
    }
    await this.stdout.flush();
    await this.stderr.flush();
    if (first !== undefined) throw first;
  }

  /** Write standard output out when enough has gathered (called at the program's yield points). */
  async maybeFlush(): Promise<void> {
    if (this.stdout.pending >= 64 * 1024) await this.stdout.flush();
  }
}
