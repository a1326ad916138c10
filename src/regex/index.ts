/**
 * berth's regular expressions: GNU BRE and ERE (with the syntax bits grep, sed and `regcomp`
 * each use), awk's ERE dialect and Perl-style patterns for `grep -P`, over text decoded by
 * `decodeBytes` (invalid bytes are U+DC80..U+DCFF and match no `.` or class). No pattern can hold
 * the host: matching is linear (a lazy DFA answers "does it match", a Pike VM finds the match
 * and its groups) except for back-references and lookaround, which run in a backtracker whose
 * work is capped ({@link RegexBudgetError}).
 *
 * @example
 * const re = compileRegex('ab\\|abcd', { syntax: 'bre' });
 * re.exec('abcd'); // { start: 0, end: 4, ... } — leftmost-longest, as GNU
 * @module
 */
import { features, type RegexNode } from './ast.js';
import { Backtracker, DEFAULT_STEP_BUDGET } from './backtrack.js';
import { LazyDFA } from './dfa.js';
import { pureLiteral, requiredLiteral, requiredPrefix } from './literal.js';
import { parsePcre } from './parse-pcre.js';
import { type PosixDialect, parsePosix } from './parse-posix.js';
import { PikeVM } from './pike.js';
import { compileProgram, type Program } from './program.js';

export { RegexBudgetError, RegexSyntaxError } from './errors.js';
export type { PosixDialect } from './parse-posix.js';

export type RegexSyntax = 'bre' | 'ere' | 'awk' | 'pcre';

export interface RegexOptions {
  readonly syntax: RegexSyntax;
  /** Whose reading of BRE/ERE: `grep`, `sed`, or `posix` (`regcomp`, bash's `=~`, expr). Default `posix`. */
  readonly dialect?: PosixDialect | undefined;
  readonly ignoreCase?: boolean | undefined;
  /** `^`/`$` also match after/before each newline (sed's `M`, Perl's `(?m)`). */
  readonly multiline?: boolean | undefined;
  /** Whether `.` and `[^x]` match a newline. Default: true for POSIX and awk, false for pcre. */
  readonly dotMatchesNewline?: boolean | undefined;
  /** sed's escapes inside the regex (`\n \t \xHH \dNNN \oNNN \cX`). */
  readonly sedEscapes?: boolean | undefined;
  /** grep -w: the match must not touch a word character on either side. */
  readonly wordMatch?: boolean | undefined;
  /** grep -x: the match must be the whole text. */
  readonly lineMatch?: boolean | undefined;
  /** Most steps one backtracking match may take (back-references, lookaround). */
  readonly stepBudget?: number | undefined;
}

/** A match: `start`/`end` of the whole match, and of each group in `groups`. */
export interface RegexMatch {
  readonly start: number;
  readonly end: number;
  /** Slots: group n spans `[groups[2n], groups[2n + 1])`; -1 when it did not take part. */
  readonly groups: Int32Array;
}

export interface Regex {
  readonly source: string;
  readonly options: RegexOptions;
  /** Capture groups (the whole match not counted). */
  readonly groupCount: number;
  /** grep's warnings (`* at start of expression`), without its `grep: warning: ` prefix. */
  readonly warnings: readonly string[];
  /** The text every match is, when the pattern is one fixed string (its fast path). */
  readonly literal: string | undefined;
  /** The leftmost match at or after `from` (assertions still see the text before `from`). */
  exec(text: string, from?: number): RegexMatch | null;
  /** Whether `text` holds a match. */
  test(text: string): boolean;
  /**
   * For text holding many `\n`-separated lines: the start of the first line at or after `from`
   * (a line start) holding a match, or -1. Each line is matched on its own.
   */
  nextMatchingLine(text: string, from: number): number;
  /** Text of group `n` of `m` in `text` (undefined when the group did not take part). */
  group(m: RegexMatch, text: string, n: number): string | undefined;
}

