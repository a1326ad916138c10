/**
 * The syntax tree of a bash script. The parser builds it and knows nothing of execution; the
 * interpreter walks it. Words keep their quoting structure so expansion can tell what was quoted.
 * @module
 */

/** A word: the parts as written, quoting kept. */
export interface Word {
  readonly parts: readonly WordPart[];
  /** An unquoted literal part holds `{` and `}`: brace expansion may apply. */
  readonly braces?: boolean;
  /** The source text, when parsed from a script (for `declare -f`, `set -x`, messages). */
  readonly text?: string;
}

export type WordPart =
  | LiteralPart
  | EscapedPart
  | SingleQuotedPart
  | DoubleQuotedPart
  | ParamPart
  | CommandSubPart
  | ArithSubPart
  | ProcessSubPart
  | TildePart
  | ExtGlobPart;

/** Unquoted text; glob characters in it are active. */
export interface LiteralPart {
  readonly type: 'lit';
  readonly value: string;
}

/** `\c` outside quotes: the character, quoted. */
export interface EscapedPart {
  readonly type: 'esc';
  readonly value: string;
}

/** `'...'`, or `$'...'` already decoded (`ansi`). */
export interface SingleQuotedPart {
  readonly type: 'sq';
  readonly value: string;
  readonly ansi?: boolean;
}

/** `"..."` (or `$"..."`). */
export interface DoubleQuotedPart {
  readonly type: 'dq';
  readonly parts: readonly WordPart[];
}

/** `$name`, `${...}`. */
export interface ParamPart {
  readonly type: 'param';
  /** Variable name, positional digits, or one of `@ * # ? - $ ! 0`. */
  readonly name: string;
  /** `${name[sub]}`: the subscript as written (`@`, `*`, or an expression word). */
  readonly index?: Word | '@' | '*' | undefined;
  /** `${#name}` */
  readonly length?: boolean;
  /** `${!name}` (indirection), `${!name[@]}` (keys), `${!prefix*}` (names). */
  readonly indirect?: boolean;
  /** `${!prefix*}` / `${!prefix@}` */
  readonly prefixNames?: '*' | '@' | undefined;
  readonly op?: ParamOp | undefined;
  /** `$x` without braces. */
  readonly short?: boolean;
  /** Source text of the whole expansion, for messages (`${x:?}` errors, bad substitution). */
  readonly text: string;
}

export type ParamOp =
  | {
      readonly kind: 'default';
      readonly colon: boolean;
      readonly op: '-' | '=' | '?' | '+';
      readonly arg: Word;
    }
  | { readonly kind: 'strip'; readonly op: '#' | '##' | '%' | '%%'; readonly pattern: Word }
  | {
      readonly kind: 'replace';
      readonly op: '/' | '//' | '/#' | '/%';
      readonly pattern: Word;
      readonly replacement: Word | undefined;
    }
  | { readonly kind: 'case'; readonly op: CaseOp; readonly pattern: Word | undefined }
  | { readonly kind: 'slice'; readonly offset: Word; readonly length: Word | undefined }
  | { readonly kind: 'transform'; readonly op: string }
  | { readonly kind: 'bad'; readonly text: string };

/** `$(...)` or backticks. */
export interface CommandSubPart {
  readonly type: 'cmdsub';
  readonly body: Script;
  readonly backtick?: boolean;
}

/** `$((...))` (and the obsolete `$[...]`); the expression is expanded first, then evaluated. */
export interface ArithSubPart {
  readonly type: 'arith';
  readonly expr: Word;
}

/** `<(...)` / `>(...)`. */
export interface ProcessSubPart {
  readonly type: 'procsub';
  readonly dir: '<' | '>';
  readonly body: Script;
}

/** `~` or `~user` at the start of a word (or after `:`/`=` in an assignment). */
export interface TildePart {
  readonly type: 'tilde';
  readonly user: string;
}

/** `@(...)`, `*(...)`, `+(...)`, `?(...)`, `!(...)` with extglob: alternatives as words. */
export interface ExtGlobPart {
  readonly type: 'extglob';
  readonly op: '@' | '*' | '+' | '?' | '!';
  readonly alternatives: readonly Word[];
  /** Source text, for when the word is not used as a pattern. */
  readonly text: string;
}

// ---------------------------------------------------------------------------------------------
// Commands

/** `${x^}` upper, `${x,}` lower, `${x~}` toggle: the first character, or every one when doubled. */
export type CaseOp = '^' | '^^' | ',' | ',,' | '~' | '~~';

export interface Script {
  readonly commands: readonly Statement[];
  /**
   * A backquoted command whose text does not parse: bash parses it when it runs, so the syntax
   * error is reported then (as `command substitution`) and the substitution fails with 2.
   */
  readonly unparsed?: { readonly text: string; readonly line: number } | undefined;
}

/** One command of a list, with its terminator. */
export interface Statement {
  readonly command: Command;
  readonly background: boolean;
  readonly line: number;
}

export type Command =
  | SimpleCommand
  | PipelineCommand
  | AndOrCommand
  | SubshellCommand
  | GroupCommand
  | IfCommand
  | LoopCommand
  | ForCommand
  | ArithForCommand
  | SelectCommand
  | CaseCommand
  | FunctionDefinition
  | ArithCommand
  | CondCommand
  | CoprocCommand;

