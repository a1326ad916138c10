/**
 * The built-in function table: every native, then the jq-language prelude compiled over them.
 * Built once per process and shared by every program (compiled built-ins hold no per-run state;
 * they reach the running program through `rt()`).
 * @module
 */
import { Compiler, FunctionTable } from '../compile.js';
import type { NativeDef } from '../native.js';
import { parseProgram } from '../parser.js';
import { CONTROL_BUILTINS } from './control.js';
import { DATE_BUILTINS } from './dates.js';
import { fn } from './define.js';
import { IO_BUILTINS } from './io.js';
import { MATH_BUILTINS } from './math.js';
import { PATH_BUILTINS } from './paths.js';
import { PRELUDE } from './prelude.js';
import { REGEX_BUILTINS } from './regex.js';
import { VALUE_BUILTINS } from './values.js';

let table: FunctionTable | undefined;
let names: string[] | undefined;

/** The table every program is compiled against. */
export function builtinTable(): FunctionTable {
  if (table !== undefined) return table;
  const natives = new FunctionTable(null);
  const all: NativeDef[] = [
    ...CONTROL_BUILTINS,
    ...PATH_BUILTINS,
    ...VALUE_BUILTINS,
    ...MATH_BUILTINS,
    ...DATE_BUILTINS,
    ...REGEX_BUILTINS,
    ...IO_BUILTINS,
    fn('builtins', 0, () => builtinNames(), { ignoresInput: true }),
  ];
  for (const def of all) natives.set(`${def.name}/${def.arity}`, { kind: 'native', def });
  const program = parseProgram(PRELUDE, '<builtin>');
  const compiler = new Compiler({ src: PRELUDE, file: '<builtin>', globalVars: new Set(['ENV']) });
  table = compiler.compileTop(program.body, natives).table;
  return table;
}

/** `builtins`: every public `name/arity` (internal helpers start with `_`). */
function builtinNames(): string[] {
  if (names === undefined)
    names = builtinTable()
      .keys()
      .filter((k) => !k.startsWith('_'))
      .sort();
  return names;
}
