/**
 * The `jq` command of the virtual shell: jq 1.7.1's command line over the command contract. The
 * program is compiled (status 3 on a compile error), named and positional arguments are bound
 * (`--arg`, `--argjson`, `--slurpfile`, `--rawfile`, `--args`, `--jsonargs`, `$ARGS`, `$ENV`),
 * then inputs stream from standard input or the file operands through the engine to standard
 * output. Statuses are jq's: 2 for usage and unreadable files, 3 for compile errors, 5 for
 * runtime and input errors, `-e`'s 1 and 4, 141 when the reader of standard output went away.
 * @module
 */

import type { Filesystem } from '../../vfs/filesystem.js';
import { describeVfsCode, VfsError } from '../../vfs/filesystem.js';
import { normalizeVfsPath } from '../../vfs/vfs-path.js';
import { BrokenPipeError, type CommandContext, type CommandSpec } from '../command.js';
import { compileJqWithModules, runJq } from './engine.js';
import { JqCompileError } from './errors.js';
import { JQ_HELP, JQ_USAGE_HINT, JQ_VERSION } from './help.js';
import { CommandInputFeed, type InputSource } from './input-feed.js';
import { JsonSyntaxError, parseJsonText, parseJsonTexts } from './json-parse.js';
import { type Colors, DEFAULT_COLORS, parseJqColors } from './json-print.js';
import { DEFAULT_LIBRARY_PATH, JqModuleError, type ModuleEnvironment } from './modules.js';
import { type JqOptions, JqUsageError, parseJqArgs } from './options.js';
import { CommandOutput } from './output-sink.js';
import { DEFAULT_LIMITS } from './runtime.js';
import type { JqObject, Value } from './value.js';

const encoder = new TextEncoder();

/** Most bytes of one program file, `--rawfile` or `--slurpfile` held in memory. */
const MAX_FILE_BYTES = 256 * 1024 * 1024;

/** A failure that ends the command with jq's message and status. */
class JqExit extends Error {
  constructor(
    readonly text: string,
    readonly status: number,
  ) {
    super(text);
  }
}

export const jqCommand: CommandSpec = {
  name: 'jq',
  summary: 'command-line JSON processor',
  help: JQ_HELP,
  run: runJqCommand,
};

async function runJqCommand(ctx: CommandContext): Promise<number> {
  const stderr = new ErrorBuffer(ctx);
  try {
    return await main(ctx, stderr);
  } catch (error) {
    if (error instanceof BrokenPipeError) return 141;
    if (error instanceof JqExit) {
      stderr.add(error.text);
      await stderr.flush().catch(() => {});
      return error.status;
    }
    throw error;
  } finally {
    await stderr.flush().catch(() => {});
  }
}

