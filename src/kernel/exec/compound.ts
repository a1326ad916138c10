/**
 * Compound commands: `{ }`, `( )`, `if`, `while`/`until`, `for`, `for ((;;))`, `select`, `case`
 * (with `;&` and `;;&`), `(( ))`, `[[ ]]`, function definitions and `coproc`, each with its
 * redirections in a scope that ends with it.
 * @module
 */
import { ArithError } from '../arith/arith-parser.js';
import { BUILTINS } from '../builtins/registry.js';
import { expandToPattern, expandToString, expandWords, simpleLiteral } from '../expand/expand.js';
import { Pattern } from '../expand/pattern.js';
import { ArithAssignError, arithRaw } from '../runtime/arith-scope.js';
import { ExitControl, LoopControl } from '../runtime/control.js';
import { ShellError } from '../runtime/errors.js';
import type { Shell } from '../runtime/shell.js';
import { isValidName, setVar } from '../runtime/vars.js';
import { ATTR_READONLY } from '../state/variables.js';
import type { ArithCommand, Command, CondCommand, Redirect, Script, Word } from '../syntax/ast.js';
import { startBackground } from './background.js';
import { checkpoint, flushWarnings } from './checkpoint.js';
import { CondRegexError, evaluateCond } from './cond.js';
import { shellMessage } from './messages.js';
import { applyRedirects } from './redirect.js';
import { afterLeaf, runCommand, runScript, runScriptNow } from './run.js';
import { readSelectChoice } from './select.js';
import { closeProcessSubstitutions, runSubshell } from './substitution.js';
import { runDebugTrap } from './trap.js';
import { traceText } from './xtrace.js';

type Compound = Exclude<Command, { type: 'simple' | 'pipeline' | 'andor' }>;

export async function runCompound(sh: Shell, cmd: Compound): Promise<number> {
  if (cmd.type === 'function') {
    if (cmd.invalidName === true) {
      sh.line = cmd.line;
      await shellMessage(sh, `\`${cmd.name}': not a valid identifier`);
      return 1;
    }
    if (sh.opts.o('posix') && BUILTINS.get(cmd.name)?.special === true) {
      sh.line = cmd.line;
      await shellMessage(sh, `\`${cmd.name}': is a special builtin`);
      throw new ExitControl(2);
    }
    const old = sh.functions.get(cmd.name);
    if (old !== undefined && old.attrs & ATTR_READONLY) {
      sh.line = cmd.line;
      await shellMessage(sh, `${cmd.name}: readonly function`);
      return 1;
    }
    sh.functions.set(cmd.name, {
      definition: cmd,
      source:
        sh.source !== ''
          ? sh.source
          : sh.mode === 'stdin'
            ? 'main'
            : sh.mode === 'c'
              ? 'environment'
              : sh.arg0,
      attrs: 0,
    });
    return 0;
  }
  sh.line = cmd.line;
  if (cmd.type === 'subshell') {
    return withRedirects(sh, cmd.redirects, async () => {
      const status = await runSubshell(sh, (child) => runScript(child, cmd.body));
      await afterLeaf(sh, status, cmd);
      return status;
    });
  }
  return withRedirects(sh, cmd.redirects, () => runBody(sh, cmd));
}

/** A function's body (a compound command with its own redirections). */
export async function runFunctionBody(sh: Shell, body: Command): Promise<number> {
  return runCommand(sh, body);
}

/** Run `fn` with `redirects` applied in a scope that is dropped afterwards. */
export async function withRedirects(
  sh: Shell,
  redirects: readonly Redirect[],
  fn: () => Promise<number>,
): Promise<number> {
  if (redirects.length === 0) return fn();
  const base = sh.fds;
  const table = base.overlay();
  const mark = sh.procSubs.length;
  try {
    try {
      await applyRedirects(sh, redirects, table, false, true);
    } catch (error) {
      if (error instanceof ShellError) {
        await shellMessage(sh, error.message);
        // A compound command whose redirection fails has failed: `set -e` and ERR see it.
        await afterLeaf(sh, 1);
        return 1;
      }
      throw error;
    }
    sh.fds = table;
    return await fn();
  } finally {
    sh.fds = base;
    table.dispose();
    closeProcessSubstitutions(sh, mark);
  }
}

async function invalidLoopName(sh: Shell, name: string): Promise<number> {
  await shellMessage(sh, `\`${name}': not a valid identifier`);
  return 1;
}

async function runCondition(sh: Shell, script: Script): Promise<number> {
  sh.errexitSuppressed += 1;
  try {
    return await runScript(sh, script);
  } finally {
    sh.errexitSuppressed -= 1;
  }
}

