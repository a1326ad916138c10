/**
 * A simple command, in bash's order: expand the words, perform the redirections, expand and
 * perform the assignments (for the shell, or for the command's environment only), trace it under
 * `set -x`, then run the function, builtin, registered command, script or external command.
 * @module
 */

import type { DeclArg } from '../builtins/types.js';
import { expandAssignment, expandToString, expandWords } from '../expand/expand.js';
import { withSingleQuotes } from '../expand/indexed-subscript.js';
import { singleQuote } from '../expand/quote.js';
import { expandSyncParts, isSyncParts } from '../expand/sync-word.js';
import { ExitControl } from '../runtime/control.js';
import { discard, ShellError } from '../runtime/errors.js';
import type { Shell } from '../runtime/shell.js';
import {
  type ArrayItem,
  type AssignOptions,
  assignArray,
  lookup,
  setElement,
  setVar,
} from '../runtime/vars.js';
import { AssocArray } from '../state/arrays.js';
import { ATTR_ASSOC, ATTR_EXPORT, ATTR_READONLY } from '../state/variables.js';
import type { Assignment, SimpleCommand, Word } from '../syntax/ast.js';
import { Parser } from '../syntax/parser.js';
import { parseWord } from '../syntax/word-parser.js';
import { checkpoint, flushWarnings } from './checkpoint.js';
import { runResolved } from './dispatch.js';
import { resolveCommand, resolveInShell } from './lookup.js';
import { shellMessage } from './messages.js';
import { applyRedirects } from './redirect.js';
import { afterLeaf } from './run.js';
import { closeProcessSubstitutions } from './substitution.js';
import { runDebugTrap } from './trap.js';
import { traceAssignment, traceCommand, traceQuote, traceText } from './xtrace.js';

const DECLARATION = new Set(['declare', 'typeset', 'local', 'export', 'readonly']);

/** `PIPESTATUS` after a command that succeeded (shared: it is never changed in place). */
const ZERO_STATUS: readonly number[] = Object.freeze([0]);

/**
 * Run a simple command. Plain assignments ({@link plainAssignments}) between two yields of the
 * event loop are done without a promise: the status comes back as a number.
 */
export function runSimple(sh: Shell, cmd: SimpleCommand): number | Promise<number> {
  sh.line = cmd.line;
  const step = checkpoint(sh);
  if (step !== undefined) return runSimpleAsync(sh, cmd, step);
  sh.rt.budget.command();
  let status: number | undefined;
  try {
    status = plainAssignments(sh, cmd);
  } catch (error) {
    return plainFailed(sh, cmd, error);
  }
  if (status === undefined) return runSimpleAsync(sh, cmd, undefined, true);
  if (sh.warnings.length > 0) return flushThenFinish(sh, cmd, status);
  sh.status = status;
  sh.pipeStatus = ZERO_STATUS;
  return status;
}

/** {@link runSimple}'s tail when plain assignments threw (what its general path does then). */
async function plainFailed(sh: Shell, cmd: SimpleCommand, error: unknown): Promise<number> {
  let status: number;
  try {
    if (error instanceof ShellError && error.effect === 'status') {
      await shellMessage(sh, error.message);
      status = error.status;
    } else throw error;
  } finally {
    if (sh.warnings.length > 0) await flushWarnings(sh);
  }
  return finishSimple(sh, cmd, status);
}

async function flushThenFinish(sh: Shell, cmd: SimpleCommand, status: number): Promise<number> {
  await flushWarnings(sh);
  return finishSimple(sh, cmd, status);
}

async function finishSimple(sh: Shell, cmd: SimpleCommand, status: number): Promise<number> {
  sh.status = status;
  sh.pipeStatus = status === 0 ? ZERO_STATUS : [status];
  if (status !== 0) await afterLeaf(sh, status, cmd);
  return status;
}

