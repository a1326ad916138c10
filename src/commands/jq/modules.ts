/**
 * jq's module system: finding `import`/`include` targets on the search path, loading the whole
 * module graph over the (asynchronous) filesystem before compiling, and `modulemeta`. The search
 * follows jq 1.7.1's linker: an import without `search` metadata looks in `.` and then the library
 * path (`-L`, or `~/.jq`, `$ORIGIN/../lib/jq`, `$ORIGIN/../lib`); a relative search entry is
 * relative to the importing file's directory; `a/b` is `a/b.jq`, `a/b/jq/main.jq` or `a/b/b.jq`.
 * @module
 */
import type { Filesystem } from '../../vfs/filesystem.js';
import { VfsError } from '../../vfs/filesystem.js';
import { normalizeVfsPath } from '../../vfs/vfs-path.js';
import type { Import, Node, Program } from './ast.js';
import { JsonSyntaxError, parseJsonTexts } from './json-parse.js';
import { parseProgram } from './parser.js';
import type { JqObject, Value } from './value.js';

/** `$ORIGIN`: where the virtual shell says the jq binary lives. */
export const JQ_ORIGIN = '/usr/bin';

/** jq's library path when no `-L` is given. */
export const DEFAULT_LIBRARY_PATH: readonly string[] = ['~/.jq', '$ORIGIN/../lib/jq', '$ORIGIN/../lib'];

/** Bounds that keep a bad module graph from exhausting memory. */
const MAX_MODULES = 1000;
const MAX_MODULE_BYTES = 16 * 1024 * 1024;

/** A module graph that cannot be loaded: jq reports it as `jq: error: <message>` (a compile error). */
export class JqModuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JqModuleError';
  }
}

/** Where modules are read from. */
export interface ModuleEnvironment {
  readonly fs: Filesystem;
  /** The shell's working directory (absolute). */
  readonly cwd: string;
  /** `$HOME`, for `~`. */
  readonly home: string | undefined;
  /** The library path as `get_search_list` shows it (`-L` directories made absolute). */
  readonly libraryPath: readonly string[];
}

/** A loaded `.jq` module (or the main program) with its imports resolved. */
export interface LoadedModule {
  readonly path: string;
  readonly src: string;
  readonly program: Program;
  /** One per `program.imports`, in order. */
  readonly deps: readonly (LoadedModule | DataModule)[];
}

/** A loaded `import "x" as $name`: every JSON text of `x.json`. */
export interface DataModule {
  readonly path: string;
  readonly data: Value[];
}

/** `import` metadata plus jq's own keys, as `modulemeta` lists it. */
export function importMeta(imp: Import): JqObject {
  const meta: JqObject = new Map(imp.meta instanceof Map ? imp.meta : []);
  if (imp.alias !== null) meta.set('as', imp.alias);
  meta.set('is_data', imp.isData);
  meta.set('relpath', imp.path);
  return meta;
}

/** jq's checks on a module's relative path. */
function validateRelpath(name: string): void {
  if (name.includes('\0')) throw new JqModuleError('Module path contains a NUL byte');
  if (name.includes('\\'))
    throw new JqModuleError(`Modules must be named by relative paths using '/', not '\\' (${name})`);
  const parts = name.split('/');
  for (let i = 0; i < parts.length; i += 1) {
    if (parts[i] === '..')
      throw new JqModuleError(`Relative paths to modules may not traverse to parent directories (${name})`);
    // `a/b/b` may repeat its last component (it names `a/b/b.jq` or `a/b.jq`'s directory form).
    if (i > 0 && i < parts.length - 1 && parts[i] === parts[i - 1])
      throw new JqModuleError(`module names must not have equal consecutive components: ${name}`);
  }
}

/** The directories to try, in order, after jq's substitutions (`~`, `$ORIGIN/`, relative). */
function searchChain(env: ModuleEnvironment, search: readonly Value[], libOrigin: string | null): string[] {
  const out: string[] = [];
  for (const entry of search) {
    if (typeof entry !== 'string' || entry === '') continue;
    let p = entry;
    if (p === '~' || p.startsWith('~/')) {
      // jq cannot expand `~` without a home directory and skips the entry.
      if (env.home === undefined) continue;
      p = env.home + p.slice(1);
    }
    if (p === '.') out.push(env.cwd);
    else if (p.startsWith('$ORIGIN/')) out.push(`${JQ_ORIGIN}/${p.slice('$ORIGIN/'.length)}`);
    else if (libOrigin !== null && !p.startsWith('/')) out.push(`${libOrigin}/${p}`);
    else out.push(p);
  }
  return out;
}

async function isFile(fs: Filesystem, path: string): Promise<boolean> {
  try {
    return (await fs.stat(path)).type === 'file';
  } catch (error) {
    if (error instanceof VfsError) return false;
    throw error;
  }
}

