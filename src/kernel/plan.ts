/**
 * `plan(script)`: parse without running and list every command the script could run, with what
 * each resolves to and whether it would leave the kernel, so a host can approve or refuse before
 * execution. Names computed at run time, `eval` and `source` make the plan `dynamic`: the host
 * cannot know statically what they run.
 * @module
 */
import type { Command, Script, Word, WordPart } from './syntax/ast.js';
import { Parser } from './syntax/parser.js';
import { ShellSyntaxError } from './syntax/syntax-error.js';
import { wordText } from './syntax/word-text.js';

export type PlannedKind = 'builtin' | 'function' | 'command' | 'external' | 'not-found' | 'dynamic';

export interface PlannedCommand {
  /** The command name, or `null` when it is computed at run time. */
  readonly name: string | null;
  readonly kind: PlannedKind;
  readonly line: number;
  /** Runs on the host through the external-command gate. */
  readonly leavesKernel: boolean;
  /** The words as written. */
  readonly text: string;
}

export interface CommandPlan {
  readonly commands: readonly PlannedCommand[];
  /** Names of the commands that would run outside the kernel. */
  readonly external: readonly string[];
  /** Some command cannot be known before running (a computed name, `eval`, `source`, `bash -c`). */
  readonly dynamic: boolean;
  /** The script does not parse (nothing of it would run past the error's line). */
  readonly syntaxError: { readonly message: string; readonly line: number } | null;
}

export interface PlanResolver {
  isBuiltin(name: string): boolean;
  isCommand(name: string): boolean;
  isFunction(name: string): boolean;
  isExternalAllowed(argv: readonly string[]): boolean;
}

/** Commands whose arguments name another command to run. */
const RUNNERS: Readonly<
  Record<string, { readonly withArg?: readonly string[]; readonly assignments?: boolean }>
> = {
  command: {},
  builtin: {},
  exec: { withArg: ['-a'] },
  env: { withArg: ['-u', '-C', '-S'], assignments: true },
  nohup: {},
  nice: { withArg: ['-n'] },
  timeout: { withArg: ['-s', '-k', '--signal', '--kill-after'] },
  xargs: { withArg: ['-I', '-L', '-n', '-P', '-d', '-E', '-s', '-a'] },
  time: {},
  stdbuf: { withArg: ['-i', '-o', '-e'] },
};

const DYNAMIC_BUILTINS = new Set(['eval', 'source', '.', 'trap']);

