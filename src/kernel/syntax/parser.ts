/**
 * The command grammar: lists, pipelines, simple and compound commands, functions, redirections
 * and heredocs. A script is parsed one complete command at a time ({@link Parser.parseNext}), as
 * bash reads it: a syntax error on line 10 leaves lines 1 to 9 to run. Knows nothing of execution;
 * what it needs of the shell's state (aliases, `extglob`) comes through {@link ParserOptions}.
 * @module
 */
import type {
  Assignment,
  CaseItem,
  Command,
  FunctionDefinition,
  HereDoc,
  Redirect,
  RedirectOp,
  Script,
  SimpleCommand,
  Statement,
  Word,
  WordPart,
} from './ast.js';
import { parseCond } from './cond-parser.js';
import { Cursor } from './cursor.js';
import { ShellSyntaxError, type SyntaxErrorKind } from './syntax-error.js';
import { type ParsedWord, parseHereDocBody, parseWord, tryArith, type WordHost } from './word-parser.js';
import { wordText } from './word-text.js';

export interface ParserOptions {
  /** The line the text starts on. Default 1. */
  readonly firstLine?: number;
  /** Alias lookup; `undefined` when not an alias or alias expansion is off. */
  readonly alias?: ((name: string) => string | undefined) | undefined;
  /** Whether `shopt -s extglob` is on (read at each command, as bash does). */
  readonly extglob?: (() => boolean) | undefined;
  /** Non-fatal diagnostics (a heredoc ended by the end of input). */
  readonly warn?: ((message: string) => void) | undefined;
}

const RESERVED = new Set([
  '!',
  '[[',
  '{',
  '}',
  'case',
  'coproc',
  'do',
  'done',
  'elif',
  'else',
  'esac',
  'fi',
  'for',
  'function',
  'if',
  'in',
  'select',
  'then',
  'time',
  'until',
  'while',
]);

/** Words that end a compound list; seen at command position they are unexpected tokens. */
const CLOSERS = new Set(['}', 'do', 'done', 'elif', 'else', 'esac', 'fi', 'then', 'in']);

const OPERATORS = [
  ';;&',
  '&>>',
  '<<<',
  '<<-',
  ';;',
  ';&',
  '&&',
  '||',
  '|&',
  '&>',
  '>>',
  '>|',
  '>&',
  '<<',
  '<&',
  '<>',
  ';',
  '&',
  '|',
  '(',
  ')',
  '<',
  '>',
  '\n',
];

const REDIRECT_OPS = new Set(['<', '>', '>>', '>|', '<>', '&>', '&>>', '>&', '<&', '<<', '<<-', '<<<']);
const DECLARATION_BUILTINS = new Set(['declare', 'typeset', 'local', 'export', 'readonly']);
/** Other assignment builtins: `let x=( 1 )`, `eval a=(1 2)` take `name=( ... )` as one word of text. */
const ARRAY_TEXT_BUILTINS = new Set(['let', 'eval']);

interface PendingHereDoc {
  readonly doc: HereDoc;
  readonly line: number;
}

interface AliasRegion {
  readonly name: string;
  end: number;
}

export class Parser implements WordHost {
  readonly cur: Cursor;
  private readonly options: ParserOptions;
  private readonly pending: PendingHereDoc[] = [];
  private readonly aliasRegions: AliasRegion[] = [];
  /**
   * Where the text of an alias ending in a blank ends: the word starting there may be an alias
   * too (bash's rule). Cleared once that word is read.
   */
  private aliasCheckAt: number | undefined;
  /** Nesting of constructs, for the end-of-input message. */
  private depth = 0;

  constructor(text: string, options: ParserOptions = {}) {
    this.cur = new Cursor(text, options.firstLine ?? 1);
    this.options = options;
  }

  extglob(): boolean {
    return this.options.extglob?.() ?? false;
  }

  error(kind: SyntaxErrorKind, detail: string, line?: number): never {
    // Bash reads a text that lacks its final newline as if it had one: the end of input is
    // then on the next line.
    const cur = this.cur;
    const bump = kind === 'unexpected-eof' && cur.eof && !cur.src.endsWith('\n') ? 1 : 0;
    throw new ShellSyntaxError(kind, detail, line ?? cur.line + bump, cur.lineText());
  }

  paramLine: number | undefined;

