/**
 * MCP tools as commands: each tool of a connected MCP server becomes a command of the kernel.
 * Its arguments come as flags (`--path x --limit=3 --recursive`, typed by the tool's input schema)
 * or as one JSON object on stdin (`echo '{"path":"x"}' | tool`); it prints the text of the
 * result, attaches the structured result to its stdout for a data-aware consumer (and prints it
 * as JSON when there is no text), and fails with status 1 when the tool reports an error. The
 * call holds the script's watchdog patiently (a slow server is legitimate work) within a budget.
 * @module
 */
import { decodeBytes, encodeText } from '../commands/byte-text.js';
import type { CommandContext } from '../commands/command.js';
import { InvalidArgumentError } from '../errors/index.js';

/** What the kernel needs of an MCP client (the SDK's `Client` has it). */
export interface McpClientLike {
  listTools(params?: unknown, options?: unknown): Promise<{ readonly tools: readonly McpToolInfo[] }>;
  callTool(
    params: { readonly name: string; readonly arguments?: Record<string, unknown> },
    resultSchema?: unknown,
    options?: { readonly signal?: AbortSignal; readonly timeout?: number },
  ): Promise<unknown>;
}

export interface McpToolInfo {
  readonly name: string;
  readonly description?: string | undefined;
  /** A JSON Schema of the arguments (`properties`, `required`, each property's `type`). */
  readonly inputSchema?: unknown;
}

interface McpSchema {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, McpSchema>>;
  readonly required?: readonly string[];
  readonly description?: string;
  readonly items?: McpSchema;
}

export interface MountMcpOptions {
  /** Prefix of each command's name (default none: the tool's own name). */
  readonly prefix?: string | undefined;
  /** How long one tool call may hold the script's timeout (default 60 s). */
  readonly holdMs?: number | undefined;
}

/** A command mounted from a tool: its name and its handler. */
export interface McpCommand {
  readonly name: string;
  readonly tool: McpToolInfo;
  readonly help: string;
  run(ctx: CommandContext): Promise<number>;
}

