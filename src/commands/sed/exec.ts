/**
 * sed's execution: the cycle over pattern and hold space, addresses and ranges, every command,
 * GNU's end-of-input behaviour for `n` and `N`, the append queue (`a`, `r`, `R`), `w` files.
 * @module
 */
import type { Regex, RegexMatch } from '../../regex/index.js';
import { isVfsError } from '../../vfs/filesystem.js';
import { decodeBytes } from '../byte-text.js';
import type { CommandContext } from '../command.js';
import type { SedInput, SedLine } from './input.js';
import { fileSink, type SedSink } from './output.js';
import { SedError } from './parse.js';
import type { Address, SedCommand, SedScript, Substitute } from './script.js';
import { escapeForL } from './visible.js';

export interface RunOptions {
  readonly quiet: boolean;
  readonly delimiter: string;
  readonly lineWrap: number;
}

type Flow = 'continue' | 'end' | 'delete' | 'restart' | 'quit' | 'quit-silent';

/** Reads `R` files a line at a time across the whole run. */
interface LineSource {
  lines: string[];
  at: number;
}

export class SedRunner {
  private ps = '';
  private hs = '';
  private lineNo = 0;
  private terminated = true;
  private replaced = false;
  private lastRegex: Regex | null = null;
  private appendQueue: (
    | { kind: 'text'; text: string }
    | { kind: 'file'; path: string }
    | { kind: 'line'; text: string }
  )[] = [];
  private readonly writeSinks = new Map<string, SedSink>();
  private readonly rFiles = new Map<string, LineSource>();
  /** Whether the current line is the last (`$`); kept only when the script asks. */
  private last = false;
  private readonly usesLast: boolean;
  /** The exit status `q`/`Q` asked for; undefined while running. */
  exitStatus: number | undefined;

  constructor(
    private readonly ctx: CommandContext,
    private readonly script: SedScript,
    private readonly o: RunOptions,
    private out: SedSink,
    private readonly stdoutSink: SedSink,
    private readonly stderrSink: SedSink,
  ) {
    this.usesLast = script.commands.some((c) => c.a1?.kind === 'last' || c.a2?.kind === 'last');
  }

  /** Open (truncate) the files `w` writes, as GNU does before the first cycle. */
  async openWriteFiles(): Promise<void> {
    for (const f of this.script.writeFiles) {
      if (this.writeSinks.has(f)) continue;
      if (f === '/dev/stdout') this.writeSinks.set(f, this.stdoutSink);
      else if (f === '/dev/stderr') this.writeSinks.set(f, this.stderrSink);
      else {
        const sink = fileSink(this.ctx, resolve(this.ctx.cwd, f), this.o.delimiter);
        try {
          await sink.flush();
        } catch (e) {
          if (isVfsError(e)) throw new SedError(`couldn't open file ${f}: ${describe(e)}`, 4);
          throw e;
        }
        this.writeSinks.set(f, sink);
      }
    }
  }

  /** Send output somewhere else (-i: each file's replacement). */
  redirect(sink: SedSink): void {
    this.out = sink;
  }

  /** Forget range state and line numbers (a new file under -s / -i). */
  resetForFile(): void {
    this.lineNo = 0;
    for (const c of this.script.commands) {
      c.active = c.a1?.kind === 'zero';
      c.rangeEnd = 0;
    }
  }

  initRanges(): void {
    for (const c of this.script.commands) c.active = c.a1?.kind === 'zero';
  }

  /** Run cycles until the input (or the file, in separate mode) ends or `q` says so. */
  async runAll(input: SedInput): Promise<void> {
    for (;;) {
      if (this.exitStatus !== undefined) return;
      const line = input.tryNext() ?? (await input.next());
      if (line === null) return;
      this.load(line);
      if (this.usesLast) this.last = await input.atLast();
      let flow = await this.execute(input, 0);
      while (flow === 'restart') flow = await this.execute(input, 0, true);
      this.endCycle(flow);
      if (this.appendQueue.length > 0) await this.dumpAppend();
      const flushing = this.out.maybeFlush();
      if (flushing !== undefined) await flushing;
      if (flow === 'quit' || flow === 'quit-silent') return;
      const pause = this.ctx.cooperate();
      if (pause !== undefined) await pause;
      if (this.ctx.signal.aborted) {
        this.exitStatus = 130;
        return;
      }
    }
  }

