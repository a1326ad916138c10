/**
 * find's expression language (GNU findutils 4.9): operators `( ) ! -not -a -and -o -or ,` with
 * juxtaposition as `-a`; global options (`-maxdepth -mindepth -depth -xdev -noleaf`), positional
 * options (`-daystart -follow -regextype`); tests and actions compiled into closures. GNU's
 * messages for a bad expression (``find: unknown predicate `-foo'``).
 * @module
 */
import type { VfsStat } from '../../../vfs/filesystem.js';
import type { CommandContext } from '../../command.js';
import { compileFnmatch, fnmatch } from '../../fnmatch.js';
import { quoteValue } from '../../gnu-quote.js';
import { parseDatetime } from '../../time/parse-datetime.js';
import { localTime, timeZoneFromEnv } from '../../time/zone.js';
import { identityOf } from '../identity.js';
import { applyMode, compileMode } from '../mode-change.js';
import { type CompiledFormat, compilePrintf, typeLetter } from './printf.js';
import { compileFindRegex, REGEX_TYPES, type RegexType } from './regex.js';

/** One file as the expression sees it. */
export interface FindEntry {
  /** As printed (`./a/b`). */
  readonly path: string;
  /** Its path in the filesystem. */
  readonly fsPath: string;
  /** The last component (`b`; the starting point as given at depth 0). */
  readonly name: string;
  readonly depth: number;
  readonly start: string;
  /** lstat, or stat under -L (a dangling link keeps its lstat). */
  readonly st: VfsStat;
  /** The directory it is in, for -execdir (filesystem path). */
  readonly dirFsPath: string;
}

/** What evaluating an entry may ask of the walk. */
export interface EvalState {
  prune: boolean;
  quit: boolean;
}

/** The services actions need from the running find. */
export interface FindServices {
  print(text: string): void;
  exec(argv: readonly string[], cwd: string | undefined): Promise<number>;
  batch(id: number, argv: readonly string[], arg: string, cwd: string | undefined): Promise<void>;
  remove(e: FindEntry): Promise<boolean>;
  printf(format: CompiledFormat, e: FindEntry): Promise<boolean>;
  ls(e: FindEntry): Promise<void>;
  readlink(e: FindEntry): Promise<string | undefined>;
  targetStat(e: FindEntry): Promise<VfsStat | undefined>;
  lstatOf(e: FindEntry): Promise<VfsStat | undefined>;
  statOf(path: string): Promise<VfsStat | undefined>;
  isEmptyDirectory(e: FindEntry): Promise<boolean>;
}

export type Node =
  | { readonly kind: 'and' | 'or' | 'comma'; readonly left: Node; readonly right: Node }
  | { readonly kind: 'not'; readonly expr: Node }
  | {
      readonly kind: 'pred';
      readonly name: string;
      readonly eval: (e: FindEntry, s: EvalState, svc: FindServices) => boolean | Promise<boolean>;
    };

export interface FindOptions {
  maxDepth: number;
  minDepth: number;
  depthFirst: boolean;
  xdev: boolean;
  follow: 'never' | 'always' | 'command-line';
}

export interface ParsedFind {
  readonly expr: Node;
  readonly options: FindOptions;
  /** Whether the expression has an action (else `-print` is added). */
  readonly hasAction: boolean;
  readonly warnings: readonly string[];
  /** Ids of `-exec ... +` batches. */
  readonly batches: number;
}

/** A parse error, printed as `find: message`, status 1. */
export class FindSyntaxError extends Error {}

const ACTIONS = new Set([
  '-print',
  '-print0',
  '-printf',
  '-fprint',
  '-fprint0',
  '-fprintf',
  '-ls',
  '-fls',
  '-exec',
  '-execdir',
  '-ok',
  '-okdir',
  '-delete',
  '-quit',
]);

const TAKES_ARGUMENT = new Set([
  '-name',
  '-iname',
  '-path',
  '-ipath',
  '-wholename',
  '-iwholename',
  '-regex',
  '-iregex',
  '-type',
  '-xtype',
  '-size',
  '-mtime',
  '-atime',
  '-ctime',
  '-mmin',
  '-amin',
  '-cmin',
  '-newer',
  '-anewer',
  '-cnewer',
  '-perm',
  '-user',
  '-group',
  '-uid',
  '-gid',
  '-links',
  '-inum',
  '-samefile',
  '-lname',
  '-ilname',
  '-used',
  '-maxdepth',
  '-mindepth',
  '-regextype',
  '-printf',
  '-fprint',
  '-fprint0',
  '-fls',
  '-context',
]);