/** The general path: `step` is the checkpoint's wait; `counted` once the budget was charged. */
async function runSimpleAsync(
  sh: Shell,
  cmd: SimpleCommand,
  step: Promise<void> | undefined,
  counted = false,
): Promise<number> {
  if (step !== undefined) await step;
  if (!counted) sh.rt.budget.command();
  const mark = sh.procSubs.length;
  let status: number;
  try {
    status = (counted ? undefined : plainAssignments(sh, cmd)) ?? (await execute(sh, cmd));
  } catch (error) {
    if (error instanceof ShellError && error.effect === 'status') {
      await shellMessage(sh, error.message);
      status = error.status;
    } else throw error;
  } finally {
    closeProcessSubstitutions(sh, mark);
    if (sh.warnings.length > 0) await flushWarnings(sh);
  }
  sh.status = status;
  sh.pipeStatus = status === 0 ? ZERO_STATUS : [status];
  if (status !== 0) await afterLeaf(sh, status, cmd);
  return status;
}

/** Commands that are only `name=value` assignments of words {@link isSyncParts} accepts. */
const plainShape = new WeakMap<SimpleCommand, boolean>();

const ASSIGN: AssignOptions = Object.freeze({ append: false });
const APPEND: AssignOptions = Object.freeze({ append: true });

/**
 * The hot path of {@link execute} for `x=$((x + i))`: assignments whose values expand without
 * running anything, no redirections, no `set -x`, no DEBUG trap. Does exactly what the general
 * path does for them, without a promise; `undefined` when the command is not of that shape.
 */
function plainAssignments(sh: Shell, cmd: SimpleCommand): number | undefined {
  if (cmd.words.length !== 0 || cmd.redirects.length !== 0 || sh.opts.xtrace || sh.traps.has('DEBUG'))
    return undefined;
  let plain = plainShape.get(cmd);
  if (plain === undefined) {
    plain = cmd.assignments.every(
      (a) =>
        a.array === undefined &&
        a.index === undefined &&
        (a.value === undefined || isSyncParts(a.value.parts)),
    );
    plainShape.set(cmd, plain);
  }
  if (!plain) return undefined;
  sh.lastSubStatus = undefined;
  if (sh.inTrap === undefined) sh.currentCommand = cmd;
  for (const a of cmd.assignments) {
    const value = a.value === undefined ? '' : expandSyncParts(sh, a.value.parts);
    setVar(sh, a.name, value, a.append ? APPEND : ASSIGN);
  }
  sh.lastArg = '';
  return 0;
}