async function main(ctx: CommandContext, stderr: ErrorBuffer): Promise<number> {
  let opts: JqOptions;
  try {
    opts = parseJqArgs(ctx.argv.slice(1));
  } catch (error) {
    if (error instanceof JqUsageError) throw new JqExit(`${error.message}\n${JQ_USAGE_HINT}`, 2);
    throw error;
  }
  if (opts.action === 'help') {
    await ctx.stdout.write(encoder.encode(JQ_HELP));
    return 0;
  }
  if (opts.action === 'version') {
    await ctx.stdout.write(encoder.encode(`${JQ_VERSION}\n`));
    return 0;
  }
  if (opts.action === 'build-configuration') {
    await ctx.stdout.write(
      encoder.encode('berth: jq 1.7.1 language in TypeScript (no Oniguruma, no decNumber)\n'),
    );
    return 0;
  }
  // Relative search paths of the main program start from its file's directory (jq's origin).
  let origin = ctx.cwd;
  let programText = opts.program;
  let files = opts.files;
  if (programText === undefined) {
    // jq reads `.` when neither end is a terminal, which is always so here.
    programText = '.';
  }
  if (opts.fromFile) {
    const bytes = await readWhole(ctx, programText, (m) => `jq: Could not open ${programText}: ${m}\n`, 2);
    programText = skipShebang(new TextDecoder().decode(bytes));
    const file = resolve(ctx, opts.program as string);
    origin = file.slice(0, file.lastIndexOf('/')) || '/';
  }
  const modules: ModuleEnvironment = {
    fs: ctx.fs,
    cwd: ctx.cwd,
    home: ctx.env.get('HOME'),
    libraryPath:
      opts.libraryPaths.length > 0 ? opts.libraryPaths.map((d) => resolve(ctx, d)) : DEFAULT_LIBRARY_PATH,
  };
  const globals = await bindArguments(ctx, opts);
  let program: Awaited<ReturnType<typeof compileJqWithModules>>;
  try {
    program = await compileJqWithModules(programText, new Set(globals.keys()), modules, origin);
  } catch (error) {
    // jq's linker ends its message with a newline of its own, hence the empty line.
    if (error instanceof JqModuleError)
      throw new JqExit(`jq: error: ${error.message}\n\njq: 1 compile error\n`, 3);
    if (error instanceof JqCompileError) {
      const n = error.count;
      throw new JqExit(`${error.message}\njq: ${n} compile ${n === 1 ? 'error' : 'errors'}\n`, 3);
    }
    throw error;
  }
  if (files.length === 0) files = [];
  let openErrors = 0;
  const sources: InputSource[] =
    files.length === 0
      ? [stdinSource(ctx)]
      : files.map((f) => (f === '-' ? stdinSource(ctx) : fileSource(ctx, f)));
  const feed = new CommandInputFeed(sources, {
    raw: opts.rawInput,
    slurp: opts.slurp,
    stream: opts.stream,
    seq: opts.seq,
    stdin: files.length === 0 ? ctx.stdin : undefined,
    maxValueChars: DEFAULT_LIMITS.maxStringLength,
    maxSlurpItems: DEFAULT_LIMITS.maxArrayLength,
    onOpenError: (m) => {
      openErrors += 1;
      stderr.add(`jq: error: ${m}\n`);
    },
    onWarning: (m) => stderr.add(`${m}\n`),
  });
  const colors = opts.color === true ? colorsFrom(ctx) : null;
  const output = new CommandOutput(
    ctx.stdout,
    {
      print: {
        indent: opts.tab ? 0 : opts.indent,
        tab: opts.tab,
        sortKeys: opts.sortKeys,
        ascii: opts.asciiOutput,
        colors,
      },
      raw: opts.rawOutput,
      raw0: opts.rawOutput0,
      join: opts.joinOutput,
      seq: opts.seq,
      unbuffered: opts.unbuffered,
    },
    () => stderr.flush(),
  );
  const result = await runJq(program, feed, output, {
    nullInput: opts.nullInput,
    exitStatus: opts.exitStatus,
    globals,
    env: ctx.env,
    cooperate: () => ctx.cooperate(),
    signal: ctx.signal,
    stderr: (t) => stderr.add(t),
    modules: { env: modules, origin },
  });
  if (result.aborted) return result.status;
  output.attach();
  if (openErrors > 0) return 2;
  return result.status;
}

/** `$ENV`, `$ARGS`, and the `$name`s of `--arg` and friends (the first of a name wins). */
async function bindArguments(ctx: CommandContext, opts: JqOptions): Promise<Map<string, Value>> {
  const named: JqObject = new Map();
  for (const a of opts.named) {
    if (named.has(a.name)) continue;
    switch (a.kind) {
      case 'string':
        named.set(a.name, a.value);
        break;
      case 'json':
        named.set(a.name, parseArgJson(a.text, '--argjson'));
        break;
      case 'rawfile': {
        const bytes = await readWhole(
          ctx,
          a.file,
          (m) => `jq: Bad JSON in --rawfile ${a.name} ${a.file}: Could not open ${a.file}: ${m}\n`,
          2,
        );
        named.set(a.name, new TextDecoder().decode(bytes));
        break;
      }
      case 'slurpfile':
      case 'argfile': {
        const bytes = await readWhole(
          ctx,
          a.file,
          (m) => `jq: Bad JSON in --${a.kind} ${a.name} ${a.file}: Could not open ${a.file}: ${m}\n`,
          2,
        );
        let values: Value[];
        try {
          values = parseJsonTexts(new TextDecoder().decode(bytes));
        } catch (error) {
          if (error instanceof JsonSyntaxError) {
            throw new JqExit(`jq: Bad JSON in --${a.kind} ${a.name} ${a.file}: ${error.message}\n`, 2);
          }
          throw error;
        }
        named.set(a.name, a.kind === 'argfile' && values.length === 1 ? (values[0] as Value) : values);
        break;
      }
    }
  }
  const positional: Value[] = opts.positional.map((p) =>
    p.kind === 'string' ? p.text : parseArgJson(p.text, '--jsonargs'),
  );
  const globals = new Map<string, Value>();
  const env: JqObject = new Map();
  for (const [k, v] of ctx.env) env.set(k, v);
  globals.set('ENV', env);
  globals.set(
    'ARGS',
    new Map<string, Value>([
      ['positional', positional],
      ['named', named],
    ]),
  );
  for (const [k, v] of named) globals.set(k, v);
  return globals;
}