/**
 * Compile one pattern, or several (grep's `-e a -e b`, newline-separated patterns) that match
 * where any of them does. Throws {@link RegexSyntaxError} with GNU's message.
 */
export function compileRegex(pattern: string | readonly string[], options: RegexOptions): Regex {
  const patterns = typeof pattern === 'string' ? [pattern] : pattern;
  const ignoreCase = options.ignoreCase === true;
  const dialect = options.dialect ?? 'posix';
  const dotNl = options.dotMatchesNewline ?? options.syntax !== 'pcre';
  const branches: RegexNode[] = [];
  const warnings: string[] = [];
  let groups = 0;
  for (const p of patterns) {
    if (options.syntax === 'pcre') {
      const r = parsePcre(p, { ignoreCase, groupOffset: groups });
      branches.push(r.node);
      groups += r.groupCount;
    } else {
      const r = parsePosix(p, {
        syntax: options.syntax,
        dialect,
        ignoreCase,
        sedEscapes: options.sedEscapes === true,
        dotMatchesNewline: dotNl,
        groupOffset: groups,
      });
      branches.push(r.node);
      groups += r.groupCount;
      warnings.push(...r.warnings);
    }
  }
  let node: RegexNode = branches.length === 1 ? (branches[0] as RegexNode) : { type: 'alt', items: branches };
  if (options.wordMatch === true)
    node = {
      type: 'seq',
      items: [
        { type: 'assert', kind: 'not-word-before' },
        { type: 'group', node, index: 0 },
        { type: 'assert', kind: 'not-word-after' },
      ],
    };
  if (options.lineMatch === true)
    node = {
      type: 'seq',
      items: [
        { type: 'assert', kind: 'bot' },
        { type: 'group', node, index: 0 },
        { type: 'assert', kind: 'eot' },
      ],
    };
  return new CompiledRegex(patterns.join('\n'), options, node, groups, warnings);
}

class CompiledRegex implements Regex {
  readonly literal: string | undefined;
  private readonly prog: Program;
  private readonly required: string;
  /** What every match starts with, when line scans may start the automaton there (see below). */
  private readonly linePrefix: string;
  private readonly needsBacktracker: boolean;
  private readonly longest: boolean;
  private readonly multiline: boolean;
  private dfa: LazyDFA | undefined;
  /** The required text turned out to be on nearly every line: line scans go straight to the DFA. */
  private requiredIsDense = false;
  private pike: PikeVM | undefined;
  private backtracker: Backtracker | undefined;

  constructor(
    readonly source: string,
    readonly options: RegexOptions,
    node: RegexNode,
    readonly groupCount: number,
    readonly warnings: readonly string[],
  ) {
    const f = features(node);
    this.needsBacktracker = f.backrefs || f.lookaround || f.atomic;
    this.longest = options.syntax !== 'pcre';
    this.multiline = options.multiline === true;
    this.prog = compileProgram(node, groupCount, f.wordAsserts || options.wordMatch === true);
    const lit = pureLiteral(node);
    // A pure literal's fast path needs no group other than the whole match.
    this.literal = lit !== undefined && lit !== '' && groupCount === 0 ? lit : undefined;
    this.required = requiredLiteral(node);
    // Every match starts with this text, and no assertion looks at what comes before it: a line
    // holds a match exactly when the rest of the line from the prefix's first occurrence does.
    // So a line scan jumps from occurrence to occurrence with indexOf and runs the automaton only
    // from there, instead of over every character (GNU grep's fixed-string prefilter does the same).
    const prefix = requiredPrefix(node);
    this.linePrefix =
      prefix.length >= 3 && !prefix.includes('\n') && !f.anchors && !f.wordAsserts && !this.needsBacktracker
        ? prefix
        : '';
  }