async function execute(sh: Shell, cmd: SimpleCommand): Promise<number> {
  sh.lastSubStatus = undefined;
  if (sh.inTrap === undefined) sh.currentCommand = cmd;
  if (sh.traps.has('DEBUG')) await runDebugTrap(sh);
  if (cmd.words.length === 0) return assignmentsOnly(sh, cmd);
  const { argv, decl } =
    cmd.declAssignments === undefined
      ? { argv: await expandWords(sh, cmd.words), decl: undefined }
      : await expandCommandWords(sh, cmd);
  if (argv.length === 0) return assignmentsOnly(sh, cmd);
  const name = argv[0] as string;
  let resolved = resolveInShell(sh, name) ?? (await resolveCommand(sh, name, argv));
  const trace = sh.opts.xtrace;
  // `exec` without a command: the redirections stay.
  if (
    resolved.kind === 'builtin' &&
    name === 'exec' &&
    (argv.length === 1 || (argv.length === 2 && argv[1] === '--'))
  ) {
    if (trace) await traceCommand(sh, argv);
    await applyRedirects(sh, cmd.redirects, sh.fds, true);
    // The assignments of \`x=1 exec >f\` stay only in POSIX mode.
    if (cmd.assignments.length > 0 && sh.opts.o('posix')) await assignAll(sh, cmd.assignments, {});
    return 0;
  }
  const base = sh.fds;
  const table = cmd.redirects.length > 0 ? base.overlay() : base;
  // bash traces a command before its redirections (`cmd 2>f` traces to the shell's stderr);
  // with prefix assignments the trace follows them (their values are traced first).
  const traceFirst = trace && cmd.assignments.length === 0;
  if (traceFirst) await traceDeclaration(sh, argv, decl);
  try {
    if (table !== base) {
      try {
        const inShell = resolved.kind === 'builtin' || resolved.kind === 'function';
        await applyRedirects(sh, cmd.redirects, table, false, inShell);
      } catch (error) {
        if (error instanceof ShellError) {
          await shellMessage(sh, error.message);
          return 1;
        }
        throw error;
      }
      sh.fds = table;
    }
    // In POSIX mode assignments before a special builtin stay (`x=1 :`); otherwise they last
    // for the command only.
    const persists = resolved.kind === 'builtin' && resolved.builtin.special === true && sh.opts.o('posix');
    const tempScope =
      cmd.assignments.length > 0 &&
      !persists &&
      (resolved.kind === 'function' || resolved.kind === 'builtin');
    if (persists && cmd.assignments.length > 0) {
      // The builtin sees them as a temporary scope; what is left of it afterwards stays (an
      // `x=1 unset x` leaves the x below alone).
      const scope = sh.vars.push('temp');
      let status: number;
      try {
        await assignAll(sh, cmd.assignments, { temp: true });
        if (trace) await traceDeclaration(sh, argv, decl);
        status = await runResolved(sh, resolved, argv, { decl, redirects: cmd.redirects });
      } finally {
        sh.vars.pop();
      }
      for (const key of scope.vars.keys()) {
        const v = scope.vars.get(key);
        if (typeof v?.value === 'string') setVar(sh, key, v.value, {});
      }
      return status;
    }
    if (tempScope) {
      const scope = sh.vars.push('temp');
      try {
        await assignAll(
          sh,
          cmd.assignments.filter((a) => a.index === undefined && a.array === undefined),
          { temp: true },
        );
        if (trace) await traceDeclaration(sh, argv, decl);
        // A function called so takes this scope as its own (see VarStore.adoptAsFunction).
        if (resolved.kind === 'function') sh.callTemp = scope;
        return await runResolved(sh, resolved, argv, { decl, redirects: cmd.redirects });
      } finally {
        sh.callTemp = undefined;
        sh.vars.pop();
      }
    }
    const env = cmd.assignments.length > 0 ? await assignmentEnv(sh, cmd.assignments) : undefined;
    // `PATH=dir cmd` looks cmd up in that PATH.
    const searchPath = env?.get('PATH');
    if (searchPath !== undefined) resolved = await resolveCommand(sh, name, argv, { searchPath });
    if (trace && !traceFirst) await traceDeclaration(sh, argv, decl);
    sh.lastArg = lastArgument(argv, decl);
    return await runResolved(sh, resolved, argv, { decl, redirects: cmd.redirects, env });
  } finally {
    sh.fds = base;
    if (table !== base) table.dispose();
    sh.lastArg = lastArgument(argv, decl);
  }
}

/** `$_` after a command: its last argument; `declare a=(1 2)` leaves the name alone. */
function lastArgument(argv: readonly string[], decl: readonly DeclArg[] | undefined): string {
  const last = decl?.[decl.length - 1];
  if (last?.kind === 'assign' && last.array !== undefined) return last.name;
  return argv[argv.length - 1] as string;
}

/** `set -x` of a command; a declaration builtin's assignments show as bash shows them. */
async function traceDeclaration(
  sh: Shell,
  argv: readonly string[],
  decl: readonly DeclArg[] | undefined,
): Promise<void> {
  if (decl === undefined) {
    await traceCommand(sh, argv);
    return;
  }
  const shown: string[] = [argv[0] as string];
  const after: string[] = [];
  for (const d of decl) {
    if (d.kind === 'word') shown.push(d.text);
    else if (d.array !== undefined) {
      // A declaration builtin traces its compound assignment with every part single-quoted.
      const items = d.array.map((i) =>
        i.key === undefined ? singleQuote(i.value) : `[${singleQuote(i.key)}]=${singleQuote(i.value)}`,
      );
      await traceText(sh, `${d.name}${d.append ? '+=' : '='}(${items.join(' ')})`);
      shown.push(d.name);
    } else {
      const text = `${d.name}${d.index === undefined ? '' : `[${d.index}]`}${d.append ? '+=' : '='}${d.value ?? ''}`;
      shown.push(text);
      if (argv[0] === 'readonly' || argv[0] === 'export')
        after.push(
          `${d.name}${d.index === undefined ? '' : `[${d.index}]`}${d.append ? '+=' : '='}${traceQuote(d.value ?? '')}`,
        );
    }
  }
  await traceCommand(sh, shown);
  for (const a of after) await traceText(sh, a);
}