/** Run a loop body, translating `break`/`continue`: returns 'break', 'continue' or undefined. */
async function loopBody(
  sh: Shell,
  body: Script,
  run: () => Promise<unknown> = () => runScript(sh, body),
): Promise<'break' | 'continue' | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    if (!(error instanceof LoopControl)) throw error;
    if (error.levels > 1) {
      error.levels -= 1;
      throw error;
    }
    return error.kind;
  }
}

type LoopOutcome = 'break' | 'continue' | undefined;

/**
 * {@link loopBody} of a script as the loop's body, without a closure to call, and without a
 * promise when the body needed none ({@link runScriptNow}).
 */
function loopScript(sh: Shell, body: Script): LoopOutcome | Promise<LoopOutcome> {
  let r: number | Promise<number>;
  try {
    r = runScriptNow(sh, body);
  } catch (error) {
    return loopControl(error);
  }
  return typeof r === 'number' ? undefined : r.then(() => undefined, loopControl);
}

/** What a `break`/`continue` thrown out of a loop's body means to this loop (else rethrown). */
function loopControl(error: unknown): LoopOutcome {
  if (!(error instanceof LoopControl)) throw error;
  if (error.levels > 1) {
    error.levels -= 1;
    throw error;
  }
  return error.kind;
}

async function runBody(
  sh: Shell,
  cmd: Exclude<Compound, { type: 'function' | 'subshell' }>,
): Promise<number> {
  switch (cmd.type) {
    case 'group':
      return runScript(sh, cmd.body);
    case 'if': {
      for (const clause of cmd.clauses) {
        const status = await runCondition(sh, clause.condition);
        if (status === 0) return runScript(sh, clause.body);
      }
      if (cmd.elseBody !== undefined) return runScript(sh, cmd.elseBody);
      return 0;
    }
    case 'loop': {
      let status = 0;
      sh.loopDepth += 1;
      try {
        for (;;) {
          await checkpoint(sh);
          // `break` and `continue` count in the condition too (`while break; do ...`).
          let c = 0;
          const control = await loopBody(sh, cmd.condition, async () => {
            c = await runCondition(sh, cmd.condition);
          });
          if (control === 'break') break;
          if (control === 'continue') continue;
          if (cmd.until ? c === 0 : c !== 0) break;
          let r = loopScript(sh, cmd.body);
          if (r instanceof Promise) r = await r;
          status = sh.status;
          if (r === 'break') break;
        }
      } finally {
        sh.loopDepth -= 1;
      }
      return status;
    }
    case 'for': {
      if (!isValidName(cmd.variable)) return invalidLoopName(sh, cmd.variable);
      const words = cmd.words === undefined ? [...sh.positional] : await expandWords(sh, cmd.words);
      if (sh.opts.o('xtrace')) await traceText(sh, `for ${cmd.variable} in ${words.join(' ')}`);
      let status = 0;
      sh.loopDepth += 1;
      try {
        for (const w of words) {
          await checkpoint(sh);
          sh.line = cmd.line;
          await runDebugTrap(sh, cmd);
          setVar(sh, cmd.variable, w);
          let r = loopScript(sh, cmd.body);
          if (r instanceof Promise) r = await r;
          status = sh.status;
          if (r === 'break') break;
        }
      } finally {
        sh.loopDepth -= 1;
      }
      return status;
    }
    case 'arithfor': {
      let status = 0;
      sh.loopDepth += 1;
      try {
        if (cmd.init !== undefined && (await arithStatus(sh, cmd.init, '((', cmd.line)) === 2) return 1;
        for (;;) {
          const step = checkpoint(sh);
          if (step !== undefined) await step;
          if (cmd.condition !== undefined) {
            let c = arithStatus(sh, cmd.condition, '((', cmd.line);
            if (typeof c !== 'number') c = await c;
            if (c === 2) return 1;
            if (c !== 0) break;
          }
          let r = loopScript(sh, cmd.body);
          if (r instanceof Promise) r = await r;
          status = sh.status;
          if (r === 'break') break;
          if (cmd.step !== undefined) {
            let c = arithStatus(sh, cmd.step, '((', cmd.line);
            if (typeof c !== 'number') c = await c;
            if (c === 2) return 1;
          }
        }
      } finally {
        sh.loopDepth -= 1;
      }
      return status;
    }
    case 'select': {
      if (!isValidName(cmd.variable)) return invalidLoopName(sh, cmd.variable);
      const words = cmd.words === undefined ? [...sh.positional] : await expandWords(sh, cmd.words);
      let status = 0;
      sh.loopDepth += 1;
      try {
        for (;;) {
          await checkpoint(sh);
          const choice = await readSelectChoice(sh, words);
          if (choice === undefined) {
            status = 1;
            break;
          }
          setVar(sh, cmd.variable, choice.value);
          setVar(sh, 'REPLY', choice.reply);
          const r = await loopBody(sh, cmd.body);
          status = sh.status;
          if (r === 'break') break;
        }
      } finally {
        sh.loopDepth -= 1;
      }
      return status;
    }
    case 'case': {
      await runDebugTrap(sh, cmd);
      const subject = await expandToString(sh, cmd.word);
      if (sh.opts.o('xtrace')) await traceText(sh, `case ${subject} in`);
      let fallthrough = false;
      for (let i = 0; i < cmd.items.length; i += 1) {
        const item = cmd.items[i] as (typeof cmd.items)[number];
        let matched = fallthrough;
        if (!matched) {
          for (const p of item.patterns) {
            if (await patternMatches(sh, p, subject)) {
              matched = true;
              break;
            }
          }
        }
        if (!matched) continue;
        const status = await runScript(sh, item.body);
        if (item.terminator === ';;') return status;
        fallthrough = item.terminator === ';&';
        if (i === cmd.items.length - 1) return status;
        sh.status = status;
      }
      return fallthrough ? sh.status : 0;
    }
    case 'arithcmd': {
      const status = await arithCommand(sh, cmd);
      await afterLeaf(sh, status, cmd);
      return status;
    }
    case 'cond': {
      const status = await condCommand(sh, cmd);
      await afterLeaf(sh, status, cmd);
      return status;
    }
    case 'coproc': {
      await startBackground(sh, cmd.body, { coproc: cmd.name });
      return 0;
    }
  }
}