/** The file `relpath` names on the search list, as jq's `find_lib` looks for it. */
async function findModule(
  env: ModuleEnvironment,
  relpath: string,
  search: readonly Value[],
  suffix: '.jq' | '.json',
  libOrigin: string | null,
): Promise<string> {
  validateRelpath(relpath);
  const base = relpath.slice(relpath.lastIndexOf('/') + 1);
  for (const dir of searchChain(env, search, libOrigin)) {
    for (const candidate of [
      `${dir}/${relpath}${suffix}`,
      `${dir}/${relpath}/jq/main${suffix}`,
      `${dir}/${relpath}/${base}${suffix}`,
    ]) {
      let path: string;
      try {
        path = normalizeVfsPath(candidate, env.cwd);
      } catch {
        continue;
      }
      if (await isFile(env.fs, path)) return path;
    }
  }
  throw new JqModuleError(`module not found: ${relpath}`);
}

async function readText(env: ModuleEnvironment, path: string): Promise<string> {
  try {
    const st = await env.fs.stat(path);
    if (st.size > MAX_MODULE_BYTES)
      throw new JqModuleError(`module ${path} is larger than ${MAX_MODULE_BYTES} bytes`);
    return new TextDecoder().decode(await env.fs.readFile(path));
  } catch (error) {
    if (error instanceof VfsError) throw new JqModuleError(`Could not open ${path}: ${error.code}`);
    throw error;
  }
}

/** True when a parsed module has a main expression (jq allows only definitions). */
function hasMain(body: Node): boolean {
  let n = body;
  while (n.t === 'FuncDef') n = n.rest;
  // The parser's stand-in for "no main expression" is an empty `.`.
  return !(n.t === 'Identity' && n.start === n.end);
}

/**
 * Load every module `program` needs, depth first (each file once, by path). `origin` is the
 * directory relative search entries of the main program start from (the working directory, or
 * the `-f` file's). Throws {@link JqModuleError}, or `JqCompileError` for a module that does not
 * parse.
 */
export async function loadModuleGraph(
  env: ModuleEnvironment,
  program: Program,
  src: string,
  origin: string,
): Promise<LoadedModule> {
  const done = new Map<string, LoadedModule>();
  const loading = new Set<string>();
  let count = 0;

  const resolveDeps = async (prog: Program, libOrigin: string): Promise<(LoadedModule | DataModule)[]> => {
    const deps: (LoadedModule | DataModule)[] = [];
    for (const imp of prog.imports) {
      const meta = imp.meta instanceof Map ? imp.meta.get('search') : undefined;
      const search: readonly Value[] =
        meta === undefined ? ['.', ...env.libraryPath] : Array.isArray(meta) ? meta : [meta];
      const path = await findModule(env, imp.path, search, imp.isData ? '.json' : '.jq', libOrigin);
      count += 1;
      if (count > MAX_MODULES) throw new JqModuleError(`too many module imports (over ${MAX_MODULES})`);
      if (imp.isData) {
        const text = await readText(env, path);
        try {
          deps.push({ path, data: parseJsonTexts(text) });
        } catch (error) {
          if (error instanceof JsonSyntaxError)
            throw new JqModuleError(`error loading data file ${path}: ${error.message}`);
          throw error;
        }
        continue;
      }
      if (loading.has(path)) throw new JqModuleError(`circular import of ${path}`);
      const known = done.get(path);
      if (known !== undefined) {
        deps.push(known);
        continue;
      }
      loading.add(path);
      const text = await readText(env, path);
      const parsed = parseProgram(text, path);
      if (hasMain(parsed.body))
        throw new JqModuleError(
          `library should only have function definitions, not a main expression (${path})`,
        );
      const dir = path.slice(0, path.lastIndexOf('/')) || '/';
      const mod: LoadedModule = { path, src: text, program: parsed, deps: await resolveDeps(parsed, dir) };
      loading.delete(path);
      done.set(path, mod);
      deps.push(mod);
    }
    return deps;
  };

  return { path: '<top-level>', src, program, deps: await resolveDeps(program, origin) };
}

/** The names `name/arity` a module defines at its top level, in order. */
export function topLevelDefs(body: Node): string[] {
  const out: string[] = [];
  for (let n = body; n.t === 'FuncDef'; n = n.rest) out.push(`${n.def.name}/${n.def.params.length}`);
  return out;
}

/**
 * `modulemeta`: the module's metadata with `deps` (its imports) and `defs` (jq 1.7.1), found on
 * the library path only, as jq does.
 */
export async function moduleMeta(env: ModuleEnvironment, name: string): Promise<Value> {
  const path = await findModule(env, name, env.libraryPath, '.jq', null);
  const parsed = parseProgram(await readText(env, path), path);
  const meta: JqObject = new Map(parsed.moduleMeta instanceof Map ? parsed.moduleMeta : []);
  meta.set('deps', parsed.imports.map(importMeta));
  meta.set('defs', topLevelDefs(parsed.body));
  return meta;
}
