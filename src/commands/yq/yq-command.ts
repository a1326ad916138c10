/**
 * `yq` for the virtual shell: Go yq v4's command line (`yq [eval] [flags] EXPRESSION [FILE...]`)
 * over berth's jq engine, reading YAML (or JSON) through `yaml-values.ts`. The expression language
 * is jq's: yq v4 expressions that are also jq (paths, `select`, `|=`, `=`, `+`, `*` deep merge,
 * `keys`, `length`, `to_entries`, `with_entries`, `del`, `..`, ...) behave as in yq; each document
 * of each file is evaluated in turn and the results of different documents are separated by
 * `---` (`-N` drops them). The supported subset is listed in docs/commands.md.
 * @module
 */
import { closestName } from '../../contract/validate-options.js';
import { readAll } from '../byte-io.js';
import { decodeBytes, encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { getopt, type OptionSpec } from '../getopt.js';
import { compileJq, type InputFeed, type OutputSink, runJq } from '../jq/engine.js';
import { JqCompileError } from '../jq/errors.js';
import { parseJsonText } from '../jq/json-parse.js';
import { printValue } from '../jq/json-print.js';
import type { Value } from '../jq/value.js';
import { runCommand } from '../text/cli.js';
import { errorText, isInputError, openInput, operandPath } from '../text/input.js';
import { TextOutput } from '../text/output.js';
import { parseYamlDocuments, renderYaml, YamlInputError } from './yaml-values.js';

/** Most bytes of one YAML input held in memory (a document is parsed whole). */
const MAX_INPUT_BYTES = 64 * 1024 * 1024;

const OPTIONS: readonly OptionSpec[] = [
  { short: 'i', long: 'inplace' },
  { short: 'o', long: 'output-format', argument: 'required' },
  { short: 'p', long: 'input-format', argument: 'required' },
  { short: 'P', long: 'prettyPrint' },
  { short: 'n', long: 'null-input' },
  { short: 'I', long: 'indent', argument: 'required' },
  { short: 'r', long: 'unwrapScalar', argument: 'optional' },
  { short: 'e', long: 'exit-status' },
  { short: 'N', long: 'no-doc' },
  { short: 'M', long: 'no-colors' },
  { short: 'C', long: 'colors' },
  { short: 'h', long: 'help' },
  { short: 'V', long: 'version' },
];

const FORMATS: Readonly<Record<string, 'yaml' | 'json'>> = {
  yaml: 'yaml',
  y: 'yaml',
  json: 'json',
  j: 'json',
};

export const YQ_HELP = `yq is a portable command-line YAML processor (berth's in-process subset of Go yq v4).

Usage:
  yq [eval] [flags] EXPRESSION [FILE...]

With no FILE, or when FILE is -, read standard input. A single operand that names an existing
file and no expression evaluates '.' over it. The expression language is jq's (berth's jq
engine): paths, pipes, select, =, |=, +, * (deep merge), keys, length, to_entries, del, ...
Each document of each file is evaluated in turn; results of different documents are
separated by '---'.

Flags:
  -e, --exit-status             set exit status to 1 if the last output is null or false,
                                or if there is no output
  -h, --help                    help for yq
  -I, --indent int              sets indent level for output (default 2)
  -i, --inplace                 update the file in place of first file given
  -p, --input-format string     [yaml|y|json|j] parse format for input (default "yaml")
  -M, --no-colors               force print with no colors
  -N, --no-doc                  don't print document separators (---)
  -n, --null-input              don't read input, simply evaluate the expression given
  -o, --output-format string    [yaml|y|json|j] output format type (default "yaml")
  -P, --prettyPrint             pretty print (output is always block style here)
  -r, --unwrapScalar            unwrap scalar, print the value with no quotes
                                (default true for yaml; -r=false to keep quotes)
  -V, --version                 print the version and exit

Not supported: eval-all, the other formats (xml, props, csv, tsv, toml, lua), yq-only
operators (ireduce, documentIndex, fileIndex, style, tag, anchor, comment operators, env(),
strenv()), and keeping comments, styles and anchors on output.
`;

const VERSION = "yq (berth) version v4-subset: berth's in-process yq over its jq engine\n";

class YqExit extends Error {
  constructor(
    readonly text: string,
    readonly status = 1,
  ) {
    super(text);
  }
}

interface YqOptions {
  inplace: boolean;
  output: 'yaml' | 'json';
  input: 'yaml' | 'json';
  nullInput: boolean;
  indent: number;
  unwrap: boolean | undefined;
  exitStatus: boolean;
  noDoc: boolean;
  expression: string | undefined;
  files: string[];
}

function format(value: string, flag: string): 'yaml' | 'json' {
  const v = value.startsWith('=') ? value.slice(1) : value;
  const f = FORMATS[v];
  if (f === undefined)
    throw new YqExit(
      `Error: unknown ${flag} format '${v}': berth's yq reads and writes yaml (y) and json (j)\n`,
    );
  return f;
}

async function parseArgs(ctx: CommandContext): Promise<YqOptions | number> {
  let args = ctx.argv.slice(1);
  if (args[0] === 'eval' || args[0] === 'e') args = args.slice(1);
  else if (args[0] === 'eval-all' || args[0] === 'ea')
    throw new YqExit(
      "Error: eval-all is not supported by berth's yq: use eval (each document in turn), or jq -s over -o json output\n",
    );
  const parsed = getopt(args, { options: OPTIONS });
  if (!parsed.ok) {
    const m = /'(--?[^'=]+)/.exec(parsed.message);
    const given = m?.[1] ?? '';
    const longs = OPTIONS.map((o) => `--${o.long}`);
    const guess = given.startsWith('--') ? closestName(given, longs) : undefined;
    throw new YqExit(
      `Error: ${parsed.message}${guess === undefined ? '' : ` (did you mean ${guess}?)`}\nRun 'yq --help' for usage.\n`,
    );
  }
  const o: YqOptions = {
    inplace: false,
    output: 'yaml',
    input: 'yaml',
    nullInput: false,
    indent: 2,
    unwrap: undefined,
    exitStatus: false,
    noDoc: false,
    expression: undefined,
    files: [],
  };
  for (const opt of parsed.options) {
    switch (opt.key) {
      case 'help':
        await ctx.stdout.write(encodeText(YQ_HELP));
        return 0;
      case 'version':
        await ctx.stdout.write(encodeText(VERSION));
        return 0;
      case 'inplace':
        o.inplace = true;
        break;
      case 'output-format':
        o.output = format(opt.value ?? '', 'output');
        break;
      case 'input-format':
        o.input = format(opt.value ?? '', 'input');
        break;
      case 'null-input':
        o.nullInput = true;
        break;
      case 'indent': {
        const v = (opt.value ?? '').replace(/^=/, '');
        if (!/^\d{1,3}$/.test(v))
          throw new YqExit(`Error: invalid argument "${v}" for "-I, --indent" flag\n`);
        o.indent = Number(v);
        break;
      }
      case 'unwrapScalar': {
        const v = (opt.value ?? 'true').replace(/^=/, '');
        if (v !== 'true' && v !== 'false')
          throw new YqExit(`Error: invalid argument "${v}" for "-r, --unwrapScalar" flag\n`);
        o.unwrap = v === 'true';
        break;
      }
      case 'exit-status':
        o.exitStatus = true;
        break;
      case 'no-doc':
        o.noDoc = true;
        break;
      case 'colors':
        throw new YqExit("Error: berth's yq prints no colours (-C is not supported)\n");
    }
  }
  const operands = [...parsed.operands];
  if (operands.length === 1 && !o.nullInput && (await isFile(ctx, operands[0] as string))) {
    o.expression = '.';
    o.files = operands;
  } else {
    o.expression = operands.shift();
    o.files = operands;
  }
  if (o.inplace && o.files.length === 0)
    throw new YqExit(
      'Error: write in place flag only applicable when giving an expression and at least one file\n',
    );
  return o;
}