  exec(text: string, from = 0): RegexMatch | null {
    if (this.literal !== undefined) {
      const at = text.indexOf(this.literal, from);
      if (at === -1) return null;
      const groups = new Int32Array(2);
      groups[0] = at;
      groups[1] = at + this.literal.length;
      return { start: at, end: at + this.literal.length, groups };
    }
    if (this.required !== '' && text.indexOf(this.required, from) === -1) return null;
    const slots = this.needsBacktracker
      ? this.backtrackerFor().search(text, from)
      : this.pikeFor().search(text, from);
    if (slots === null) return null;
    return { start: slots[0] as number, end: slots[1] as number, groups: slots };
  }

  test(text: string): boolean {
    if (this.literal !== undefined) return text.includes(this.literal);
    if (this.required !== '' && !text.includes(this.required)) return false;
    if (this.needsBacktracker) return this.backtrackerFor().search(text, 0) !== null;
    return this.dfaFor().test(text);
  }

  nextMatchingLine(text: string, from: number): number {
    if (this.literal === undefined && this.linePrefix !== '') return this.nextLineFromPrefix(text, from);
    if (this.literal !== undefined || (this.required !== '' && !this.requiredIsDense)) {
      const needle = (this.literal ?? this.required) as string;
      let at = from;
      let dense = 0;
      for (;;) {
        const hit = text.indexOf(needle, at);
        if (hit === -1) return -1;
        const lineStart = Math.max(at, text.lastIndexOf('\n', hit - 1) + 1);
        const nl = text.indexOf('\n', hit);
        const end = nl === -1 ? text.length : nl;
        if (this.literal !== undefined || this.testLine(text, lineStart, end)) return lineStart;
        if (nl === -1) return -1;
        // The required text is on line after line: the prefilter no longer pays, scan instead.
        dense = lineStart === at ? dense + 1 : 0;
        at = nl + 1;
        if (dense > 16 && !this.needsBacktracker) {
          this.requiredIsDense = true;
          return this.dfaFor().nextMatchingLine(text, at);
        }
      }
    }
    if (this.needsBacktracker) {
      let at = from;
      while (at < text.length) {
        const nl = text.indexOf('\n', at);
        const end = nl === -1 ? text.length : nl;
        if (this.testLine(text, at, end)) return at;
        at = end + 1;
      }
      return -1;
    }
    return this.dfaFor().nextMatchingLine(text, from);
  }

  private nextLineFromPrefix(text: string, from: number): number {
    const dfa = this.dfaFor();
    let at = from;
    for (;;) {
      const hit = text.indexOf(this.linePrefix, at);
      if (hit === -1) return -1;
      const nl = text.indexOf('\n', hit);
      const end = nl === -1 ? text.length : nl;
      if (dfa.test(text.slice(hit, end))) return Math.max(at, text.lastIndexOf('\n', hit - 1) + 1);
      if (nl === -1) return -1;
      at = nl + 1;
    }
  }

  group(m: RegexMatch, text: string, n: number): string | undefined {
    const s = m.groups[2 * n];
    const e = m.groups[2 * n + 1];
    if (s === undefined || e === undefined || s < 0 || e < 0) return undefined;
    return text.slice(s, e);
  }

  private testLine(text: string, start: number, end: number): boolean {
    const line = start === 0 && end === text.length ? text : text.slice(start, end);
    if (this.needsBacktracker) return this.backtrackerFor().search(line, 0) !== null;
    return this.dfaFor().test(line);
  }

  private dfaFor(): LazyDFA {
    this.dfa ??= new LazyDFA(this.prog, this.multiline);
    return this.dfa;
  }

  private pikeFor(): PikeVM {
    this.pike ??= new PikeVM(this.prog, this.longest, this.multiline);
    return this.pike;
  }

  private backtrackerFor(): Backtracker {
    this.backtracker ??= new Backtracker(
      this.prog,
      this.longest,
      this.multiline,
      this.options.ignoreCase === true,
      this.options.stepBudget ?? DEFAULT_STEP_BUDGET,
    );
    return this.backtracker;
  }
}
