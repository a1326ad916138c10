/**
 * Compiling a loaded module graph: each module is compiled once, in its own scope (the built-ins,
 * then its imports), and its top-level definitions are bound into the importer as `name::f`
 * (`import`) or `f` (`include`); a data import binds `$name::name` and `$name`.
 * @module
 */
import { Compiler, type FunctionTable, type GlobalFunction, FunctionTable as Table } from './compile.js';
import { type DataModule, type LoadedModule, topLevelDefs } from './modules.js';
import type { Filter } from './runtime.js';
import type { Value } from './value.js';

/**
 * Compile the main program of `graph` with its modules. `globalNames` are the `$names` the host
 * binds. Throws `JqCompileError`.
 */
export function linkProgram(
  graph: LoadedModule,
  builtins: FunctionTable,
  globalNames: ReadonlySet<string>,
): Filter {
  const compiled = new Map<LoadedModule, Map<string, GlobalFunction>>();

  const scopeOf = (mod: LoadedModule): { table: FunctionTable; constants: Map<string, Value> } => {
    let table = builtins;
    const constants = new Map<string, Value>();
    mod.program.imports.forEach((imp, i) => {
      const dep = mod.deps[i] as LoadedModule | DataModule;
      if ('data' in dep) {
        const name = imp.alias as string;
        constants.set(`${name}::${name}`, dep.data);
        constants.set(name, dep.data);
        return;
      }
      const layer = new Table(table);
      for (const [key, f] of exportsOf(dep)) layer.set(imp.alias === null ? key : `${imp.alias}::${key}`, f);
      table = layer;
    });
    return { table, constants };
  };

  const exportsOf = (mod: LoadedModule): Map<string, GlobalFunction> => {
    const known = compiled.get(mod);
    if (known !== undefined) return known;
    const { table, constants } = scopeOf(mod);
    const compiler = new Compiler({ src: mod.src, file: mod.path, globalVars: globalNames, constants });
    const result = compiler.compileTop(mod.program.body, table);
    const out = new Map<string, GlobalFunction>();
    for (const key of topLevelDefs(mod.program.body)) {
      const f = result.table.get(key);
      if (f !== undefined) out.set(key, f);
    }
    compiled.set(mod, out);
    return out;
  };

  const { table, constants } = scopeOf(graph);
  const compiler = new Compiler({ src: graph.src, file: graph.path, globalVars: globalNames, constants });
  return compiler.compileTop(graph.program.body, table).filter;
}
