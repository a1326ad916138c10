/**
 * What a command name resolves to, in bash's order: a function, a builtin, then a registered
 * command found through `PATH` (or named by its path), a script in the virtual filesystem, and
 * last the external-command gate. Nothing leaves the kernel unless the gate allows it.
 * @module
 */
import type { CommandKind } from '../../commands/command.js';
import { BUILTINS } from '../builtins/registry.js';
import type { Builtin } from '../builtins/types.js';
import { resolvePath } from '../runtime/paths.js';
import type { FunctionEntry, RegisteredCommand, Shell } from '../runtime/shell.js';
import { getVar } from '../runtime/vars.js';

export type Resolved =
  | { readonly kind: 'function'; readonly entry: FunctionEntry }
  | { readonly kind: 'builtin'; readonly builtin: Builtin }
  | { readonly kind: 'command'; readonly command: RegisteredCommand; readonly path: string }
  | { readonly kind: 'script'; readonly path: string }
  | { readonly kind: 'external'; readonly path: string }
  /** `bash` / `sh`: a new shell process of the kernel. */
  | { readonly kind: 'shell'; readonly path: string }
  | {
      readonly kind: 'error';
      readonly status: 126 | 127;
      /** Message after the prefix. */
      readonly message: string;
    };

export interface ResolveOptions {
  /** `command`: skip functions. */
  readonly noFunctions?: boolean;
  /** `builtin`: builtins only. */
  readonly builtinsOnly?: boolean;
  /** `command -p`: the default `PATH`. */
  readonly defaultPath?: boolean;
  /** Search this PATH, not the shell's (`PATH=dir cmd`), hashing nothing. */
  readonly searchPath?: string;
}

export const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';

/** Where `bash` and `sh` appear to live. */
const SHELL_PATHS = new Set(['/bin/bash', '/usr/bin/bash', '/bin/sh', '/usr/bin/sh', '/usr/local/bin/bash']);

/**
 * The first steps of {@link resolveCommand}, which need no promise: a function or a builtin
 * (`undefined` when the name is neither and the search goes on).
 */
export function resolveInShell(sh: Shell, name: string, options: ResolveOptions = {}): Resolved | undefined {
  const builtin = BUILTINS.get(name);
  // POSIX mode finds special builtins before functions.
  const specialFirst = builtin?.special === true && sh.opts.o('posix') && !sh.disabledBuiltins.has(name);
  if (!options.noFunctions && !options.builtinsOnly && !specialFirst) {
    const fn = sh.functions.get(name);
    if (fn !== undefined) return { kind: 'function', entry: fn };
  }
  if (builtin !== undefined && !sh.disabledBuiltins.has(name)) return { kind: 'builtin', builtin };
  if (options.builtinsOnly) return { kind: 'error', status: 127, message: `${name}: not a shell builtin` };
  return undefined;
}

/** Resolve `name` (the argv is for the gate's predicate). */
export async function resolveCommand(
  sh: Shell,
  name: string,
  argv: readonly string[],
  options: ResolveOptions = {},
): Promise<Resolved> {
  const inShell = resolveInShell(sh, name, options);
  if (inShell !== undefined) return inShell;
  // An empty name is never a program: it must not reach the gate as one.
  if (name === '') return { kind: 'error', status: 127, message: ': command not found' };
  if (name.includes('/')) return resolvePathName(sh, name, argv);
  const hashed = sh.hashed.get(name);
  if (hashed !== undefined && !options.defaultPath && options.searchPath === undefined) {
    const r = await resolveAt(sh, hashed);
    if (r !== undefined) return r;
    sh.hashed.delete(name);
  }
  const path = options.defaultPath ? DEFAULT_PATH : (options.searchPath ?? getVar(sh, 'PATH') ?? '');
  let plainFile: string | undefined;
  for (const dir of path.split(':')) {
    const candidate = dir === '' ? resolvePath(sh.cwd, name) : `${dir.replace(/\/+$/, '')}/${name}`;
    const r = await resolveAt(sh, candidate);
    if (r !== undefined) {
      if ((r.kind === 'command' || r.kind === 'script') && options.searchPath === undefined)
        sh.hashed.set(name, candidate);
      return r;
    }
    if (plainFile === undefined && (await isPlainFile(sh, candidate))) plainFile = candidate;
  }
  if (sh.rt.external?.allows(argv)) return { kind: 'external', path: name };
  // No executable anywhere: bash settles for the first file of that name (and cannot run it).
  if (plainFile !== undefined) {
    if (options.searchPath === undefined) sh.hashed.set(name, plainFile);
    return { kind: 'error', status: 126, message: `${plainFile}: Permission denied` };
  }
  return { kind: 'error', status: 127, message: `${name}: command not found` };
}