/** Whether `arg` starts the expression (so it is not a starting point). */
export function startsExpression(arg: string): boolean {
  return (arg.startsWith('-') && arg.length > 1) || arg === '!' || arg === '(' || arg === ')' || arg === ',';
}

interface NumericArg {
  readonly cmp: '<' | '>' | '=';
  readonly n: number;
}

function numericArg(pred: string, text: string): NumericArg {
  const m = /^([+-]?)(\d+)$/.exec(text);
  if (m === null) throw new FindSyntaxError(`invalid argument \`${text}' to \`${pred}'`);
  return { cmp: m[1] === '+' ? '>' : m[1] === '-' ? '<' : '=', n: Number(m[2]) };
}

function compare(value: number, a: NumericArg): boolean {
  return a.cmp === '>' ? value > a.n : a.cmp === '<' ? value < a.n : value === a.n;
}

const SIZE_UNITS: Readonly<Record<string, number>> = {
  c: 1,
  w: 2,
  b: 512,
  k: 1024,
  M: 1024 ** 2,
  G: 1024 ** 3,
};

class Parser {
  private i = 0;
  readonly warnings: string[] = [];
  readonly options: FindOptions = {
    maxDepth: Number.POSITIVE_INFINITY,
    minDepth: 0,
    depthFirst: false,
    xdev: false,
    follow: 'never',
  };
  hasAction = false;
  batches = 0;
  private regexType: RegexType = 'findutils-default';
  private dayStart = false;
  private sawTest = false;

  constructor(
    private readonly args: readonly string[],
    private readonly ctx: CommandContext,
    private readonly now: number,
  ) {}

  parse(): Node | undefined {
    if (this.args.length === 0) return undefined;
    const expr = this.parseComma();
    if (this.i < this.args.length) {
      const t = this.args[this.i] as string;
      if (t === ')') throw new FindSyntaxError("you have too many ')'");
      throw new FindSyntaxError(`paths must precede expression: \`${t}'`);
    }
    return expr;
  }

  private peek(): string | undefined {
    return this.args[this.i];
  }

  private parseComma(): Node {
    let left = this.parseOr();
    while (this.peek() === ',') {
      this.i += 1;
      if (this.peek() === undefined || this.peek() === ')')
        throw new FindSyntaxError("expected an expression after ','");
      left = { kind: 'comma', left, right: this.parseOr() };
    }
    return left;
  }

  private parseOr(): Node {
    let left = this.parseAnd();
    while (this.peek() === '-o' || this.peek() === '-or') {
      const op = this.args[this.i] as string;
      this.i += 1;
      if (this.peek() === undefined || this.peek() === ')' || this.peek() === ',')
        throw new FindSyntaxError(`expected an expression after '${op}'`);
      left = { kind: 'or', left, right: this.parseAnd() };
    }
    return left;
  }

  private parseAnd(): Node {
    let left = this.parseNot();
    for (;;) {
      const t = this.peek();
      if (t === undefined || t === ')' || t === ',' || t === '-o' || t === '-or') return left;
      if (t === '-a' || t === '-and') {
        this.i += 1;
        if (this.peek() === undefined || this.peek() === ')')
          throw new FindSyntaxError(`expected an expression after '${t}'`);
      }
      left = { kind: 'and', left, right: this.parseNot() };
    }
  }

  private parseNot(): Node {
    const t = this.peek();
    if (t === '!' || t === '-not') {
      this.i += 1;
      if (this.peek() === undefined || this.peek() === ')')
        throw new FindSyntaxError(`expected an expression after '${t}'`);
      return { kind: 'not', expr: this.parseNot() };
    }
    return this.parsePrimary();
  }

  private parsePrimary(): Node {
    const t = this.peek();
    if (t === undefined) throw new FindSyntaxError('invalid expression');
    if (t === '(') {
      this.i += 1;
      if (this.peek() === ')')
        throw new FindSyntaxError('invalid expression; empty parentheses are not allowed.');
      const inner = this.parseComma();
      if (this.peek() !== ')')
        throw new FindSyntaxError(
          "invalid expression; I was expecting to find a ')' somewhere but did not see one.",
        );
      this.i += 1;
      return inner;
    }
    if (t === '-a' || t === '-and' || t === '-o' || t === '-or')
      throw new FindSyntaxError(
        `invalid expression; you have used a binary operator '${t}' with nothing before it.`,
      );
    if (t === ')') throw new FindSyntaxError("invalid expression; you have too many ')'");
    this.i += 1;
    return this.predicate(t);
  }