async function isFile(ctx: CommandContext, operand: string): Promise<boolean> {
  if (operand === '-') return false;
  try {
    return (await ctx.fs.stat(operandPath(ctx, operand))).type === 'file';
  } catch {
    return false;
  }
}

/** The documents of one operand, as values. */
async function readDocuments(
  ctx: CommandContext,
  operand: string,
  input: 'yaml' | 'json',
): Promise<{ values: Value[]; lossy: boolean }> {
  const opened = await openInput(ctx, operand);
  if (!opened.ok) throw new YqExit(`Error: open ${operand}: ${errorText(opened.error).toLowerCase()}\n`);
  let bytes: Uint8Array;
  try {
    bytes = await readAll(opened.input.reader, MAX_INPUT_BYTES);
  } catch (error) {
    if (isInputError(error)) throw new YqExit(`Error: read ${operand}: ${errorText(error).toLowerCase()}\n`);
    throw error;
  } finally {
    await opened.input.close();
  }
  const text = decodeBytes(bytes);
  try {
    if (input === 'json') return { values: text.trim() === '' ? [] : [parseJsonText(text)], lossy: false };
    return parseYamlDocuments(text);
  } catch (error) {
    if (error instanceof YamlInputError) throw new YqExit(`Error: bad file '${operand}': ${error.message}\n`);
    if (error instanceof Error && input === 'json')
      throw new YqExit(`Error: bad file '${operand}': ${error.message}\n`);
    throw error;
  }
}

