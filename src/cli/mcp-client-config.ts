/**
 * The MCP client configuration that starts `berth mcp` from this install, with the same options.
 * @module
 */
import { resolve, sep } from 'node:path';
import type { FlagValues } from './args.js';
import { stringFlag } from './args.js';

/** How this copy of berth is installed, which decides the command a client can start it with. */
export type InstallKind = 'package' | 'checkout';

/** A stdio server entry, in the `mcpServers` shape most MCP clients read. */
export interface StdioServerEntry {
  readonly command: string;
  readonly args: readonly string[];
  /** Variables the client must set: MCP clients pass a server only a few of their own (PATH, HOME, ...). */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Variables that change where berth's contexts reach (the Docker engine, the kubeconfig, the temp
 * directory the sandbox leaves writable). An MCP client does not pass them on by itself, so when they are set here
 * they go into the configuration, and the check's server gets them the same way.
 */
export const CARRIED_ENV: readonly string[] = ['DOCKER_HOST', 'KUBECONFIG', 'TMPDIR'];

/** The carried variables that are set (and not empty) in `env`. */
export function carriedEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(CARRIED_ENV.flatMap((name) => (env[name] ? [[name, env[name]] as const] : [])));
}

/**
 * `package` when the CLI runs from an installed package (its file lies under `node_modules`), where
 * `npx berth` finds it; `checkout` otherwise (a clone built with `npm run build`), where no `berth`
 * bin is on any path a client searches and only `node <path to main.js>` works.
 */
export function installKind(mainPath: string): InstallKind {
  return mainPath.split(sep).includes('node_modules') ? 'package' : 'checkout';
}

/**
 * The context flags as `berth mcp` arguments: `--root` for the contexts that see this machine's
 * files (absolute, so the server does not depend on the directory the client starts it in), the
 * others only when given.
 */
export function contextArgs(flags: FlagValues, root: string): string[] {
  // A pod or a remote sandbox cannot see this machine's files: those contexts refuse --root.
  const kind = stringFlag(flags, 'context') ?? 'process';
  const args = kind === 'process' || kind === 'docker' || kind === 'virtual' ? ['--root', root] : [];
  for (const name of [
    'context',
    'image',
    'network',
    'template',
    'kubeconfig',
    'kube-context',
    'namespace',
    'session',
  ]) {
    const value = stringFlag(flags, name);
    // A client starts the server in a directory of its own: a relative kubeconfig would move.
    if (value !== undefined) args.push(`--${name}`, name === 'kubeconfig' ? resolve(root, value) : value);
  }
  if (flags.sandbox === true) args.push('--sandbox');
  if (flags.sandbox === false) args.push('--no-sandbox');
  if (flags.harden === false) args.push('--no-harden');
  if (flags.supervise === false) args.push('--no-supervise');
  if (flags['sandbox-session'] === true) args.push('--sandbox-session');
  if (flags['allow-commit'] === true) args.push('--allow-commit');
  const allowUrl = flags['allow-url'];
  for (const value of Array.isArray(allowUrl) ? allowUrl : allowUrl === undefined ? [] : [String(allowUrl)]) {
    args.push('--allow-url', value);
  }
  return args;
}

/** The server entry that starts `berth mcp ARGS` (with `env`, when any) from the install at `mainPath`. */
export function serverEntry(
  mainPath: string,
  mcpArgs: readonly string[],
  env: Readonly<Record<string, string>> = {},
): StdioServerEntry {
  const start =
    installKind(mainPath) === 'package'
      ? { command: 'npx', args: ['berth', 'mcp', ...mcpArgs] }
      : { command: 'node', args: [mainPath, 'mcp', ...mcpArgs] };
  return Object.keys(env).length === 0 ? start : { ...start, env };
}

/** `{ "mcpServers": { "berth": entry } }` */
export function clientConfig(entry: StdioServerEntry): { mcpServers: { berth: StdioServerEntry } } {
  return { mcpServers: { berth: entry } };
}