  private arg(pred: string): string {
    const v = this.args[this.i];
    if (v === undefined) throw new FindSyntaxError(`missing argument to \`${pred}'`);
    this.i += 1;
    return v;
  }

  private always(name: string): Node {
    return { kind: 'pred', name, eval: () => true };
  }

  /** GNU warns only when its input is a terminal, which the virtual shell never has, or with -warn. */
  private warn = false;

  private globalOption(name: string): void {
    if (this.sawTest && this.warn)
      this.warnings.push(
        `warning: you have specified the global option ${name} after the argument ${this.lastTest}, but global options are not positional, i.e., ${name} affects tests specified before it as well as those specified after it.  Please specify global options before other arguments.`,
      );
  }

  private lastTest = '';

  private predicate(name: string): Node {
    const ctx = this.ctx;
    if (!name.startsWith('-') || name.length < 2)
      throw new FindSyntaxError(`paths must precede expression: \`${name}'`);
    if (ACTIONS.has(name)) this.hasAction = true;
    const isOption = [
      '-maxdepth',
      '-mindepth',
      '-depth',
      '-d',
      '-xdev',
      '-mount',
      '-noleaf',
      '-ignore_readdir_race',
      '-noignore_readdir_race',
      '-warn',
      '-nowarn',
      '-regextype',
      '-daystart',
      '-follow',
    ].includes(name);
    if (!isOption) {
      this.sawTest = true;
      this.lastTest = name;
    }
    switch (name) {
      case '-maxdepth':
      case '-mindepth': {
        const v = this.arg(name);
        if (!/^\d+$/.test(v))
          throw new FindSyntaxError(
            `Expected a positive decimal integer argument to ${name}, but got ${quoteValue(v)}`,
          );
        this.globalOption(name);
        if (name === '-maxdepth') this.options.maxDepth = Number(v);
        else this.options.minDepth = Number(v);
        return this.always(name);
      }
      case '-depth':
      case '-d':
        this.globalOption(name);
        this.options.depthFirst = true;
        return this.always(name);
      case '-xdev':
      case '-mount':
        this.globalOption(name);
        this.options.xdev = true;
        return this.always(name);
      case '-noleaf':
      case '-ignore_readdir_race':
      case '-noignore_readdir_race':
        return this.always(name);
      case '-warn':
      case '-nowarn':
        this.warn = name === '-warn';
        return this.always(name);
      case '-follow':
        this.options.follow = 'always';
        return this.always(name);
      case '-daystart':
        this.dayStart = true;
        return this.always(name);
      case '-regextype': {
        const v = this.arg(name);
        if (!(REGEX_TYPES as readonly string[]).includes(v))
          throw new FindSyntaxError(
            `Unknown regular expression type ${quoteValue(v)}; valid types are ${REGEX_TYPES.map((t) => quoteValue(t)).join(', ')}.`,
          );
        this.regexType = v as RegexType;
        return this.always(name);
      }
      case '-true':
        return this.always(name);
      case '-false':
        return { kind: 'pred', name, eval: () => false };
      case '-name':
      case '-iname': {
        const pattern = this.arg(name);
        const icase = name === '-iname';
        if (this.warn && pattern.includes('/') && pattern !== '/')
          this.warnings.push(
            `warning: ${quoteValue(name)} matches against basenames only, but the given pattern contains a directory separator (${quoteValue('/')}), thus the expression will evaluate to false all the time.  Did you mean ${quoteValue('-wholename')}?`,
          );
        const matches = compileFnmatch(pattern, { ignoreCase: icase });
        return { kind: 'pred', name, eval: (e) => matches(baseOf(e)) };
      }
      case '-path':
      case '-wholename':
      case '-ipath':
      case '-iwholename': {
        const pattern = this.arg(name);
        const icase = name.startsWith('-i');
        const matches = compileFnmatch(pattern, { ignoreCase: icase });
        return { kind: 'pred', name, eval: (e) => matches(e.path) };
      }
      case '-lname':
      case '-ilname': {
        const pattern = this.arg(name);
        const icase = name === '-ilname';
        return {
          kind: 'pred',
          name,
          eval: async (e, _s, svc) => {
            if (e.st.type !== 'symlink') return false;
            const target = await svc.readlink(e);
            return target !== undefined && fnmatch(pattern, target, { ignoreCase: icase });
          },
        };
      }
      case '-regex':
      case '-iregex': {
        const pattern = this.arg(name);
        let re: ReturnType<typeof compileFindRegex>;
        try {
          re = compileFindRegex(pattern, this.regexType, name === '-iregex');
        } catch (error) {
          throw new FindSyntaxError(`${error instanceof Error ? error.message : String(error)}`);
        }
        return { kind: 'pred', name, eval: (e) => re.test(e.path) };
      }
      case '-type':
      case '-xtype': {
        const v = this.arg(name);
        const letters = v.split(',');
        for (const l of letters) {
          if (l.length !== 1 || !'bcdpflsD'.includes(l)) {
            if (l === '')
              throw new FindSyntaxError(`Arguments to ${name} should contain at least one letter`);
            throw new FindSyntaxError(`Unknown argument to ${name}: ${l}`);
          }
        }
        const want = new Set(letters);
        if (name === '-type') return { kind: 'pred', name, eval: (e) => want.has(typeLetter(e.st)) };
        return {
          kind: 'pred',
          name,
          eval: async (e, _s, svc) => {
            // -xtype looks through a link (or, under -L, at the link itself).
            if (this.options.follow === 'always') {
              const own = await svc.lstatOf(e);
              return want.has(typeLetter(own ?? e.st));
            }
            if (e.st.type !== 'symlink') return want.has(typeLetter(e.st));
            const target = await svc.targetStat(e);
            return want.has(target === undefined ? 'l' : typeLetter(target));
          },
        };
      }
      case '-size': {
        const v = this.arg(name);
        const m = /^([+-]?)(\d+)([cwbkMG]?)$/.exec(v);
        if (m === null) {
          const unit = /^[+-]?\d+(.)/.exec(v)?.[1];
          if (unit !== undefined) throw new FindSyntaxError(`invalid -size type \`${unit}'`);
          throw new FindSyntaxError(`invalid argument \`${v}' to \`-size'`);
        }
        const unit = SIZE_UNITS[m[3] || 'b'] as number;
        const arg: NumericArg = { cmp: m[1] === '+' ? '>' : m[1] === '-' ? '<' : '=', n: Number(m[2]) };
        return { kind: 'pred', name, eval: (e) => compare(Math.ceil(e.st.size / unit), arg) };
      }
      case '-empty':
        return {
          kind: 'pred',
          name,
          eval: async (e, _s, svc) => {
            if (e.st.type === 'file') return e.st.size === 0;
            if (e.st.type !== 'directory') return false;
            return svc.isEmptyDirectory(e);
          },
        };
      case '-mtime':
      case '-atime':
      case '-ctime':
      case '-mmin':
      case '-amin':
      case '-cmin': {
        const v = this.arg(name);
        const arg = numericArg(name, v);
        const which = name[1] as 'm' | 'a' | 'c';
        const minutes = name.endsWith('min');
        const base = this.dayStart ? startOfTomorrow(this.now, this.ctx) : this.now;
        return {
          kind: 'pred',
          name,
          eval: (e) => {
            const t = which === 'm' ? e.st.mtimeMs : which === 'a' ? e.st.atimeMs : e.st.ctimeMs;
            const delta = (base - t) / 1000;
            const units = minutes ? delta / 60 : delta / 86400;
            return compare(minutes ? Math.ceil(units) : Math.floor(units), arg);
          },
        };
      }
      case '-newer':
      case '-anewer':
      case '-cnewer': {
        const ref = this.arg(name);
        const which = name === '-newer' ? 'm' : name === '-anewer' ? 'a' : 'c';
        return this.newerThan(name, ref, which, 'm');
      }
      case '-used': {
        const arg = numericArg(name, this.arg(name));
        return {
          kind: 'pred',
          name,
          eval: (e) => compare(Math.ceil((e.st.atimeMs - e.st.ctimeMs) / 86_400_000), arg),
        };
      }
      case '-perm': {
        const v = this.arg(name);
        let kind: 'exact' | 'all' | 'any' = 'exact';
        let text = v;
        if (v.startsWith('-')) {
          kind = 'all';
          text = v.slice(1);
        } else if (v.startsWith('/')) {
          kind = 'any';
          text = v.slice(1);
        } else if (v.startsWith('+') && /^\+[0-7]+$/.test(v)) {
          throw new FindSyntaxError(`invalid mode ${quoteValue(v)}`);
        }
        const change = compileMode(text);
        if (change === undefined) throw new FindSyntaxError(`invalid mode ${quoteValue(v)}`);
        const mode = applyMode(0, false, 0, change).mode;
        const dirMode = applyMode(0, true, 0, change).mode;
        return {
          kind: 'pred',
          name,
          eval: (e) => {
            const want = e.st.type === 'directory' ? dirMode : mode;
            const have = e.st.mode & 0o7777;
            if (kind === 'exact') return have === want;
            if (kind === 'all') return (have & want) === want;
            return want === 0 || (have & want) !== 0;
          },
        };
      }
      case '-user':
      case '-uid':
      case '-group':
      case '-gid': {
        const v = this.arg(name);
        const isUser = name === '-user' || name === '-uid';
        const me = identityOf(ctx);
        let id: number | undefined;
        if (/^\d+$/.test(v)) id = Number(v);
        else if (name === '-user' || name === '-group') {
          if (v === 'root') id = 0;
          else if (isUser && v === me.user) id = me.uid;
          else if (!isUser && v === me.group) id = me.gid;
        }
        if (name === '-uid' || name === '-gid') {
          const arg = numericArg(name, v);
          return { kind: 'pred', name, eval: (e) => compare(isUser ? e.st.uid : e.st.gid, arg) };
        }
        if (id === undefined)
          throw new FindSyntaxError(
            `${quoteValue(v)} is not the name of a known ${isUser ? 'user' : 'group'}`,
          );
        const want = id;
        return { kind: 'pred', name, eval: (e) => (isUser ? e.st.uid : e.st.gid) === want };
      }
      case '-nouser':
      case '-nogroup': {
        const me = identityOf(ctx);
        return {
          kind: 'pred',
          name,
          eval: (e) =>
            name === '-nouser'
              ? e.st.uid !== 0 && e.st.uid !== me.uid
              : e.st.gid !== 0 && e.st.gid !== me.gid,
        };
      }
      case '-links':
      case '-inum': {
        const arg = numericArg(name, this.arg(name));
        return { kind: 'pred', name, eval: (e) => compare(name === '-links' ? e.st.nlink : e.st.ino, arg) };
      }
      case '-samefile': {
        const ref = this.arg(name);
        let refStat: VfsStat | undefined | null = null;
        return {
          kind: 'pred',
          name,
          eval: async (e, _s, svc) => {
            if (refStat === null) refStat = await svc.statOf(ref);
            return refStat !== undefined && refStat.ino === e.st.ino && refStat.dev === e.st.dev;
          },
        };
      }
      case '-readable':
      case '-writable':
      case '-executable': {
        const bit = name === '-readable' ? 4 : name === '-writable' ? 2 : 1;
        const me = identityOf(ctx);
        return {
          kind: 'pred',
          name,
          eval: (e) => {
            if (me.uid === 0) return bit !== 1 || e.st.type === 'directory' || (e.st.mode & 0o111) !== 0;
            const shift = e.st.uid === me.uid ? 6 : e.st.gid === me.gid ? 3 : 0;
            return ((e.st.mode >> shift) & bit) !== 0;
          },
        };
      }
      case '-prune':
        return {
          kind: 'pred',
          name,
          eval: (_e, s) => {
            if (!this.options.depthFirst) s.prune = true;
            return true;
          },
        };
      case '-quit':
        return {
          kind: 'pred',
          name,
          eval: (_e, s) => {
            s.quit = true;
            return true;
          },
        };
      case '-print':
        return {
          kind: 'pred',
          name,
          eval: (e, _s, svc) => {
            svc.print(`${e.path}\n`);
            return true;
          },
        };
      case '-print0':
        return {
          kind: 'pred',
          name,
          eval: (e, _s, svc) => {
            svc.print(`${e.path}\0`);
            return true;
          },
        };
      case '-printf': {
        const v = this.arg(name);
        let format: CompiledFormat;
        try {
          format = compilePrintf(v);
        } catch (error) {
          throw new FindSyntaxError(error instanceof Error ? error.message : String(error));
        }
        this.warnings.push(...format.warnings);
        return { kind: 'pred', name, eval: (e, _s, svc) => svc.printf(format, e) };
      }
      case '-ls':
        return {
          kind: 'pred',
          name,
          eval: async (e, _s, svc) => {
            await svc.ls(e);
            return true;
          },
        };
      case '-fprint':
      case '-fprint0':
      case '-fprintf':
      case '-fls':
        throw new FindSyntaxError(
          `${name} is not supported in berth's virtual shell (write to standard output and redirect it)`,
        );
      case '-delete':
        this.options.depthFirst = true;
        return { kind: 'pred', name, eval: (e, _s, svc) => svc.remove(e) };
      case '-ok':
      case '-okdir':
        throw new FindSyntaxError(`${name} needs a terminal to ask on, and this shell has none (use -exec)`);
      case '-exec':
      case '-execdir':
        return this.exec(name);
      case '-context':
        this.arg(name);
        return { kind: 'pred', name, eval: () => false };
      default: {
        const m = /^-newer([amcB])([amcBt])$/.exec(name);
        if (m !== null) {
          const ref = this.arg(name);
          return this.newerThan(
            name,
            ref,
            m[1] as 'a' | 'm' | 'c' | 'B',
            m[2] as 'a' | 'm' | 'c' | 'B' | 't',
          );
        }
        if (name === '-help' || name === '--help' || name === '-version' || name === '--version') {
          throw new FindSyntaxError(`${name} must come first`);
        }
        throw new FindSyntaxError(`unknown predicate \`${name}'`);
      }
    }
  }