  /** The next complete command (the statements up to a top-level newline), or `undefined` at the end. */
  /** Source text of the command {@link parseNext} returned last (for `set -o verbose`). */
  lastText = '';

  parseNext(): Statement[] | undefined {
    this.skipLinebreaks();
    if (this.cur.eof) return undefined;
    const start = this.cur.pos;
    try {
      return this.parseNextAt();
    } finally {
      this.lastText = this.cur.src.slice(start, this.cur.pos);
    }
  }

  private parseNextAt(): Statement[] {
    const statements: Statement[] = [];
    for (;;) {
      const line = this.cur.line;
      const command = this.parseAndOr();
      this.skipBlanks();
      const op = this.peekOp();
      if (op === ';' || op === '&') {
        this.readOp(op);
        statements.push({ command, background: op === '&', line });
        this.skipBlanks();
        const next = this.peekOp();
        if (next === '\n') {
          this.readOp('\n');
          return statements;
        }
        if (this.cur.eof) return statements;
        continue;
      }
      statements.push({ command, background: false, line });
      if (op === '\n') {
        this.readOp('\n');
        return statements;
      }
      if (this.cur.eof) return statements;
      this.unexpected();
    }
  }

  /** Skip what is left of the current line (after a syntax error that discards it). */
  discardLine(): void {
    const cur = this.cur;
    while (!cur.eof && cur.peek() !== '\n') cur.next();
    if (!cur.eof) cur.next();
    this.pending.length = 0;
    this.depth = 0;
  }