export function planScript(script: string, resolver: PlanResolver): CommandPlan {
  const commands: PlannedCommand[] = [];
  let dynamic = false;
  let syntaxError: CommandPlan['syntaxError'] = null;
  const defined = new Set<string>();
  let parsed: Script = { commands: [] };
  try {
    parsed = new Parser(script, { extglob: () => true }).parseAll();
  } catch (error) {
    if (!(error instanceof ShellSyntaxError)) throw error;
    syntaxError = { message: error.message, line: error.line };
  }
  const classify = (name: string, argv: readonly string[]): { kind: PlannedKind; leaves: boolean } => {
    if (defined.has(name) || resolver.isFunction(name)) return { kind: 'function', leaves: false };
    if (resolver.isBuiltin(name)) return { kind: 'builtin', leaves: false };
    const base = name.includes('/') ? name.slice(name.lastIndexOf('/') + 1) : name;
    if (resolver.isCommand(base) || base === 'bash' || base === 'sh')
      return { kind: 'command', leaves: false };
    if (resolver.isExternalAllowed(argv)) return { kind: 'external', leaves: true };
    return { kind: 'not-found', leaves: false };
  };
  const add = (words: readonly Word[], line: number): void => {
    const literal = words.map(literalOf);
    let i = 0;
    while (i < words.length) {
      const name = literal[i];
      const text = words.slice(i).map(wordText).join(' ');
      if (name === undefined) {
        dynamic = true;
        commands.push({ name: null, kind: 'dynamic', line, leavesKernel: false, text });
        return;
      }
      const argv = literal.slice(i).map((w) => w ?? '');
      const { kind, leaves } = classify(name, argv);
      commands.push({ name, kind, line, leavesKernel: leaves, text });
      if (
        DYNAMIC_BUILTINS.has(name) ||
        ((name === 'bash' || name === 'sh') && literal.slice(i + 1).includes('-c'))
      )
        dynamic = true;
      const runner = RUNNERS[name];
      if (runner === undefined) return;
      // Skip the runner's options (and env's assignments) to the command it runs.
      i += 1;
      while (i < words.length) {
        const w = literal[i];
        if (w === undefined) break;
        if (w === '--') {
          i += 1;
          break;
        }
        if (runner.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) {
          i += 1;
          continue;
        }
        if (!w.startsWith('-')) break;
        i += runner.withArg?.includes(w) ? 2 : 1;
      }
      if (name === 'timeout' && i < words.length) i += 1;
    }
  };
  const walkScript = (s: Script): void => {
    for (const st of s.commands) walk(st.command);
  };
  const walkWords = (words: readonly Word[]): void => {
    for (const w of words) walkParts(w.parts);
  };
  const walkParts = (parts: readonly WordPart[]): void => {
    for (const p of parts) {
      if (p.type === 'cmdsub' || p.type === 'procsub') walkScript(p.body);
      else if (p.type === 'dq') walkParts(p.parts);
      else if (p.type === 'param' && p.op !== undefined && 'arg' in p.op) walkParts(p.op.arg.parts);
    }
  };
  const walk = (c: Command): void => {
    switch (c.type) {
      case 'simple':
        walkWords(c.words);
        for (const a of c.assignments) {
          if (a.value !== undefined) walkParts(a.value.parts);
          for (const e of a.array ?? []) walkParts(e.value.parts);
        }
        for (const r of c.redirects) walkParts(r.target.parts);
        if (c.words.length > 0) add(c.words, c.line);
        return;
      case 'pipeline':
        for (const x of c.commands) walk(x);
        return;
      case 'andor':
        walk(c.first);
        for (const r of c.rest) walk(r.command);
        return;
      case 'subshell':
      case 'group':
        walkScript(c.body);
        return;
      case 'if':
        for (const cl of c.clauses) {
          walkScript(cl.condition);
          walkScript(cl.body);
        }
        if (c.elseBody !== undefined) walkScript(c.elseBody);
        return;
      case 'loop':
        walkScript(c.condition);
        walkScript(c.body);
        return;
      case 'for':
      case 'select':
        walkWords(c.words ?? []);
        walkScript(c.body);
        return;
      case 'arithfor':
        walkScript(c.body);
        return;
      case 'case':
        walkParts(c.word.parts);
        for (const item of c.items) walkScript(item.body);
        return;
      case 'function':
        defined.add(c.name);
        walk(c.body);
        return;
      case 'coproc':
        walk(c.body);
        return;
      default:
        return;
    }
  };
  // Functions may be called before they appear in the text: collect definitions first.
  const collect = (s: Script): void => {
    for (const st of s.commands) if (st.command.type === 'function') defined.add(st.command.name);
  };
  collect(parsed);
  walkScript(parsed);
  const external = [...new Set(commands.filter((c) => c.leavesKernel).map((c) => c.name as string))];
  return { commands, external, dynamic, syntaxError };
}

function literalOf(w: Word): string | undefined {
  let out = '';
  for (const p of w.parts) {
    if (p.type === 'lit' || p.type === 'sq' || p.type === 'esc') out += p.value;
    else if (p.type === 'dq' && p.parts.every((q) => q.type === 'lit' || q.type === 'esc'))
      out += p.parts.map((q) => (q as { value: string }).value).join('');
    else return undefined;
  }
  return out;
}