  /** -newer and -newerXY: X of the file against Y of the reference (or `t`: a date string). */
  private newerThan(
    name: string,
    ref: string,
    x: 'a' | 'm' | 'c' | 'B',
    y: 'a' | 'm' | 'c' | 'B' | 't',
  ): Node {
    if (x === 'B' || y === 'B')
      throw new FindSyntaxError(
        `This system does not provide a way to find the birth time of ${quoteValue(ref)}`,
      );
    let refTime: number | undefined | null = null;
    if (y === 't') {
      const parsed = parseDatetime(ref, {
        now: { seconds: Math.floor(this.now / 1000), nanos: 0 },
        zone: timeZoneFromEnv(this.ctx.env),
      });
      if (parsed === undefined)
        throw new FindSyntaxError(
          `I cannot figure out how to interpret ${quoteValue(ref)} as a date or time`,
        );
      refTime = parsed.seconds * 1000 + parsed.nanos / 1e6;
    }
    const pick = (st: VfsStat, w: 'a' | 'm' | 'c'): number =>
      w === 'a' ? st.atimeMs : w === 'c' ? st.ctimeMs : st.mtimeMs;
    return {
      kind: 'pred',
      name,
      eval: async (e, _s, svc) => {
        if (refTime === null) {
          const st = await svc.statOf(ref);
          if (st === undefined) return false;
          refTime = pick(st, y as 'a' | 'm' | 'c');
        }
        return refTime !== undefined && pick(e.st, x) > refTime;
      },
    };
  }