/** Words of the command; for declaration builtins, assignments are kept whole. */
async function expandCommandWords(
  sh: Shell,
  cmd: SimpleCommand,
): Promise<{ argv: string[]; decl?: DeclArg[] }> {
  if (cmd.declAssignments === undefined) {
    const argv = await expandWords(sh, cmd.words);
    return { argv };
  }
  const argv: string[] = [];
  const decl: DeclArg[] = [];
  for (let i = 0; i < cmd.words.length; i += 1) {
    const assignment = cmd.declAssignments.get(i);
    if (assignment !== undefined) {
      const assocFlag = argv.some((w) => /^-[a-zA-Z]*A/.test(w));
      const arg = await expandDeclAssignment(sh, assignment, assocFlag);
      decl.push(arg);
      argv.push(arg.kind === 'assign' ? `${arg.name}${arg.append ? '+=' : '='}${arg.value ?? ''}` : arg.text);
      continue;
    }
    for (const text of await expandWords(sh, [cmd.words[i] as Word])) {
      argv.push(text);
      decl.push({ kind: 'word', text });
    }
  }
  const name = argv[0];
  if (name === undefined || !DECLARATION.has(name)) return { argv };
  return { argv, decl: decl.slice(1) };
}

async function expandDeclAssignment(sh: Shell, a: Assignment, assoc: boolean): Promise<DeclArg> {
  const index = a.index === undefined ? undefined : await expandToString(sh, a.index);
  if (a.array !== undefined) {
    return {
      kind: 'assign',
      name: a.name,
      index,
      append: a.append,
      array: await expandArrayItems(sh, a, assoc),
      text: a.text,
    };
  }
  const value = a.value === undefined ? '' : await expandAssignment(sh, a.value);
  return { kind: 'assign', name: a.name, index, append: a.append, value, text: a.text };
}

/** The elements of `( ... )`: plain ones split and globbed, `[k]=v` ones not. */
export async function expandArrayItems(sh: Shell, a: Assignment, assocHint = false): Promise<ArrayItem[]> {
  const items: ArrayItem[] = [];
  const assoc = assocHint || lookup(sh, a.name)?.variable.value instanceof AssocArray;
  for (const el of a.array ?? []) {
    if (el.key !== undefined && el.braceText !== undefined && !assoc) {
      const parsed = parseWord(new Parser(el.braceText, { extglob: () => sh.opts.s('extglob') }), 'command');
      if (parsed !== undefined) {
        for (const value of await expandWords(sh, [parsed.word])) items.push({ value });
        continue;
      }
    }
    if (el.key !== undefined) {
      items.push({
        key: await expandToString(sh, el.key),
        value: await expandAssignment(sh, el.value),
        append: el.append,
      });
      continue;
    }
    for (const value of await expandWords(sh, [el.value])) items.push({ value });
  }
  return items;
}

/** A command that is only assignments (and redirections): they change the shell. */
async function assignmentsOnly(sh: Shell, cmd: SimpleCommand): Promise<number> {
  // bash assigns first (a `$(...)` in a value runs with the shell's own descriptors), then
  // performs the redirections for their effect alone (`x=1 >f` creates f).
  await assignAll(sh, cmd.assignments, {});
  sh.lastArg = '';
  if (cmd.redirects.length > 0) {
    const table = sh.fds.overlay();
    try {
      await applyRedirects(sh, cmd.redirects, table, false, true);
    } catch (error) {
      if (error instanceof ShellError) {
        await shellMessage(sh, error.message);
        return 1;
      }
      throw error;
    } finally {
      table.dispose();
    }
  }
  return sh.lastSubStatus ?? 0;
}