function parseArgJson(text: string, option: string): Value {
  try {
    return parseJsonText(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError)
      throw new JqExit(`jq: invalid JSON text passed to ${option}\n${JQ_USAGE_HINT}`, 2);
    throw error;
  }
}

function skipShebang(src: string): string {
  return src.startsWith('#!') ? src.slice(src.indexOf('\n') + 1 || src.length) : src;
}

function resolve(ctx: CommandContext, file: string): string {
  return normalizeVfsPath(file, ctx.cwd);
}

async function readWhole(
  ctx: CommandContext,
  file: string,
  message: (reason: string) => string,
  status: number,
): Promise<Uint8Array> {
  try {
    const st = await ctx.fs.stat(resolve(ctx, file));
    if (st.type === 'directory') throw new VfsError('EISDIR', 'read', file);
    if (st.size > MAX_FILE_BYTES)
      throw new JqExit(`jq: error: ${file} is larger than ${MAX_FILE_BYTES} bytes\n`, 2);
    return await ctx.fs.readFile(resolve(ctx, file));
  } catch (error) {
    if (error instanceof VfsError) throw new JqExit(message(describeVfsCode(error.code)), status);
    throw error;
  }
}

function stdinSource(ctx: CommandContext): InputSource {
  return {
    name: '<stdin>',
    isStdin: true,
    chunks: () => ({
      next: async () => {
        const chunk = await ctx.stdin.read();
        return chunk === null ? { done: true, value: undefined } : { done: false, value: chunk };
      },
    }),
  };
}

function fileSource(ctx: CommandContext, file: string): InputSource {
  const fs: Filesystem = ctx.fs;
  return {
    name: file,
    isStdin: false,
    chunks: () => {
      let inner: AsyncIterator<Uint8Array> | undefined;
      return {
        next: async () => {
          try {
            if (inner === undefined) {
              const path = resolve(ctx, file);
              const st = await fs.stat(path);
              if (st.type === 'directory') throw new VfsError('EISDIR', 'read', file);
              inner = fs.readChunks(path, { signal: ctx.signal })[Symbol.asyncIterator]();
            }
            return await inner.next();
          } catch (error) {
            if (error instanceof VfsError)
              throw new Error(`Could not open file ${file}: ${describeVfsCode(error.code)}`);
            throw error;
          }
        },
      };
    },
  };
}

function colorsFrom(ctx: CommandContext): Colors {
  const spec = ctx.env.get('JQ_COLORS');
  if (spec === undefined) return DEFAULT_COLORS;
  return parseJqColors(spec) ?? DEFAULT_COLORS;
}

/** Standard error, buffered between the program's steps (its messages are produced synchronously). */
class ErrorBuffer {
  private parts: string[] = [];

  constructor(private readonly ctx: CommandContext) {}

  add(text: string): void {
    this.parts.push(text);
  }

  async flush(): Promise<void> {
    if (this.parts.length === 0) return;
    const text = this.parts.join('');
    this.parts = [];
    await this.ctx.stderr.write(encoder.encode(text));
  }
}