/** Where `name` is found through `PATH` (every place with `all`), without hashing it. */
export async function findInPath(sh: Shell, name: string, all: boolean): Promise<string[]> {
  const found: string[] = [];
  for (const dir of (getVar(sh, 'PATH') ?? '').split(':')) {
    const candidate = dir === '' ? resolvePath(sh.cwd, name) : `${dir.replace(/\/+$/, '')}/${name}`;
    if ((await resolveAt(sh, candidate)) !== undefined) {
      found.push(candidate);
      if (!all) break;
    }
  }
  if (found.length === 0 && !all) {
    for (const dir of (getVar(sh, 'PATH') ?? '').split(':')) {
      const candidate = dir === '' ? resolvePath(sh.cwd, name) : `${dir.replace(/\/+$/, '')}/${name}`;
      if (await isPlainFile(sh, candidate)) return [candidate];
    }
  }
  return found;
}

/** A regular file that is not executable (what bash falls back to when nothing in PATH runs). */
async function isPlainFile(sh: Shell, path: string): Promise<boolean> {
  try {
    return (await sh.rt.fs.stat(resolvePath(sh.cwd, path))).type === 'file';
  } catch {
    return false;
  }
}

/** A registered command or an executable script at exactly `path`. */
async function resolveAt(sh: Shell, path: string): Promise<Resolved | undefined> {
  if (SHELL_PATHS.has(path)) return { kind: 'shell', path };
  const command = sh.rt.commandAt(resolvePath('/', path));
  if (command !== undefined) return { kind: 'command', command, path };
  try {
    const abs = resolvePath(sh.cwd, path);
    const st = await sh.rt.fs.stat(abs);
    if (st.type === 'file' && st.mode & 0o111) return { kind: 'script', path: abs };
  } catch {
    // not there
  }
  return undefined;
}

async function resolvePathName(sh: Shell, name: string, argv: readonly string[]): Promise<Resolved> {
  const abs = resolvePath(sh.cwd, name);
  if (SHELL_PATHS.has(abs)) return { kind: 'shell', path: name };
  const command = sh.rt.commandAt(abs);
  if (command !== undefined) return { kind: 'command', command, path: name };
  try {
    const st = await sh.rt.fs.stat(abs);
    if (st.type === 'directory') return { kind: 'error', status: 126, message: `${name}: Is a directory` };
    if (!(st.mode & 0o111)) return { kind: 'error', status: 126, message: `${name}: Permission denied` };
    return { kind: 'script', path: abs };
  } catch {
    if (sh.rt.external?.allows(argv)) return { kind: 'external', path: name };
    // A component longer than NAME_MAX cannot exist: execve says ENAMETOOLONG (126).
    if (abs.split('/').some((part) => part.length > 255))
      return { kind: 'error', status: 126, message: `${name}: File name too long` };
    return { kind: 'error', status: 127, message: `${name}: No such file or directory` };
  }
}

/** What `name` is, for `type`, `command -v` and the dispatcher's `classify`. */
export async function classifyName(sh: Shell, name: string): Promise<CommandKind> {
  if (sh.aliases.get(name) !== undefined) return 'alias';
  if (KEYWORDS.has(name)) return 'keyword';
  const r = await resolveCommand(sh, name, [name]);
  switch (r.kind) {
    case 'function':
      return 'function';
    case 'builtin':
      return 'builtin';
    case 'command':
    case 'script':
    case 'shell':
      return 'command';
    case 'external':
      return 'external';
    default:
      return 'not-found';
  }
}

export const KEYWORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'case',
  'esac',
  'for',
  'select',
  'while',
  'until',
  'do',
  'done',
  'in',
  'function',
  'time',
  '{',
  '}',
  '!',
  '[[',
  ']]',
  'coproc',
]);