function render(v: Value, o: YqOptions): string {
  if (o.output === 'json') {
    if (o.unwrap === true && typeof v === 'string') return `${v}\n`;
    return `${printValue(v, { indent: o.indent, tab: false, sortKeys: false, ascii: false, colors: null })}\n`;
  }
  return renderYaml(v, o.indent, o.unwrap !== false);
}

async function yq(ctx: CommandContext): Promise<number> {
  const o = await parseArgs(ctx);
  if (typeof o === 'number') return o;
  const expression = o.expression ?? '.';
  let program: ReturnType<typeof compileJq>;
  try {
    program = compileJq(expression, new Set(['ENV']));
  } catch (error) {
    if (error instanceof JqCompileError)
      throw new YqExit(`Error: ${error.message.replace(/^jq: error: /, '')}\n`);
    throw error;
  }
  // Documents in order: each (source, values) pair; -n evaluates once over null.
  const sources: { name: string; values: Value[] }[] = [];
  if (o.nullInput) sources.push({ name: '', values: [null] });
  else
    for (const file of o.files.length === 0 ? ['-'] : o.files) {
      const docs = await readDocuments(ctx, file, o.input);
      if (o.inplace && file === o.files[0] && docs.lossy)
        throw new YqExit(
          `Error: ${file} holds comments or anchors, which berth's yq does not keep: -i would drop them; write the output elsewhere instead\n`,
        );
      sources.push({ name: file, values: docs.values });
    }
  const documents = sources.flatMap((s, sourceIndex) => s.values.map((value) => ({ value, sourceIndex })));
  let next = 0;
  let current = -1;
  const feed: InputFeed = {
    take: () => {
      if (next >= documents.length) return undefined;
      current = next;
      return { value: (documents[next++] as { value: Value }).value };
    },
    ended: () => next >= documents.length,
    fill: async () => {},
    filename: () => (current < 0 ? null : (sources[documents[current]?.sourceIndex ?? 0]?.name ?? null)),
    lineNumber: () => 0,
    position: () => '<unknown>',
  };
  const out = new TextOutput(ctx.stdout);
  const inplaceText: string[] = [];
  let lastDocument = -1;
  let lastValue: Value | undefined;
  const sink: OutputSink = {
    write: async (v) => {
      const doc = o.nullInput ? 0 : current;
      let text = '';
      if (lastDocument !== -1 && doc !== lastDocument && !o.noDoc && o.output === 'yaml') text += '---\n';
      lastDocument = doc;
      lastValue = v;
      text += render(v, o);
      const inplace = o.inplace && documents[doc]?.sourceIndex === 0;
      if (inplace) inplaceText.push(text);
      else if (!o.inplace) {
        out.put(encodeText(text));
        if (out.full) await out.flush();
      }
    },
    flush: () => out.flush(),
  };
  let errors = '';
  const result = await runJq(program, feed, sink, {
    nullInput: o.nullInput,
    exitStatus: false,
    globals: new Map([['ENV', new Map(Object.entries(ctx.env).map(([k, v]) => [k, v as Value]))]]),
    env: new Map(Object.entries(ctx.env)),
    cooperate: () => ctx.cooperate(),
    signal: ctx.signal,
    stderr: (t) => {
      errors += t;
    },
  });
  await out.flush();
  if (result.aborted) return 130;
  if (errors !== '') {
    // jq's runtime lines, in yq's form.
    const text = errors
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => `Error: ${l.replace(/^jq: error \(at [^)]*\): /, '')}\n`)
      .join('');
    await ctx.stderr.write(encodeText(text));
  }
  if (result.status !== 0) return 1;
  if (o.inplace) {
    const path = operandPath(ctx, o.files[0] as string);
    await ctx.fs.writeFile(path, encodeText(inplaceText.join('')));
  }
  if (o.exitStatus && (lastValue === undefined || lastValue === null || lastValue === false)) return 1;
  return 0;
}

export const yqCommand: CommandSpec = {
  name: 'yq',
  summary: 'YAML processor (the Go yq v4 command line over the jq language)',
  help: YQ_HELP,
  run: (ctx) =>
    runCommand(ctx, async () => {
      try {
        return await yq(ctx);
      } catch (error) {
        if (error instanceof YqExit) {
          await ctx.stderr.write(encodeText(error.text));
          return error.status;
        }
        throw error;
      }
    }),
};