  /** The whole text as one script (for `plan`, functions and nested sources). */
  parseAll(): Script {
    const commands: Statement[] = [];
    for (;;) {
      const next = this.parseNext();
      if (next === undefined) return { commands };
      commands.push(...next);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Low-level reading

  private skipBlanks(): void {
    const cur = this.cur;
    for (;;) {
      const c = cur.peek();
      if (c === ' ' || c === '\t') cur.next();
      else if (cur.atContinuation()) cur.skip(2);
      else if (c === '#') {
        while (!cur.eof && cur.peek() !== '\n') cur.next();
      } else return;
    }
  }

  /** Blanks, comments and newlines (reading any heredoc bodies that become due). */
  private skipLinebreaks(): void {
    for (;;) {
      this.skipBlanks();
      if (this.cur.peek() !== '\n') return;
      this.readOp('\n');
    }
  }

  private peekOp(): string | undefined {
    const cur = this.cur;
    const c = cur.peek();
    if (c === '' || !';&|()<>\n'.includes(c)) return undefined;
    for (const op of OPERATORS) if (cur.startsWith(op)) return op;
    return undefined;
  }

  private readOp(op: string): void {
    this.cur.skip(op.length);
    if (op === '\n') this.readHereDocs();
  }

  /** A reserved word at the cursor (pure look-ahead, nothing consumed). */
  private peekReserved(): string | undefined {
    const cur = this.cur;
    let k = 0;
    let text = '';
    for (;;) {
      const c = cur.peek(k);
      if (c === '' || ' \t\n;&|()<>'.includes(c)) break;
      if (c === '\\' || c === "'" || c === '"' || c === '$' || c === '`') return undefined;
      text += c;
      k += 1;
      if (k > 8) return undefined;
    }
    return RESERVED.has(text) ? text : undefined;
  }

  private expectReserved(word: string): void {
    this.skipBlanks();
    if (this.peekReserved() !== word) this.unexpected();
    this.cur.skip(word.length);
  }

  /** Fail at whatever is at the cursor. */
  private unexpected(): never {
    this.skipBlanks();
    const cur = this.cur;
    if (cur.eof) this.error('unexpected-eof', '');
    const op = this.peekOp();
    if (op !== undefined) this.error('unexpected-token', op === '\n' ? 'newline' : op);
    let k = 0;
    let text = '';
    while (cur.peek(k) !== '' && !' \t\n;&|()<>'.includes(cur.peek(k))) {
      text += cur.peek(k);
      k += 1;
    }
    this.error('unexpected-token', text);
  }

  private readHereDocs(): void {
    while (this.pending.length > 0) {
      const { doc, line } = this.pending.shift() as PendingHereDoc;
      const cur = this.cur;
      const lines: string[] = [];
      const bodyLine = cur.line;
      let found = false;
      while (!cur.eof) {
        let end = cur.src.indexOf('\n', cur.pos);
        if (end === -1) end = cur.src.length;
        let text = cur.src.slice(cur.pos, end);
        cur.skip(end - cur.pos + (end < cur.src.length ? 1 : 0));
        if (doc.stripTabs) text = text.replace(/^\t+/, '');
        if (text === doc.delimiter) {
          found = true;
          break;
        }
        lines.push(text);
      }
      if (!found) {
        this.options.warn?.(
          `here-document at line ${line} delimited by end-of-file (wanted \`${doc.delimiter}')`,
        );
      }
      const body = lines.length === 0 ? '' : `${lines.join('\n')}\n`;
      if (doc.quoted) {
        doc.body = { parts: body === '' ? [] : [{ type: 'sq', value: body }] };
      } else {
        const sub = new Parser(body, { ...this.options, firstLine: bodyLine });
        doc.body = parseHereDocBody(sub);
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // WordHost

  parseCommandSub(): Script {
    this.depth += 1;
    const commands = this.parseCompoundList(new Set(), 'paren');
    this.skipLinebreaks();
    if (this.cur.peek() !== ')') {
      if (this.cur.eof) this.error('unmatched', ')');
      this.unexpected();
    }
    this.cur.next();
    this.depth -= 1;
    return commands;
  }

  parseNested(text: string, line: number): Script {
    const sub = new Parser(text, { ...this.options, firstLine: line });
    try {
      return sub.parseAll();
    } catch (error) {
      if (!(error instanceof ShellSyntaxError)) throw error;
      // bash parses a backquoted command when it runs it: a text that does not parse fails
      // then (status 2), and the command around it goes on.
      return { commands: [], unparsed: { text, line } };
    }
  }

  // -------------------------------------------------------------------------------------------
  // Lists

  /**
   * Statements until a closing reserved word in `closers`, a `)` (`stop === 'paren'`), a case
   * terminator (`stop === 'case'`), or the end of input.
   */
  private parseCompoundList(closers: ReadonlySet<string>, stop?: 'paren' | 'case'): Script {
    const commands: Statement[] = [];
    for (;;) {
      this.skipLinebreaks();
      if (this.cur.eof) return { commands };
      const reserved = this.peekReserved();
      if (reserved !== undefined && closers.has(reserved)) return { commands };
      const op = this.peekOp();
      if (op === ')' && stop === 'paren') return { commands };
      if ((op === ';;' || op === ';&' || op === ';;&') && stop === 'case') return { commands };
      const line = this.cur.line;
      const command = this.parseAndOr();
      this.skipBlanks();
      const sep = this.peekOp();
      if (sep === ';' || sep === '&') {
        this.readOp(sep);
        commands.push({ command, background: sep === '&', line });
        continue;
      }
      commands.push({ command, background: false, line });
      if (sep === '\n') {
        this.readOp('\n');
        continue;
      }
      if (this.cur.eof) return { commands };
      if (sep === ')' && stop === 'paren') return { commands };
      if ((sep === ';;' || sep === ';&' || sep === ';;&') && stop === 'case') return { commands };
      const next = this.peekReserved();
      if (next !== undefined && closers.has(next)) return { commands };
      this.unexpected();
    }
  }

  /** A compound list that must not be empty, ended by one of `closers`. */
  private parseBody(closers: ReadonlySet<string>): Script {
    this.depth += 1;
    const body = this.parseCompoundList(closers);
    this.depth -= 1;
    if (body.commands.length === 0) this.unexpected();
    return body;
  }

  private parseAndOr(): Command {
    const line = this.cur.line;
    const first = this.parsePipeline();
    const rest: { op: '&&' | '||'; command: Command }[] = [];
    for (;;) {
      this.skipBlanks();
      const op = this.peekOp();
      if (op !== '&&' && op !== '||') break;
      this.readOp(op);
      this.skipLinebreaks();
      rest.push({ op, command: this.parsePipeline() });
    }
    return rest.length === 0 ? first : { type: 'andor', first, rest, line };
  }

  private parsePipeline(): Command {
    this.skipBlanks();
    const line = this.cur.line;
    let time: { posix: boolean } | undefined;
    let negate = false;
    if (this.peekReserved() === 'time') {
      this.cur.skip(4);
      this.skipBlanks();
      time = { posix: false };
      if (this.cur.startsWith('-p') && ' \t\n;&|'.includes(this.cur.peek(2) || ' ')) {
        this.cur.skip(2);
        time = { posix: true };
      }
      this.skipBlanks();
      if (this.cur.eof || this.peekOp() === '\n' || this.peekOp() === ';' || this.peekOp() === '&') {
        return { type: 'pipeline', commands: [], stderrToo: [], negate: false, time, line };
      }
    }
    while (this.peekReserved() === '!') {
      this.cur.next();
      negate = !negate;
      this.skipBlanks();
    }
    const commands: Command[] = [this.parseCommand()];
    const stderrToo: boolean[] = [];
    for (;;) {
      this.skipBlanks();
      const op = this.peekOp();
      if (op !== '|' && op !== '|&') break;
      this.readOp(op);
      stderrToo.push(op === '|&');
      this.skipLinebreaks();
      commands.push(this.parseCommand());
    }
    if (commands.length === 1 && !negate && time === undefined) return commands[0] as Command;
    return { type: 'pipeline', commands, stderrToo, negate, time, line };
  }

  // -------------------------------------------------------------------------------------------
  // Commands

  private parseCommand(): Command {
    this.skipBlanks();
    const cur = this.cur;
    const line = cur.line;
    if (cur.eof) this.error('unexpected-eof', '');
    const op = this.peekOp();
    if (op === '(') {
      if (cur.startsWith('((')) {
        const arith = tryArith(this, 2, '))');
        if (arith !== undefined) {
          return { type: 'arithcmd', expr: arith.expr, redirects: this.parseTrailingRedirects(), line };
        }
      }
      cur.next();
      this.depth += 1;
      const body = this.parseCompoundList(new Set(), 'paren');
      this.depth -= 1;
      this.skipLinebreaks();
      if (cur.peek() !== ')') this.unexpected();
      if (body.commands.length === 0) this.unexpected();
      cur.next();
      return { type: 'subshell', body, redirects: this.parseTrailingRedirects(), line };
    }
    if (op !== undefined && !REDIRECT_OPS.has(op)) this.unexpected();
    const reserved = this.peekReserved();
    if (reserved !== undefined) {
      if (CLOSERS.has(reserved)) this.unexpected();
      switch (reserved) {
        case '{':
          return this.parseGroup();
        case 'if':
          return this.parseIf();
        case 'while':
        case 'until':
          return this.parseLoop(reserved === 'until');
        case 'for':
          return this.parseFor();
        case 'select':
          return this.parseSelect();
        case 'case':
          return this.parseCase();
        case 'function':
          return this.parseFunctionKeyword();
        case '[[':
          return this.parseCondCommand();
        case 'coproc':
          return this.parseCoproc();
        case '!':
        case 'time':
          this.unexpected();
      }
    }
    return this.parseSimple();
  }

  private parseGroup(): Command {
    const line = this.cur.line;
    this.cur.next();
    const body = this.parseBody(new Set(['}']));
    this.expectReserved('}');
    return { type: 'group', body, redirects: this.parseTrailingRedirects(), line };
  }

  private parseIf(): Command {
    const line = this.cur.line;
    this.cur.skip(2);
    const clauses: { condition: Script; body: Script }[] = [];
    let elseBody: Script | undefined;
    for (;;) {
      const condition = this.parseBody(new Set(['then']));
      this.expectReserved('then');
      const body = this.parseBody(new Set(['elif', 'else', 'fi']));
      clauses.push({ condition, body });
      this.skipBlanks();
      const next = this.peekReserved();
      if (next === 'elif') {
        this.cur.skip(4);
        continue;
      }
      if (next === 'else') {
        this.cur.skip(4);
        elseBody = this.parseBody(new Set(['fi']));
        this.expectReserved('fi');
        break;
      }
      this.expectReserved('fi');
      break;
    }
    return { type: 'if', clauses, elseBody, redirects: this.parseTrailingRedirects(), line };
  }

  private parseLoop(until: boolean): Command {
    const line = this.cur.line;
    this.cur.skip(until ? 5 : 5);
    const condition = this.parseBody(new Set(['do']));
    const body = this.parseDoGroup();
    return { type: 'loop', until, condition, body, redirects: this.parseTrailingRedirects(), line };
  }

  /** `do ... done`, or `{ ... }` (bash accepts it after `for` and `select`). */
  private parseDoGroup(allowBrace = false): Script {
    this.skipLinebreaks();
    const reserved = this.peekReserved();
    if (allowBrace && reserved === '{') {
      this.cur.next();
      const body = this.parseBody(new Set(['}']));
      this.expectReserved('}');
      return body;
    }
    if (reserved !== 'do') this.unexpected();
    this.cur.skip(2);
    const body = this.parseBody(new Set(['done']));
    this.expectReserved('done');
    return body;
  }

  private parseFor(): Command {
    const line = this.cur.line;
    this.cur.skip(3);
    this.skipBlanks();
    if (this.cur.startsWith('((')) {
      const parts = this.readArithForHeader();
      this.skipBlanks();
      if (this.peekOp() === ';') this.readOp(';');
      const body = this.parseDoGroup(true);
      return {
        type: 'arithfor',
        init: parts[0],
        condition: parts[1],
        step: parts[2],
        body,
        redirects: this.parseTrailingRedirects(),
        line,
      };
    }
    const { variable, words } = this.parseForHeader();
    const body = this.parseDoGroup(true);
    return { type: 'for', variable, words, body, redirects: this.parseTrailingRedirects(), line };
  }

  private parseSelect(): Command {
    const line = this.cur.line;
    this.cur.skip(6);
    this.skipBlanks();
    const { variable, words } = this.parseForHeader();
    const body = this.parseDoGroup(true);
    return { type: 'select', variable, words, body, redirects: this.parseTrailingRedirects(), line };
  }

  /** `name [in words...] (; | newline)` */
  private parseForHeader(): { variable: string; words: Word[] | undefined } {
    this.skipBlanks();
    if (this.aliasDue()) while (this.expandAlias()) this.skipBlanks();
    const nameWord = parseWord(this, 'command');
    if (nameWord === undefined) this.unexpected();
    // An invalid name (`for i.j in`, `for $x in`) is bash's runtime error, not a syntax error.
    const variable = nameWord.literal ?? wordText(nameWord.word);
    this.skipLinebreaks();
    if (this.aliasDue()) while (this.expandAlias()) this.skipBlanks();
    let words: Word[] | undefined;
    if (this.peekReserved() === 'in') {
      this.cur.skip(2);
      words = [];
      for (;;) {
        this.skipBlanks();
        const op = this.peekOp();
        if (op === ';' || op === '\n') {
          this.readOp(op);
          break;
        }
        if (this.cur.eof) break;
        if (op !== undefined) this.unexpected();
        if (this.aliasDue() && this.expandAlias()) continue;
        const w = parseWord(this, 'command');
        if (w === undefined) this.unexpected();
        words.push(w.word);
      }
    } else if (this.peekOp() === ';') {
      this.readOp(';');
    }
    return { variable, words };
  }

  /** `((init; cond; step))` after `for`. */
  private readArithForHeader(): (Word | undefined)[] {
    const arith = tryArith(this, 2, '))');
    if (arith === undefined) this.error('unmatched', ')');
    // Split the expression word at top-level `;` in its literal parts.
    const sections: WordPart[][] = [[]];
    for (const part of arith.expr.parts) {
      if (part.type !== 'lit') {
        (sections[sections.length - 1] as WordPart[]).push(part);
        continue;
      }
      const pieces = part.value.split(';');
      pieces.forEach((piece, i) => {
        if (i > 0) sections.push([]);
        if (piece !== '') (sections[sections.length - 1] as WordPart[]).push({ type: 'lit', value: piece });
      });
    }
    if (sections.length !== 3) this.error('message', "syntax error: `;' unexpected");
    return sections.map((parts) => (isBlankWord({ parts }) ? undefined : { parts }));
  }

  private parseCase(): Command {
    const line = this.cur.line;
    this.cur.skip(4);
    this.skipBlanks();
    const subject = parseWord(this, 'command');
    if (subject === undefined) this.unexpected();
    this.skipLinebreaks();
    this.expectReserved('in');
    const items: CaseItem[] = [];
    this.depth += 1;
    for (;;) {
      this.skipLinebreaks();
      if (this.peekReserved() === 'esac') {
        this.cur.skip(4);
        break;
      }
      if (this.cur.eof) this.error('unexpected-eof', '');
      if (this.peekOp() === '(') this.cur.next();
      const patterns: Word[] = [];
      for (;;) {
        this.skipBlanks();
        const w = parseWord(this, 'pattern');
        if (w === undefined) this.unexpected();
        patterns.push(w.word);
        this.skipBlanks();
        if (this.cur.peek() === '|') {
          this.cur.next();
          continue;
        }
        if (this.cur.peek() === ')') {
          this.cur.next();
          break;
        }
        this.unexpected();
      }
      const body = this.parseCompoundList(new Set(['esac']), 'case');
      this.skipLinebreaks();
      const op = this.peekOp();
      let terminator: ';;' | ';&' | ';;&' = ';;';
      if (op === ';;' || op === ';&' || op === ';;&') {
        this.readOp(op);
        terminator = op;
        items.push({ patterns, body, terminator });
        continue;
      }
      items.push({ patterns, body, terminator });
      this.skipLinebreaks();
      if (this.peekReserved() !== 'esac') this.unexpected();
    }
    this.depth -= 1;
    return { type: 'case', word: subject.word, items, redirects: this.parseTrailingRedirects(), line };
  }

  private parseCondCommand(): Command {
    const line = this.cur.line;
    this.cur.skip(2);
    const expr = parseCond(this, () => this.skipCondBlanks());
    return { type: 'cond', expr, redirects: this.parseTrailingRedirects(), line };
  }

  private skipCondBlanks(): void {
    for (;;) {
      this.skipBlanks();
      if (this.cur.peek() !== '\n') return;
      this.readOp('\n');
    }
  }

  private parseCoproc(): Command {
    const line = this.cur.line;
    this.cur.skip(6);
    this.skipBlanks();
    let name = 'COPROC';
    const reserved = this.peekReserved();
    if (reserved === undefined && this.peekOp() === undefined) {
      const mark = this.cur.mark();
      const w = parseWord(this, 'command');
      this.skipBlanks();
      const after = this.peekReserved();
      if (
        w?.literal !== undefined &&
        /^[A-Za-z_][A-Za-z0-9_]*$/.test(w.literal) &&
        (after === '{' || this.peekOp() === '(' || (after !== undefined && !CLOSERS.has(after)))
      ) {
        name = w.literal;
      } else {
        this.cur.reset(mark);
      }
    }
    const body = this.parseCommand();
    return { type: 'coproc', name, body, redirects: [], line };
  }

  private parseFunctionKeyword(): Command {
    const line = this.cur.line;
    const start = this.cur.pos;
    this.cur.skip(8);
    this.skipBlanks();
    const w = parseWord(this, 'command');
    if (w?.literal === undefined || w.literal === '') this.unexpected();
    this.skipBlanks();
    if (this.cur.peek() === '(') {
      this.cur.next();
      this.skipBlanks();
      if (this.cur.peek() !== ')') this.unexpected();
      this.cur.next();
    }
    return this.finishFunction(w.literal, start, line);
  }

  private finishFunction(name: string, start: number, line: number): FunctionDefinition {
    this.skipLinebreaks();
    const body = this.parseCommand();
    if (!isCompound(body)) this.error('unexpected-token', firstWordText(body));
    return { type: 'function', name, body, line, text: this.cur.src.slice(start, this.cur.pos) };
  }

  private parseTrailingRedirects(): Redirect[] {
    const redirects: Redirect[] = [];
    for (;;) {
      this.skipBlanks();
      const r = this.tryRedirect();
      if (r === undefined) return redirects;
      redirects.push(r);
    }
  }

  /** A redirection at the cursor (`2>x`, `{fd}<x`, `>&2`, `<<EOF`), or `undefined`. */
  private tryRedirect(): Redirect | undefined {
    const cur = this.cur;
    const rest = cur.src.slice(cur.pos, cur.pos + 80);
    let fd: number | undefined;
    let fdVar: string | undefined;
    let skip = 0;
    const number = /^([0-9]+)(?=[<>])/.exec(rest);
    const named = /^\{([A-Za-z_][A-Za-z0-9_]*)\}(?=[<>])/.exec(rest);
    if (number) {
      fd = Number.parseInt(number[1] as string, 10);
      skip = (number[1] as string).length;
    } else if (named) {
      fdVar = named[1];
      skip = (named[0] as string).length;
    }
    const mark = cur.mark();
    cur.skip(skip);
    const op = this.peekOp();
    // `<(...)` and `>(...)` are process substitutions (words), not redirections.
    if (op === undefined || !REDIRECT_OPS.has(op) || ((op === '<' || op === '>') && cur.peek(1) === '(')) {
      cur.reset(mark);
      return undefined;
    }
    const line = cur.line;
    cur.skip(op.length);
    this.skipBlanks();
    const target = parseWord(this, 'command');
    if (target === undefined) {
      // At the end of a text lacking its final newline, bash sees the newline it supplies.
      this.skipBlanks();
      if (this.cur.eof && !this.cur.src.endsWith('\n')) this.error('unexpected-token', 'newline');
      this.unexpected();
    }
    let heredoc: HereDoc | undefined;
    if (op === '<<' || op === '<<-') {
      const { text, quoted } = heredocDelimiter(target.word);
      heredoc = { body: { parts: [] }, quoted, stripTabs: op === '<<-', delimiter: text };
      this.pending.push({ doc: heredoc, line });
    }
    return { op: op as RedirectOp, fd, fdVar, target: target.word, heredoc, line };
  }

  private parseSimple(): Command {
    const cur = this.cur;
    const startLine = cur.line;
    // bash's line for a simple command is where its parser stood when it made the command: after
    // the first element, or, when that is a word (it might name a function), after the token
    // following it. A multi-line first argument moves `$LINENO`, eval's lines and messages.
    let line = startLine;
    let seenFirst = false;
    let lookahead = false;
    const elementEnds = (word: boolean, at: number): void => {
      if (lookahead) {
        line = at;
        lookahead = false;
      } else if (!seenFirst) {
        seenFirst = true;
        if (word) lookahead = true;
        else line = at;
      }
    };
    const assignments: Assignment[] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    let declAssignments: Map<number, Assignment> | undefined;
    let declaration = false;
    let arrayText = false;
    let firstWordStart = 0;
    for (;;) {
      this.skipBlanks();
      if (cur.eof) break;
      const r = this.tryRedirect();
      if (r !== undefined) {
        elementEnds(false, lookahead ? r.line : cur.line);
        redirects.push(r);
        continue;
      }
      if (
        this.peekOp() !== undefined &&
        !((cur.peek() === '<' || cur.peek() === '>') && cur.peek(1) === '(')
      ) {
        if (cur.peek() === '(' && words.length === 1 && assignments.length === 0) {
          return this.parseFunctionParens(words[0] as Word, startLine, firstWordStart);
        }
        break;
      }
      const commandWord = words.length === 0;
      const start = cur.pos;
      if (commandWord) firstWordStart = start;
      // The command word may be an alias; so may the word after an alias ending in a blank.
      if ((commandWord || this.aliasDue()) && this.expandAlias()) {
        if (commandWord && assignments.length === 0 && redirects.length === 0) {
          // The alias text starts a new command: it may be a reserved word or a compound.
          this.skipBlanks();
          const reserved = this.peekReserved();
          if (reserved !== undefined || this.peekOp() === '(') return this.parseCommand();
        }
        continue;
      }
      if (this.aliasDue()) this.aliasCheckAt = undefined;
      if (arrayText && /^[A-Za-z_][A-Za-z0-9_]*\+?=\(/.test(cur.src.slice(cur.pos, cur.pos + 256))) {
        const text = parseWord(this, 'command', { assignments: true, arrays: true, declaration: true });
        if (text?.assignment !== undefined) {
          elementEnds(true, cur.line);
          words.push({ parts: [{ type: 'sq', value: text.assignment.text }], text: text.assignment.text });
          continue;
        }
      }
      const parsed: ParsedWord | undefined = parseWord(this, 'command', {
        assignments: commandWord || declaration,
        arrays: true,
        declaration: !commandWord && declaration,
      });
      if (parsed === undefined) break;
      if (parsed.assignment !== undefined) {
        if (commandWord) {
          elementEnds(false, cur.line);
          assignments.push(parsed.assignment);
          continue;
        }
        elementEnds(true, cur.line);
        declAssignments ??= new Map();
        declAssignments.set(words.length, parsed.assignment);
        words.push(parsed.word);
        continue;
      }
      if (commandWord) {
        const name = parsed.literal;
        declaration = name !== undefined && DECLARATION_BUILTINS.has(name);
        arrayText = name !== undefined && ARRAY_TEXT_BUILTINS.has(name);
      }
      elementEnds(true, cur.line);
      words.push(parsed.word);
      if (cur.pos === start) break;
    }
    // The token after a lone first word is an operator, a newline or the end: it stands here.
    if (lookahead) line = cur.line;
    if (words.length === 0 && assignments.length === 0 && redirects.length === 0) this.unexpected();
    const simple: SimpleCommand = { type: 'simple', assignments, words, redirects, line, declAssignments };
    return simple;
  }

  /** `name ( )` seen: a function definition. */
  private parseFunctionParens(nameWord: Word, line: number, wordStart: number): Command {
    const cur = this.cur;
    const literal =
      nameWord.parts.length === 1 && nameWord.parts[0]?.type === 'lit' ? nameWord.parts[0].value : undefined;
    // bash defines `$f() {...}` as written and refuses the name when the definition runs.
    const name = literal ?? cur.src.slice(wordStart, cur.pos).trimEnd();
    const start = literal === undefined ? wordStart : cur.src.lastIndexOf(literal, cur.pos);
    cur.next();
    this.skipBlanks();
    if (cur.peek() !== ')') this.unexpected();
    cur.next();
    const fn = this.finishFunction(name, start < 0 ? cur.pos : start, line);
    return literal === undefined ? { ...fn, invalidName: true } : fn;
  }

  /** The word at the cursor follows an alias that ended in a blank. */
  private aliasDue(): boolean {
    return this.aliasCheckAt !== undefined && this.cur.pos >= this.aliasCheckAt;
  }

  /**
   * If the word at the cursor is an alias (and not one being expanded), splice its text in and
   * return true.
   */
  private expandAlias(): boolean {
    const lookup = this.options.alias;
    if (lookup === undefined) return false;
    const cur = this.cur;
    while (this.aliasRegions.length > 0 && (this.aliasRegions.at(-1) as AliasRegion).end <= cur.pos) {
      this.aliasRegions.pop();
    }
    let k = 0;
    let name = '';
    for (;;) {
      const c = cur.peek(k);
      if (c === '' || ' \t\n;&|()<>'.includes(c)) break;
      if (c === '\\' || c === "'" || c === '"' || c === '$' || c === '`' || c === '=') return false;
      name += c;
      k += 1;
    }
    if (name === '' || this.aliasRegions.some((r) => r.name === name)) return false;
    const value = lookup(name);
    if (value === undefined) return false;
    const from = cur.pos;
    cur.skip(k);
    const delta = value.length - k;
    for (const r of this.aliasRegions) if (r.end > from) r.end += delta;
    cur.splice(from, value);
    this.aliasRegions.push({ name, end: from + value.length });
    this.aliasCheckAt = /[ \t]$/.test(value) ? from + value.length : undefined;
    return true;
  }
}

function isBlankWord(w: Word): boolean {
  return w.parts.every((p) => p.type === 'lit' && p.value.trim() === '');
}

function isCompound(c: Command): boolean {
  return (
    c.type === 'group' ||
    c.type === 'subshell' ||
    c.type === 'if' ||
    c.type === 'loop' ||
    c.type === 'for' ||
    c.type === 'arithfor' ||
    c.type === 'select' ||
    c.type === 'case' ||
    c.type === 'arithcmd' ||
    c.type === 'cond'
  );
}

function firstWordText(c: Command): string {
  if (c.type === 'simple') {
    const w = c.words[0];
    return w === undefined ? 'newline' : wordText(w);
  }
  return c.type;
}

/** A heredoc delimiter: quote removal of the word, and whether any of it was quoted. */
function heredocDelimiter(w: Word): { text: string; quoted: boolean } {
  // Nothing is expanded in a delimiter: an unquoted `$(a)` is the text `$(a)`.
  if (w.text !== undefined && !/["'\\]/.test(w.text)) return { text: w.text, quoted: false };
  let text = '';
  let quoted = false;
  const walk = (parts: Word['parts']): void => {
    for (const p of parts) {
      switch (p.type) {
        case 'lit':
          text += p.value;
          break;
        case 'esc':
          quoted = true;
          text += p.value;
          break;
        case 'sq':
          quoted = true;
          text += p.value;
          break;
        case 'dq':
          quoted = true;
          walk(p.parts);
          break;
        default:
          text += wordText({ parts: [p] });
      }
    }
  };
  walk(w.parts);
  return { text, quoted };
}