  async finish(): Promise<void> {
    for (const sink of this.writeSinks.values()) await sink.flush();
  }

  private load(line: SedLine): void {
    this.ps = line.text;
    this.terminated = line.terminated;
    this.lineNo += 1;
    this.replaced = false;
  }

  private endCycle(flow: Flow): void {
    if (flow !== 'delete' && flow !== 'quit-silent' && !this.o.quiet) this.out.line(this.ps, this.terminated);
    if (flow === 'quit-silent') this.appendQueue = [];
  }

  private async dumpAppend(): Promise<void> {
    for (const item of this.appendQueue) {
      if (item.kind === 'text') this.out.line(item.text);
      else if (item.kind === 'line') this.out.line(item.text);
      else {
        try {
          this.out.raw(decodeBytes(await this.ctx.fs.readFile(resolve(this.ctx.cwd, item.path))));
        } catch (e) {
          if (!isVfsError(e)) throw e; // a missing `r` file is silently ignored, as GNU does
        }
      }
    }
    this.appendQueue = [];
  }

  /** Read the next line into the pattern space for `n`/`N`; false at the end of input. */
  private async readNext(input: SedInput, append: boolean): Promise<boolean> {
    if (await input.atLast()) return false;
    const line = await input.next();
    if (line === null) return false;
    const previous = this.ps;
    await this.dumpAppend();
    this.load(line);
    if (this.usesLast) this.last = await input.atLast();
    if (append) this.ps = `${previous}\n${this.ps}`;
    return true;
  }

  private async execute(input: SedInput, start: number, restarted = false): Promise<Flow> {
    const cmds = this.script.commands;
    let pc = start;
    if (restarted) this.replaced = this.replaced && true;
    while (pc < cmds.length) {
      const cmd = cmds[pc] as SedCommand;
      const selected = this.selects(cmd) !== cmd.negate;
      const body = cmd.body;
      if (!selected) {
        pc = body.name === '{' ? body.end + 1 : pc + 1;
        continue;
      }
      pc += 1;
      switch (body.name) {
        case '{':
        case '}':
        case ':':
        case '#':
          break;
        case '=':
          this.out.line(String(this.lineNo), true);
          break;
        case 'a':
          this.appendQueue.push({ kind: 'text', text: body.text });
          break;
        case 'i':
          this.out.line(body.text);
          break;
        case 'c':
          // In a range, the text is printed once, at its end.
          if (cmd.a2 === undefined || !cmd.active || cmd.negate) this.out.line(body.text);
          return 'delete';
        case 'b':
          pc = body.target;
          break;
        case 't':
          if (this.replaced) {
            this.replaced = false;
            pc = body.target;
          }
          break;
        case 'T':
          if (!this.replaced) pc = body.target;
          else this.replaced = false;
          break;
        case 'd':
          return 'delete';
        case 'D': {
          const nl = this.ps.indexOf('\n');
          if (nl === -1) return 'delete';
          this.ps = this.ps.slice(nl + 1);
          await this.dumpAppend();
          return 'restart';
        }
        case 'g':
          this.ps = this.hs;
          break;
        case 'G':
          this.ps = `${this.ps}\n${this.hs}`;
          break;
        case 'h':
          this.hs = this.ps;
          break;
        case 'H':
          this.hs = `${this.hs}\n${this.ps}`;
          break;
        case 'x': {
          const t = this.ps;
          this.ps = this.hs;
          this.hs = t;
          break;
        }
        case 'z':
          this.ps = '';
          break;
        case 'l':
          this.out.raw(escapeForL(this.ps, body.width ?? this.o.lineWrap));
          break;
        case 'n':
          if (await input.atLast()) return 'end';
          if (!this.o.quiet) this.out.line(this.ps, this.terminated);
          if (!(await this.readNext(input, false))) return 'end';
          break;
        case 'N':
          if (!(await this.readNext(input, true))) return 'end';
          break;
        case 'p':
          this.out.line(this.ps, true);
          break;
        case 'P': {
          const nl = this.ps.indexOf('\n');
          this.out.line(nl === -1 ? this.ps : this.ps.slice(0, nl), true);
          break;
        }
        case 'q':
          this.exitStatus = body.status;
          return 'quit';
        case 'Q':
          this.exitStatus = body.status;
          return 'quit-silent';
        case 'r':
          this.appendQueue.push({ kind: 'file', path: body.file });
          break;
        case 'R': {
          const text = await this.readLineOf(body.file);
          if (text !== undefined) this.appendQueue.push({ kind: 'line', text });
          break;
        }
        case 'w':
          this.sinkFor(body.file).line(this.ps, true);
          break;
        case 'W': {
          const nl = this.ps.indexOf('\n');
          this.sinkFor(body.file).line(nl === -1 ? this.ps : this.ps.slice(0, nl), true);
          break;
        }
        case 'F':
          this.out.line(input.currentFile?.name ?? '-', true);
          break;
        case 'y': {
          let out = '';
          for (const ch of this.ps) out += body.map.get(ch) ?? ch;
          this.ps = out;
          break;
        }
        case 's':
          if (this.substitute(body)) {
            this.replaced = true;
            if (body.print) this.out.line(this.ps, true);
            if (body.writeFile !== undefined) this.sinkFor(body.writeFile).line(this.ps, true);
          }
          break;
      }
    }
    return 'end';
  }