interface AssignHow {
  /** Into the temporary scope pushed for the command (`x=1 f`): exported to what f runs. */
  readonly temp?: boolean;
}

async function assignAll(sh: Shell, assignments: readonly Assignment[], how: AssignHow): Promise<void> {
  for (const a of assignments) {
    await assignOne(sh, a, how);
  }
}

/** Perform one assignment; returns the value text (for `set -x`). */
async function assignOne(sh: Shell, a: Assignment, how: AssignHow): Promise<string> {
  const opts = how.temp ? { local: true, temp: true } : {};
  const trace = sh.opts.xtrace;
  if (a.array !== undefined && a.index !== undefined) {
    const key = await expandToString(sh, a.index);
    throw discard(`${a.name}[${key}]: cannot assign list to array member`);
  }
  if (a.array !== undefined) {
    const items = await expandArrayItems(sh, a);
    const shown = a.text.slice(a.text.indexOf('=') + 1);
    if (trace) await traceAssignment(sh, a, shown);
    for (const w of assignArray(sh, a.name, items, { ...opts, append: a.append })) await shellMessage(sh, w);
    return shown;
  }
  const value = a.value === undefined ? '' : await expandAssignment(sh, a.value);
  if (trace) await traceAssignment(sh, a, value);
  if (how.temp && a.index === undefined && isReadonly(sh, a.name)) {
    // `x=1 cmd` over a readonly x: bash complains and runs cmd without it (a `set -e` script ends).
    await shellMessage(sh, `${a.name}: readonly variable`);
    if (sh.opts.errexit && !sh.interactive) throw new ExitControl(1);
    return value;
  }
  if (a.index !== undefined) {
    // `a[]=x`: an empty subscript as written (not one that expands to nothing) is an error.
    if (a.index.parts.length === 0) throw discard(`${a.name}[]: bad array subscript`);
    const key = await expandToString(sh, isAssocName(sh, a.name) ? a.index : withSingleQuotes(a.index));
    setElement(sh, a.name, key, value, { ...opts, append: a.append });
  } else {
    setVar(sh, a.name, value, { ...opts, append: a.append });
    if (how.temp) exportTemp(sh, a.name);
  }
  return value;
}

function isAssocName(sh: Shell, name: string): boolean {
  const v = lookup(sh, name)?.variable;
  return v !== undefined && (v.value instanceof AssocArray || (v.attrs & ATTR_ASSOC) !== 0);
}

function isReadonly(sh: Shell, name: string): boolean {
  return ((lookup(sh, name)?.variable.attrs ?? 0) & ATTR_READONLY) !== 0;
}

function exportTemp(sh: Shell, name: string): void {
  const scope = sh.vars.scopes[sh.vars.scopes.length - 1];
  const v = scope?.vars.get(name);
  if (scope !== undefined && v !== undefined)
    sh.vars.put(scope, name, { value: v.value, attrs: v.attrs | ATTR_EXPORT });
}

/** The environment for a command run with `name=value` prefixes (the shell is unchanged). */
async function assignmentEnv(sh: Shell, assignments: readonly Assignment[]): Promise<Map<string, string>> {
  const env = new Map<string, string>();
  sh.vars.push('temp');
  try {
    for (const a of assignments) {
      if (a.index !== undefined) {
        // An element cannot be a command's environment.
        await shellMessage(sh, `\`${a.text.slice(0, a.text.indexOf('='))}': not a valid identifier`);
        continue;
      }
      if (a.array !== undefined) {
        // `b=(1) cmd`: the command sees the text.
        env.set(a.name, a.text.slice(a.text.indexOf('=') + 1));
        continue;
      }
      const value = await assignOne(sh, a, { temp: true });
      env.set(a.name, value);
    }
  } finally {
    sh.vars.pop();
  }
  return env;
}
