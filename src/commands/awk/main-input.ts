/**
 * The main input: the operands in ARGV (read as the program reaches them, so a program may change
 * ARGV and ARGC), each a file, a `var=value` assignment (done when reached), or `-` (standard
 * input); standard input when there are no file operands. Plain `getline` reads from here too.
 * @module
 */
import type { CommandContext } from '../command.js';
import type { AwkArray } from './arrays.js';
import { AwkFatalError } from './errors.js';
import { fileSource } from './input.js';
import { type AwkIO, errorText, resolvePath } from './io.js';
import { RecordReader } from './records.js';
import { type Runtime, SLOT } from './runtime.js';
import type { SourcePosition } from './source.js';
import { toNum } from './values.js';

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/s;

export class MainInput {
  private argIndex = 1;
  private sawFile = false;
  private finished = false;
  /** The reader of the file being read, if any. */
  current: RecordReader | undefined;

  constructor(
    private readonly ctx: CommandContext,
    private readonly rt: Runtime,
    private readonly io: AwkIO,
    /** `var=value` from ARGV. */
    private readonly assign: (name: string, value: string) => void,
    private readonly warn: (message: string) => void,
    /** Where an open failure is reported (the rule that ran last, as gawk does). */
    private readonly lastAt: () => SourcePosition | undefined,
  ) {}

  /** Advance to the next input; false when there is none. */
  async openNext(): Promise<boolean> {
    if (this.finished) return false;
    const argv = this.rt.globals[SLOT.ARGV] as AwkArray;
    for (;;) {
      const argc = toNum(this.rt.globals[SLOT.ARGC] as never);
      if (this.argIndex >= argc) break;
      const key = String(this.argIndex);
      this.argIndex += 1;
      if (!argv.has(key)) continue;
      const arg = this.rt.toStr(argv.peek(key));
      if (arg === '') continue;
      if (ASSIGNMENT.test(arg)) {
        const eq = arg.indexOf('=');
        this.assign(arg.slice(0, eq), arg.slice(eq + 1));
        continue;
      }
      this.sawFile = true;
      if (arg === '-' || arg === '/dev/stdin') {
        this.start(this.io.stdinRecords(), arg);
        return true;
      }
      this.rt.globals[SLOT.FNR] = 0;
      try {
        const path = resolvePath(this.ctx.cwd, arg);
        const st = await this.ctx.fs.stat(path);
        if (st.type === 'directory') {
          this.warn(`command line argument \`${arg}' is a directory: skipped`);
          continue;
        }
        const handle = await this.ctx.fs.open(path, { read: true });
        this.start(new RecordReader(fileSource(handle), this.rt.limits.maxStringChars), arg);
        return true;
      } catch (error) {
        throw new AwkFatalError(`cannot open file \`${arg}' for reading: ${errorText(error)}`, this.lastAt());
      }
    }
    this.finished = true;
    if (!this.sawFile) {
      this.sawFile = true;
      this.start(this.io.stdinRecords(), '-');
      return true;
    }
    return false;
  }

  private start(reader: RecordReader, name: string): void {
    this.current = reader;
    this.rt.globals[SLOT.FILENAME] = name;
    this.rt.globals[SLOT.FNR] = 0;
  }

  /** The current file has ended (or `nextfile`). */
  closeCurrent(): void {
    this.current = undefined;
  }

  /** Plain `getline`: the next record of the main input, crossing files; `null` at the end. */
  async next(): Promise<import('./records.js').InputRecord | null> {
    for (;;) {
      if (this.current === undefined && !(await this.openNext())) return null;
      const reader = this.current as RecordReader;
      const r = await reader.next(this.rt.recordMode);
      if (r !== null) return r;
      this.closeCurrent();
    }
  }
}