export interface Assignment {
  readonly name: string;
  readonly index?: Word | undefined;
  readonly append: boolean;
  /** A scalar value (possibly empty) or a compound `( ... )` list. */
  readonly value: Word | undefined;
  readonly array?: readonly ArrayElement[] | undefined;
  /** Source text of the whole word, as a declaration builtin receives it. */
  readonly text: string;
}

/** An element of `( ... )`: plain, or `[key]=value` / `[key]+=value`. */
export interface ArrayElement {
  readonly key?: Word | undefined;
  readonly append?: boolean;
  readonly value: Word;
  /** The element's text when it brace-expands (`[k]=-{a,b}-`): plain words for an indexed array. */
  readonly braceText?: string | undefined;
}

export interface SimpleCommand {
  readonly type: 'simple';
  readonly assignments: readonly Assignment[];
  readonly words: readonly Word[];
  readonly redirects: readonly Redirect[];
  readonly line: number;
  /**
   * The word at `words[i]` was an assignment word given to a declaration builtin
   * (`declare x=(1 2)`), parsed as one.
   */
  readonly declAssignments?: ReadonlyMap<number, Assignment> | undefined;
}

export interface PipelineCommand {
  readonly type: 'pipeline';
  readonly commands: readonly Command[];
  /** `|&` after command `i`. */
  readonly stderrToo: readonly boolean[];
  readonly negate: boolean;
  /** `time` / `time -p` prefix. */
  readonly time?: { readonly posix: boolean } | undefined;
  readonly line: number;
}

export interface AndOrCommand {
  readonly type: 'andor';
  readonly first: Command;
  readonly rest: readonly { readonly op: '&&' | '||'; readonly command: Command }[];
  readonly line: number;
}

interface Compound {
  readonly redirects: readonly Redirect[];
  readonly line: number;
}

export interface SubshellCommand extends Compound {
  readonly type: 'subshell';
  readonly body: Script;
}

export interface GroupCommand extends Compound {
  readonly type: 'group';
  readonly body: Script;
}

export interface IfCommand extends Compound {
  readonly type: 'if';
  readonly clauses: readonly { readonly condition: Script; readonly body: Script }[];
  readonly elseBody: Script | undefined;
}

export interface LoopCommand extends Compound {
  readonly type: 'loop';
  readonly until: boolean;
  readonly condition: Script;
  readonly body: Script;
}

export interface ForCommand extends Compound {
  readonly type: 'for';
  readonly variable: string;
  /** Absent: `"$@"`. */
  readonly words: readonly Word[] | undefined;
  readonly body: Script;
}

export interface ArithForCommand extends Compound {
  readonly type: 'arithfor';
  readonly init: Word | undefined;
  readonly condition: Word | undefined;
  readonly step: Word | undefined;
  readonly body: Script;
}

export interface SelectCommand extends Compound {
  readonly type: 'select';
  readonly variable: string;
  readonly words: readonly Word[] | undefined;
  readonly body: Script;
}

export interface CaseCommand extends Compound {
  readonly type: 'case';
  readonly word: Word;
  readonly items: readonly CaseItem[];
}

export interface CaseItem {
  readonly patterns: readonly Word[];
  readonly body: Script;
  /** `;;` ends, `;&` falls through to the next body, `;;&` tests the next patterns. */
  readonly terminator: ';;' | ';&' | ';;&';
}

export interface FunctionDefinition {
  readonly type: 'function';
  readonly name: string;
  readonly body: Command;
  readonly line: number;
  /** Source text of the definition, for `declare -f` and `type`. */
  readonly text: string;
  /** The name was not a plain word (`$f() {...}`): defining it fails when it runs. */
  readonly invalidName?: boolean;
}

export interface ArithCommand extends Compound {
  readonly type: 'arithcmd';
  readonly expr: Word;
}

export interface CondCommand extends Compound {
  readonly type: 'cond';
  readonly expr: CondNode;
}

export interface CoprocCommand extends Compound {
  readonly type: 'coproc';
  readonly name: string;
  readonly body: Command;
}

export type CondNode =
  | { readonly type: 'and' | 'or'; readonly left: CondNode; readonly right: CondNode }
  | { readonly type: 'not'; readonly operand: CondNode }
  | { readonly type: 'unary'; readonly op: string; readonly operand: Word }
  | { readonly type: 'binary'; readonly op: string; readonly left: Word; readonly right: Word }
  | { readonly type: 'word'; readonly word: Word };

// ---------------------------------------------------------------------------------------------
// Redirections

export type RedirectOp = '<' | '>' | '>>' | '>|' | '<>' | '&>' | '&>>' | '>&' | '<&' | '<<' | '<<-' | '<<<';

export interface Redirect {
  readonly op: RedirectOp;
  /** Explicit descriptor (`2>`); absent: the operator's default. */
  readonly fd?: number | undefined;
  /** `{name}>file`: allocate a descriptor and store it in `name`. */
  readonly fdVar?: string | undefined;
  /** The target word (for heredocs, the delimiter as written). */
  readonly target: Word;
  /** A heredoc's body: a word to expand, or literal text when the delimiter was quoted. */
  readonly heredoc?: HereDoc | undefined;
  readonly line: number;
}

export interface HereDoc {
  body: Word;
  readonly quoted: boolean;
  readonly stripTabs: boolean;
  readonly delimiter: string;
}