async function patternMatches(sh: Shell, word: Word, subject: string): Promise<boolean> {
  const text = await expandToPattern(sh, word);
  return Pattern.compile(text, { extglob: sh.opts.s('extglob'), nocase: sh.opts.s('nocasematch') }).matches(
    subject,
  );
}

/**
 * Evaluate an arithmetic word as a command: 0 (non-zero value), 1 (zero), 2 (error, reported).
 * A literal expression with no DEBUG trap to run is evaluated without a promise (a number).
 */
function arithStatus(sh: Shell, word: Word, label: string, line: number): number | Promise<number> {
  sh.line = line;
  const literal = simpleLiteral(word);
  if (literal === undefined || sh.opts.xtrace || sh.traps.has('DEBUG'))
    return arithStatusSlow(sh, word, label);
  try {
    return arithRaw(sh, literal) !== 0n ? 0 : 1;
  } catch (error) {
    return arithFailure(sh, error, label);
  }
}

async function arithStatusSlow(sh: Shell, word: Word, label: string): Promise<number> {
  if (sh.traps.has('DEBUG')) await runDebugTrap(sh);
  const text = simpleLiteral(word) ?? (await expandToString(sh, word));
  // `set -x` shows each part of `for ((;;))` as bash does: `+ (( i<2 ))`.
  if (sh.opts.xtrace) await traceText(sh, `(( ${text} ))`);
  try {
    return arithRaw(sh, text) !== 0n ? 0 : 1;
  } catch (error) {
    return arithFailure(sh, error, label);
  }
}

async function arithFailure(sh: Shell, error: unknown, label: string): Promise<number> {
  if (error instanceof ArithError) {
    await shellMessage(sh, `${label}: ${error.message}`);
    return 2;
  }
  if (error instanceof ArithAssignError) {
    await shellMessage(sh, error.message);
    return 1;
  }
  throw error;
}

async function arithCommand(sh: Shell, cmd: ArithCommand): Promise<number> {
  await runDebugTrap(sh, cmd);
  const text = await expandToString(sh, cmd.expr);
  if (sh.opts.o('xtrace')) await traceText(sh, `(( ${text} ))`);
  try {
    return arithRaw(sh, text) !== 0n ? 0 : 1;
  } catch (error) {
    if (error instanceof ArithError) {
      await shellMessage(sh, `((: ${error.message}`);
      return 1;
    }
    if (error instanceof ArithAssignError) {
      await shellMessage(sh, error.message);
      return 1;
    }
    throw error;
  }
}

async function condCommand(sh: Shell, cmd: CondCommand): Promise<number> {
  await runDebugTrap(sh, cmd);
  try {
    const result = await evaluateCond(sh, cmd.expr);
    // Its warnings (`[[ -v a[-9] ]]`: bad array subscript) carry the command's line.
    if (sh.warnings.length > 0) await flushWarnings(sh);
    return result ? 0 : 1;
  } catch (error) {
    if (error instanceof ArithError) {
      await shellMessage(sh, `[[: ${error.message}`);
      return 1;
    }
    if (error instanceof CondRegexError) return 2;
    throw error;
  }
}