/** List the server's tools and make a command of each. */
export async function mcpCommands(
  client: McpClientLike,
  options: MountMcpOptions = {},
): Promise<McpCommand[]> {
  if (typeof client?.listTools !== 'function' || typeof client.callTool !== 'function')
    throw new InvalidArgumentError('client', 'must be a connected MCP client (with listTools and callTool)');
  const prefix = options.prefix ?? '';
  if (typeof prefix !== 'string' || /[\s/$`'"\\|&;()<>]/.test(prefix))
    throw new InvalidArgumentError(
      'options.prefix',
      `must be text usable in a command name, got ${JSON.stringify(prefix)}`,
    );
  const holdMs = options.holdMs ?? 60_000;
  const { tools } = await client.listTools();
  return tools.map((tool) => {
    const name = `${prefix}${tool.name.replace(/[^A-Za-z0-9_.:@%+-]/g, '_')}`;
    const help = toolHelp(name, tool);
    return { name, tool, help, run: (ctx) => runTool(client, tool, name, help, holdMs, ctx) };
  });
}

async function runTool(
  client: McpClientLike,
  tool: McpToolInfo,
  name: string,
  help: string,
  holdMs: number,
  ctx: CommandContext,
): Promise<number> {
  const argv = ctx.argv.slice(1);
  if (argv.includes('--help')) {
    await ctx.stdout.write(encodeText(help));
    return 0;
  }
  let args: Record<string, unknown>;
  try {
    args =
      argv.length === 0 || (argv.length === 1 && argv[0] === '-')
        ? await stdinArguments(ctx)
        : flagArguments(argv, tool.inputSchema as McpSchema | undefined);
  } catch (error) {
    await ctx.stderr.write(encodeText(`${name}: ${(error as Error).message}\nTry '${name} --help'.\n`));
    return 2;
  }
  const hold = ctx.hold?.(holdMs, `MCP tool ${tool.name}`);
  let result: McpResult;
  try {
    result = (await client.callTool({ name: tool.name, arguments: args }, undefined, {
      signal: ctx.signal,
      timeout: holdMs,
    })) as McpResult;
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    await ctx.stderr.write(encodeText(`${name}: ${(error as Error).message ?? String(error)}\n`));
    return 1;
  } finally {
    hold?.release();
  }
  const text = (result.content ?? [])
    .map((c) => (c.type === 'text' ? (c.text ?? '') : c.type === 'resource' ? (c.resource?.text ?? '') : ''))
    .filter((t) => t !== '')
    .join('\n');
  if (result.isError === true) {
    await ctx.stderr.write(encodeText(`${name}: ${text === '' ? 'the tool reported an error' : text}\n`));
    return 1;
  }
  if (result.structuredContent !== undefined) ctx.stdout.attachData(result.structuredContent);
  const shown =
    text !== ''
      ? text
      : result.structuredContent !== undefined
        ? JSON.stringify(result.structuredContent, null, 2)
        : '';
  if (shown !== '') await ctx.stdout.write(encodeText(shown.endsWith('\n') ? shown : `${shown}\n`));
  return 0;
}

interface McpResult {
  readonly content?: readonly {
    readonly type: string;
    readonly text?: string;
    readonly resource?: { readonly text?: string };
  }[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
}

async function stdinArguments(ctx: CommandContext): Promise<Record<string, unknown>> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const chunk = await ctx.stdin.read();
    if (chunk === null) break;
    size += chunk.length;
    if (size > 16 * 1024 * 1024) throw new Error('arguments on stdin: more than 16 MiB');
    parts.push(chunk);
  }
  const text = decodeBytes(Buffer.concat(parts)).trim();
  if (text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('arguments on stdin must be one JSON object');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Error('arguments on stdin must be one JSON object');
  return value as Record<string, unknown>;
}

/** `--key value`, `--key=value`, `--flag`, `--no-flag`; values typed by the schema. */
function flagArguments(argv: readonly string[], schema: McpSchema | undefined): Record<string, unknown> {
  const props = schema?.properties ?? {};
  const out: Record<string, unknown> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i] as string;
    if (!a.startsWith('--') || a === '--')
      throw new Error(`unexpected argument '${a}' (give arguments as --name value)`);
    const eq = a.indexOf('=');
    let key = eq === -1 ? a.slice(2) : a.slice(2, eq);
    let raw: string | undefined = eq === -1 ? undefined : a.slice(eq + 1);
    let prop = props[key];
    if (
      prop === undefined &&
      raw === undefined &&
      key.startsWith('no-') &&
      isType(props[key.slice(3)], 'boolean')
    ) {
      out[key.slice(3)] = false;
      continue;
    }
    if (prop === undefined) {
      const dashed = Object.keys(props).find((p) => p.replace(/_/g, '-') === key);
      if (dashed !== undefined) {
        key = dashed;
        prop = props[key];
      }
    }
    if (prop === undefined && Object.keys(props).length > 0)
      throw new Error(
        `unknown option '--${key}' (options: ${Object.keys(props)
          .map((p) => `--${p}`)
          .join(', ')})`,
      );
    if (raw === undefined) {
      const next = argv[i + 1];
      if (isType(prop, 'boolean') || next === undefined || next.startsWith('--')) {
        out[key] = true;
        continue;
      }
      raw = next;
      i += 1;
    }
    const value = typed(raw, prop, key);
    if (isType(prop, 'array') && !raw.trimStart().startsWith('[')) {
      const list = (out[key] as unknown[] | undefined) ?? [];
      list.push(typed(raw, prop?.items, key));
      out[key] = list;
    } else out[key] = value;
  }
  for (const r of schema?.required ?? []) if (!(r in out)) throw new Error(`missing option '--${r}'`);
  return out;
}

function isType(schema: McpSchema | undefined, type: string): boolean {
  const t = schema?.type;
  return Array.isArray(t) ? t.includes(type) : t === type;
}

function typed(raw: string, schema: McpSchema | undefined, key: string): unknown {
  if (isType(schema, 'number') || isType(schema, 'integer')) {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n)) throw new Error(`--${key}: not a number: '${raw}'`);
    return n;
  }
  if (isType(schema, 'boolean')) {
    if (raw === 'true') return true;
    if (raw === 'false') return false;
    throw new Error(`--${key}: not true or false: '${raw}'`);
  }
  if (isType(schema, 'object') || (isType(schema, 'array') && raw.trimStart().startsWith('['))) {
    try {
      return JSON.parse(raw);
    } catch {
      throw new Error(`--${key}: not JSON: '${raw}'`);
    }
  }
  return raw;
}

function toolHelp(name: string, tool: McpToolInfo): string {
  const lines = [`Usage: ${name} [--option value]...   or   echo '{...}' | ${name}`];
  if (tool.description) lines.push('', tool.description.trim());
  const schema = tool.inputSchema as McpSchema | undefined;
  const props = schema?.properties ?? {};
  const required = new Set(schema?.required ?? []);
  const names = Object.keys(props);
  if (names.length > 0) {
    lines.push('', 'Options:');
    for (const p of names) {
      const s = props[p] as McpSchema;
      const type = Array.isArray(s.type) ? s.type.join('|') : (s.type ?? 'value');
      lines.push(
        `  --${p} ${type}${required.has(p) ? ' (required)' : ''}${s.description ? `  ${s.description}` : ''}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