  private exec(name: string): Node {
    this.hasAction = true;
    const words: string[] = [];
    let plus = false;
    for (;;) {
      const w = this.args[this.i];
      if (w === undefined) throw new FindSyntaxError(`missing argument to \`${name}'`);
      this.i += 1;
      if (w === ';') break;
      if (w === '+' && words.length > 0 && words[words.length - 1] === '{}') {
        plus = true;
        words.pop();
        break;
      }
      words.push(w);
    }
    if (words.length === 0) throw new FindSyntaxError(`missing argument to \`${name}'`);
    const inDir = name === '-execdir';
    if (plus) {
      if (words.some((w) => w.includes('{}')))
        throw new FindSyntaxError(`Only one instance of {} is supported with ${name} ... +`);
      const id = this.batches;
      this.batches += 1;
      return {
        kind: 'pred',
        name,
        eval: async (e, _s, svc) => {
          await svc.batch(id, words, inDir ? `./${baseOf(e)}` : e.path, inDir ? e.dirFsPath : undefined);
          return true;
        },
      };
    }
    return {
      kind: 'pred',
      name,
      eval: async (e, _s, svc) => {
        const replacement = inDir ? `./${baseOf(e)}` : e.path;
        const argv = words.map((w) => w.split('{}').join(replacement));
        return (await svc.exec(argv, inDir ? e.dirFsPath : undefined)) === 0;
      },
    };
  }
}

