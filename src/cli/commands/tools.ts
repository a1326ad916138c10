/**
 * `berth tools list` and `berth tools call NAME 'JSON'`: the agent tools from the command line,
 * printed as the model would see them.
 * @module
 */
import { InvalidArgumentError } from '../../errors/index.js';
import { createReviewTools, createTools } from '../../tools/index.js';
import type { BerthTool, ToolResult } from '../../tools/types.js';
import { type CommandSpec, formatHelp, parseArgs } from '../args.js';
import { CONTEXT_DETAILS, CONTEXT_FLAGS, openContext } from '../context-setup.js';
import type { CliIo } from '../io.js';
import { readAllBounded } from '../read-stdin.js';
import { onTerminationSignal } from '../termination-signals.js';

export const toolsSpec: CommandSpec = {
  name: 'berth tools',
  summary: 'list the agent tools or call one',
  usage: ['list [options]', 'call NAME [JSON] [options]'],
  positionals: 'some',
  flags: {},
  details: 'Run `berth tools list --help` or `berth tools call --help` for their options.',
};

export const toolsListSpec: CommandSpec = {
  name: 'berth tools list',
  summary: 'list the agent tools with their descriptions',
  usage: ['[options]'],
  positionals: 'none',
  flags: {
    ...CONTEXT_FLAGS,
    json: { type: 'boolean', description: 'print names, descriptions and input schemas as JSON' },
  },
  details: CONTEXT_DETAILS,
};

export const toolsCallSpec: CommandSpec = {
  name: 'berth tools call',
  summary: 'call one tool as an agent would and print what the model sees',
  usage: ["NAME ['JSON-ARGUMENTS'] [options]", 'NAME - [options]   (arguments read from stdin)'],
  positionals: 'some',
  flags: { ...CONTEXT_FLAGS, json: { type: 'boolean', description: 'print the raw tool result as JSON' } },
  details: `Examples:
  berth tools call bash '{"command":"ls -la"}'
  berth tools call read_file '{"path":"package.json","limit":20}'
  berth tools call grep '{"pattern":"TODO","glob":"*.ts"}'

Exit status: 0 when the call succeeded, 1 when the tool answered with an error (isError),
2 for a usage error (unknown tool, JSON that does not parse).
Background tasks a call starts end when the command exits.

${CONTEXT_DETAILS}`,
};

/** `berth tools SUB ...` */
export async function toolsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'list') return toolsList(rest, io);
  if (sub === 'call') return toolsCall(rest, io);
  if (sub === undefined || sub === '--help' || sub === '-h') {
    io.stdout.write(formatHelp(toolsSpec));
    return sub === undefined ? 2 : 0;
  }
  throw new InvalidArgumentError(
    JSON.stringify(sub),
    'is not a tools subcommand; use `berth tools list` or `berth tools call`',
  );
}

async function toolsList(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(argv, toolsListSpec);
  if (parsed.help) {
    io.stdout.write(formatHelp(toolsListSpec));
    return 0;
  }
  const open = await openContext(parsed.flags, io);
  try {
    const options = { context: open.context, handle: open.handle };
    const tools = [...createTools(options), ...createReviewTools(options)];
    if (parsed.flags.json) {
      const list = tools.map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema,
      }));
      io.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
      return 0;
    }
    for (const tool of tools) {
      const summary = firstSentence(tool.description);
      io.stdout.write(`${io.out.bold(tool.name.padEnd(12))} ${summary}\n`);
      const props = Object.keys(tool.inputSchema.properties);
      const required = new Set(tool.inputSchema.required ?? []);
      io.stdout.write(
        `${''.padEnd(12)} ${io.out.dim(`args: ${props.map((p) => (required.has(p) ? p : `${p}?`)).join(', ') || '(none)'}`)}\n`,
      );
    }
    return 0;
  } finally {
    await open.dispose();
  }
}

async function toolsCall(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(argv, toolsCallSpec);
  if (parsed.help) {
    io.stdout.write(formatHelp(toolsCallSpec));
    return 0;
  }
  const [name, json, ...extra] = parsed.positionals;
  if (name === undefined)
    throw new InvalidArgumentError('NAME', 'is missing; run `berth tools list` to see the tools');
  if (extra.length > 0) {
    throw new InvalidArgumentError(
      JSON.stringify(extra[0]),
      'unexpected argument; pass the tool arguments as ONE JSON word, quoted for your shell',
    );
  }
  const args = parseToolArguments(
    json === '-' ? (await readAllBounded(io.stdin, 16 * 1024 * 1024, 'JSON')).toString('utf8') : json,
  );
  const open = await openContext(parsed.flags, io);
  try {
    const options = { context: open.context, handle: open.handle };
    const tools = [...createTools(options), ...createReviewTools(options)];
    const tool = tools.find((t: BerthTool) => t.name === name);
    if (tool === undefined) {
      throw new InvalidArgumentError(
        'NAME',
        `no tool named ${JSON.stringify(name)}; the tools are: ${tools.map((t) => t.name).join(', ')}`,
      );
    }
    const controller = new AbortController();
    const stopListening = onTerminationSignal(() => controller.abort());
    let result: ToolResult;
    try {
      result = await tool.execute(args, { signal: controller.signal });
    } finally {
      stopListening();
    }
    if (parsed.flags.json) io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else io.stdout.write(renderResult(result));
    return result.isError ? 1 : 0;
  } finally {
    await open.dispose();
  }
}

/** The arguments as JSON; absent means `{}`. */
export function parseToolArguments(json: string | undefined): unknown {
  if (json === undefined) return {};
  try {
    return JSON.parse(json);
  } catch (error) {
    throw new InvalidArgumentError(
      'JSON',
      `${JSON.stringify(json.length > 80 ? `${json.slice(0, 80)}…` : json)} is not valid JSON (${(error as Error).message}); quote it for your shell, e.g. '{"command":"ls"}'`,
    );
  }
}

/** What the model reads: each text block as it is; an image as a one-line placeholder. */
export function renderResult(result: ToolResult): string {
  const parts = result.content.map((block) =>
    block.type === 'text'
      ? block.text
      : `[image ${block.mimeType}, ${Buffer.from(block.data, 'base64').length} bytes]`,
  );
  const text = parts.join('\n');
  return text.endsWith('\n') || text === '' ? text : `${text}\n`;
}

/** The description's first sentence, for a one-line listing (`--json` has the whole text). */
function firstSentence(text: string): string {
  const end = text.search(/\.(\s|$)/);
  const sentence = end === -1 ? text : text.slice(0, end + 1);
  return sentence.length > 100 ? `${sentence.slice(0, 99)}…` : sentence;
}