  private sinkFor(file: string): SedSink {
    const sink = this.writeSinks.get(file);
    if (sink === undefined) throw new SedError(`couldn't open file ${file}`, 4);
    return sink;
  }

  private async readLineOf(file: string): Promise<string | undefined> {
    let src = this.rFiles.get(file);
    if (src === undefined) {
      let lines: string[] = [];
      try {
        const text = decodeBytes(await this.ctx.fs.readFile(resolve(this.ctx.cwd, file)));
        lines = text.split('\n');
        if (text.endsWith('\n')) lines.pop();
      } catch (e) {
        if (!isVfsError(e)) throw e;
      }
      src = { lines, at: 0 };
      this.rFiles.set(file, src);
    }
    if (src.at >= src.lines.length) return undefined;
    src.at += 1;
    return src.lines[src.at - 1];
  }

  // --- addresses ------------------------------------------------------------------------

  private regexFor(r: Regex | null): Regex {
    const re = r ?? this.lastRegex;
    if (re === null) throw new SedError('-e expression #1, char 0: no previous regular expression', 1);
    this.lastRegex = re;
    return re;
  }

  private matchOne(a: Address): boolean {
    switch (a.kind) {
      case 'line':
        return this.lineNo === a.n;
      case 'last':
        return this.last;
      case 'zero':
        return false;
      case 'regex':
        return this.regexFor(a.regex).test(this.ps);
      case 'step':
        if (a.step <= 0) return this.lineNo === a.first;
        return this.lineNo >= a.first && (this.lineNo - a.first) % a.step === 0;
      default:
        return false;
    }
  }