/** The base name a pattern test sees (the whole starting point when it has no slash). */
export function baseOf(e: FindEntry): string {
  if (e.depth > 0) return e.name;
  const trimmed = e.path.replace(/\/+$/, '');
  if (trimmed === '') return '/';
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** -daystart: times are measured from the start of tomorrow (GNU's "the beginning of today + 1 day"). */
function startOfTomorrow(now: number, ctx: CommandContext): number {
  const zone = timeZoneFromEnv(ctx.env);
  const t = localTime(now, zone);
  const midnight = now - ((t.hour * 60 + t.minute) * 60 + t.second) * 1000 - (now % 1000);
  return midnight + 86_400_000;
}

/** Parse the expression part of find's arguments. */
export function parseFindExpression(args: readonly string[], ctx: CommandContext, nowMs: number): ParsedFind {
  const p = new Parser(args, ctx, nowMs);
  const parsed = p.parse();
  let expr: Node;
  if (parsed === undefined) expr = printNode();
  else if (!p.hasAction) expr = { kind: 'and', left: parsed, right: printNode() };
  else expr = parsed;
  return { expr, options: p.options, hasAction: p.hasAction, warnings: p.warnings, batches: p.batches };
}

function printNode(): Node {
  return {
    kind: 'pred',
    name: '-print',
    eval: (e, _s, svc) => {
      svc.print(`${e.path}\n`);
      return true;
    },
  };
}

/** Primaries that look at nothing but an entry's name, path and type. */
const NAME_AND_TYPE_ONLY = new Set([
  '-name',
  '-iname',
  '-path',
  '-wholename',
  '-ipath',
  '-iwholename',
  '-regex',
  '-iregex',
  '-type',
  '-print',
  '-print0',
  '-prune',
  '-true',
  '-false',
  '-quit',
]);

/**
 * Whether evaluating `node` needs only what a directory listing gives (name and type), so the
 * walk may skip the per-entry `lstat`, as GNU find does with `d_type`.
 */
export function needsOnlyNameAndType(node: Node): boolean {
  return everyPrimary(node, (name) => NAME_AND_TYPE_ONLY.has(name));
}

/** Whether `test` holds for the name of every primary in `node`. */
function everyPrimary(node: Node, test: (name: string) => boolean): boolean {
  switch (node.kind) {
    case 'and':
    case 'or':
    case 'comma':
      return everyPrimary(node.left, test) && everyPrimary(node.right, test);
    case 'not':
      return everyPrimary(node.expr, test);
    default:
      return test(node.name);
  }
}

/** Actions that may change the tree the walk is in: commands, deletion, files written. */
const CHANGING = new Set([
  '-exec',
  '-execdir',
  '-ok',
  '-okdir',
  '-delete',
  '-fprint',
  '-fprint0',
  '-fprintf',
  '-fls',
]);

/** Whether evaluating `node` leaves the filesystem as it was (so listings may be read ahead). */
export function onlyReads(node: Node): boolean {
  return everyPrimary(node, (name) => !CHANGING.has(name));
}

/**
 * Evaluate `node` for `e`: synchronously while every primary answers synchronously (most do), so
 * a walk over many entries does not pay a promise per node.
 */
export function evaluate(
  node: Node,
  e: FindEntry,
  s: EvalState,
  svc: FindServices,
): boolean | Promise<boolean> {
  switch (node.kind) {
    case 'and': {
      const left = evaluate(node.left, e, s, svc);
      if (left instanceof Promise) return left.then((l) => l && !s.quit && evaluate(node.right, e, s, svc));
      return left && !s.quit && evaluate(node.right, e, s, svc);
    }
    case 'or': {
      const left = evaluate(node.left, e, s, svc);
      if (left instanceof Promise) return left.then((l) => l || (!s.quit && evaluate(node.right, e, s, svc)));
      return left || (!s.quit && evaluate(node.right, e, s, svc));
    }
    case 'comma': {
      const left = evaluate(node.left, e, s, svc);
      if (left instanceof Promise) return left.then(() => (s.quit ? false : evaluate(node.right, e, s, svc)));
      return s.quit ? false : evaluate(node.right, e, s, svc);
    }
    case 'not': {
      const inner = evaluate(node.expr, e, s, svc);
      return inner instanceof Promise ? inner.then((v) => !v) : !inner;
    }
    case 'pred':
      return node.eval(e, s, svc);
  }
}

export { TAKES_ARGUMENT };