  private selects(cmd: SedCommand): boolean {
    const { a1, a2 } = cmd;
    if (a1 === undefined) return true;
    if (a2 === undefined) return this.matchOne(a1);
    if (cmd.active) {
      switch (a2.kind) {
        case 'line':
          if (this.lineNo >= a2.n) cmd.active = false;
          return true;
        case 'plus':
        case 'multiple':
          if (this.lineNo >= cmd.rangeEnd) cmd.active = false;
          return true;
        default:
          if (this.matchOne(a2)) cmd.active = false;
          return true;
      }
    }
    if (!this.matchOne(a1)) return false;
    switch (a2.kind) {
      case 'line':
        cmd.active = a2.n > this.lineNo;
        break;
      case 'plus':
        cmd.rangeEnd = this.lineNo + a2.n;
        cmd.active = a2.n > 0;
        break;
      case 'multiple':
        if (a2.n <= 0 || this.lineNo % a2.n === 0) cmd.active = false;
        else {
          cmd.rangeEnd = Math.ceil(this.lineNo / a2.n) * a2.n;
          cmd.active = true;
        }
        break;
      case 'last':
        cmd.active = !this.last;
        break;
      default:
        cmd.active = true;
    }
    return true;
  }

  // --- s ----------------------------------------------------------------------------------

  private substitute(s: Substitute): boolean {
    const re = this.regexFor(s.regex);
    const ps = this.ps;
    const lit = re.literal;
    if (
      lit !== undefined &&
      s.plainReplacement !== undefined &&
      s.nth === 1 &&
      re.options.ignoreCase !== true
    ) {
      if (s.global) {
        if (!ps.includes(lit)) return false;
        this.ps = ps.split(lit).join(s.plainReplacement);
        return true;
      }
      const at = ps.indexOf(lit);
      if (at === -1) return false;
      this.ps = ps.slice(0, at) + s.plainReplacement + ps.slice(at + lit.length);
      return true;
    }
    let out = '';
    let copied = 0;
    let pos = 0;
    let count = 0;
    let prevEnd = -1;
    let did = false;
    while (pos <= ps.length) {
      const m = re.exec(ps, pos);
      if (m === null) break;
      if (m.start === m.end && m.start === prevEnd) {
        if (m.start >= ps.length) break;
        pos = m.start + charWidth(ps, m.start);
        continue;
      }
      count += 1;
      if (count >= s.nth) {
        out += ps.slice(copied, m.start) + this.build(s, m, ps, re);
        copied = m.end;
        did = true;
        if (!s.global) break;
      }
      prevEnd = m.end;
      pos = m.end === m.start ? m.end + (m.end < ps.length ? charWidth(ps, m.end) : 1) : m.end;
    }
    if (!did) return false;
    this.ps = out + ps.slice(copied);
    return true;
  }

  private build(s: Substitute, m: RegexMatch, text: string, re: Regex): string {
    if (s.plainReplacement !== undefined) return s.plainReplacement;
    let out = '';
    let mode: 'U' | 'L' | undefined;
    let once: 'u' | 'l' | undefined;
    const emit = (piece: string): void => {
      if (piece === '') return;
      let rest = piece;
      if (once !== undefined) {
        const first = String.fromCodePoint(piece.codePointAt(0) as number);
        out += once === 'u' ? first.toUpperCase() : first.toLowerCase();
        rest = piece.slice(first.length);
        once = undefined;
      }
      out += mode === 'U' ? rest.toUpperCase() : mode === 'L' ? rest.toLowerCase() : rest;
    };
    for (const part of s.replacement) {
      if (part.kind === 'text') emit(part.text);
      else if (part.kind === 'group')
        emit(part.n === 0 ? text.slice(m.start, m.end) : (re.group(m, text, part.n) ?? ''));
      else if (part.op === 'U' || part.op === 'L') {
        mode = part.op;
        once = undefined;
      } else if (part.op === 'E') {
        mode = undefined;
        once = undefined;
      } else once = part.op;
    }
    return out;
  }
}

function charWidth(text: string, at: number): number {
  const u = text.charCodeAt(at);
  if (u >= 0xd800 && u <= 0xdbff && at + 1 < text.length) {
    const v = text.charCodeAt(at + 1);
    if (v >= 0xdc00 && v <= 0xdfff) return 2;
  }
  return 1;
}

export function resolve(cwd: string, p: string): string {
  if (p.startsWith('/')) return p;
  return cwd === '/' ? `/${p}` : `${cwd}/${p}`;
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
