/**
 * The state of one awk run that compiled code works on: variables (globals by slot, the current
 * function's locals), the current record and its fields (split lazily, rebuilt lazily after a
 * field changes), the special variables' effects (FS, RS, OFS, CONVFMT, IGNORECASE, ...), and the
 * conversions that depend on them.
 * @module
 */
import { AwkArray, ElementBudget } from './arrays.js';
import { AwkFatalError } from './errors.js';
import { fieldSplitter, patternSplitter, type Splitter, widthSplitter } from './fields.js';
import type { AwkLimits } from './limits.js';
import { numberToString } from './printf.js';
import { CurrentRecord, type LazySplit } from './record.js';
import type { RecordMode } from './records.js';
import { compileRegex } from './regex.js';
import type { SourcePosition } from './source.js';
import { inputValue, integerText, StrNum, toBool, toNum, type Value } from './values.js';

/** What a variable slot holds. */
export type Slot = Value | AwkArray;

/** The special variables, at fixed global slots. */
export const SPECIALS = [
  'NF',
  'NR',
  'FNR',
  'FS',
  'OFS',
  'ORS',
  'RS',
  'RT',
  'FILENAME',
  'SUBSEP',
  'RSTART',
  'RLENGTH',
  'CONVFMT',
  'OFMT',
  'IGNORECASE',
  'FIELDWIDTHS',
  'FPAT',
  'ERRNO',
  'ARGC',
  'BINMODE',
  'LINT',
  'TEXTDOMAIN',
  'ENVIRON',
  'ARGV',
  'PROCINFO',
] as const;

export type SpecialName = (typeof SPECIALS)[number];
export const SLOT: Readonly<Record<SpecialName, number>> = Object.fromEntries(
  SPECIALS.map((name, i) => [name, i]),
) as Record<SpecialName, number>;
export const SPECIAL_ARRAYS: ReadonlySet<string> = new Set(['ENVIRON', 'ARGV', 'PROCINFO']);

export class Runtime {
  readonly globals: Slot[];
  /** The locals of the function running now. */
  frame: Slot[] = [];
  readonly budget: ElementBudget;

  // Cached forms of special variables (kept in step by assignSpecial).
  convfmt = '%.6g';
  ofmt = '%.6g';
  ofs = ' ';
  ors = '\n';
  subsep = '\x1c';
  ignoreCase = false;
  recordMode: RecordMode = { kind: 'char', char: '\n' };
  private splitter: Splitter;
  private fsSource = ' ';
  private splitMode: 'fs' | 'widths' | 'pattern' = 'fs';

  /** The current record and its fields. */
  readonly rec: CurrentRecord;
  private lazy: LazySplit | undefined = { kind: 'blanks' };

  constructor(
    readonly limits: AwkLimits,
    globalCount: number,
  ) {
    this.globals = new Array<Slot>(globalCount).fill(undefined);
    this.budget = new ElementBudget(limits.maxArrayElements);
    const g = this.globals;
    g[SLOT.NF] = 0;
    g[SLOT.NR] = 0;
    g[SLOT.FNR] = 0;
    g[SLOT.FS] = ' ';
    g[SLOT.OFS] = ' ';
    g[SLOT.ORS] = '\n';
    g[SLOT.RS] = '\n';
    g[SLOT.RT] = '';
    g[SLOT.FILENAME] = '';
    g[SLOT.SUBSEP] = '\x1c';
    g[SLOT.RSTART] = 0;
    g[SLOT.RLENGTH] = 0;
    g[SLOT.CONVFMT] = '%.6g';
    g[SLOT.OFMT] = '%.6g';
    g[SLOT.IGNORECASE] = 0;
    g[SLOT.FIELDWIDTHS] = '';
    g[SLOT.FPAT] = '[^[:space:]]+';
    g[SLOT.ERRNO] = '';
    g[SLOT.ARGC] = 0;
    g[SLOT.BINMODE] = 0;
    g[SLOT.LINT] = 0;
    g[SLOT.TEXTDOMAIN] = 'messages';
    g[SLOT.ENVIRON] = new AwkArray(this.budget);
    g[SLOT.ARGV] = new AwkArray(this.budget);
    g[SLOT.PROCINFO] = new AwkArray(this.budget);
    this.splitter = fieldSplitter(' ', false, false);
    const rt = this;
    this.rec = new CurrentRecord(
      {
        toStr: (v) => rt.toStr(v),
        get ofs() {
          return rt.ofs;
        },
        maxChars: limits.maxStringChars,
        nfChanged: (nf) => {
          g[SLOT.NF] = nf;
        },
      },
      this.splitter,
    );
  }

  array(slot: number): AwkArray {
    return this.globals[slot] as AwkArray;
  }

  // ---- conversions -------------------------------------------------------------------------

  /** The longest string a program may build (for printf's widths). */
  get maxChars(): number {
    return this.limits.maxStringChars;
  }

  /** A value as a string (numbers through CONVFMT). */
  toStr(v: Value): string {
    if (typeof v === 'string') return v;
    if (typeof v === 'number')
      return Number.isInteger(v) ? integerText(v) : numberToString(v, this.convfmt, this);
    if (v === undefined) return '';
    return v.s;
  }

  /** A number as a string through CONVFMT. */
  numStr(n: number): string {
    return Number.isInteger(n) ? integerText(n) : numberToString(n, this.convfmt, this);
  }

  /** A value as `print` writes it (numbers through OFMT). */
  outStr(v: Value): string {
    if (typeof v === 'number')
      return Number.isInteger(v) ? integerText(v) : numberToString(v, this.ofmt, this);
    return this.toStr(v);
  }

  /** A string no longer than the limit. */
  checkLength(s: string, at: SourcePosition | undefined): string {
    if (s.length > this.limits.maxStringChars) {
      throw new AwkFatalError(
        `string longer than ${this.limits.maxStringChars} characters (the limit of this shell)`,
        at,
      );
    }
    return s;
  }

  // ---- special variables -------------------------------------------------------------------

  /** Store into a special slot and apply its effect. */
  assignSpecial(slot: number, v: Value): void {
    if (slot === SLOT.NF) {
      this.setNF(toNum(v), undefined);
      return;
    }
    this.globals[slot] = v;
    switch (slot) {
      case SLOT.FS:
        this.fsSource = this.toStr(v);
        this.splitMode = 'fs';
        this.updateSplitter();
        break;
      case SLOT.OFS:
        this.ofs = this.toStr(v);
        break;
      case SLOT.ORS:
        this.ors = this.toStr(v);
        break;
      case SLOT.RS:
        this.updateRecordMode();
        break;
      case SLOT.SUBSEP:
        this.subsep = this.toStr(v);
        break;
      case SLOT.CONVFMT:
        this.convfmt = this.toStr(v);
        break;
      case SLOT.OFMT:
        this.ofmt = this.toStr(v);
        break;
      case SLOT.IGNORECASE:
        this.ignoreCase = toBool(v);
        this.updateSplitter();
        this.updateRecordMode();
        break;
      case SLOT.FIELDWIDTHS:
        this.splitMode = 'widths';
        this.updateSplitter();
        break;
      case SLOT.FPAT:
        this.splitMode = 'pattern';
        this.updateSplitter();
        break;
    }
  }

  private updateSplitter(): void {
    const paragraph = this.recordMode.kind === 'paragraph';
    if (this.splitMode === 'widths') {
      const s = widthSplitter(this.toStr(this.globals[SLOT.FIELDWIDTHS] as Value));
      if (typeof s === 'string') throw new AwkFatalError(s, undefined);
      this.splitter = s;
    } else if (this.splitMode === 'pattern') {
      this.splitter = patternSplitter(this.toStr(this.globals[SLOT.FPAT] as Value), this.ignoreCase);
    } else {
      this.splitter = fieldSplitter(this.fsSource, this.ignoreCase, paragraph);
    }
    this.lazy = undefined;
    if (this.splitMode === 'fs' && !paragraph) {
      const fs = this.fsSource;
      if (fs === ' ') this.lazy = { kind: 'blanks' };
      else if (fs.length === 1 && fs !== '\\') {
        this.lazy = { kind: 'char', code: fs.charCodeAt(0) };
      }
    }
  }

  private updateRecordMode(): void {
    const rs = this.toStr(this.globals[SLOT.RS] as Value);
    const wasParagraph = this.recordMode.kind === 'paragraph';
    if (rs === '') {
      this.recordMode = { kind: 'paragraph', newlines: compileRegex('\n\n+', false) };
    } else if (rs.length === 1 && rs !== '\\') {
      // A single character is taken literally, IGNORECASE or not (as gawk does).
      this.recordMode = { kind: 'char', char: rs };
    } else {
      this.recordMode = { kind: 'regex', regex: compileRegex(rs === '\\' ? '\\\\' : rs, this.ignoreCase) };
    }
    if (wasParagraph !== (this.recordMode.kind === 'paragraph')) this.updateSplitter();
  }

  // ---- the record --------------------------------------------------------------------------

  /** A new record (from input or `$0 = ...`): fields are split when first needed. */
  setRecord(text: string): void {
    this.rec.set(text, this.splitter, this.lazy);
  }

  /** `$0` as text. */
  recordText(): string {
    return this.rec.recordText();
  }

  /** `$i` as text. */
  fieldText(i: number): string {
    return i === 0 ? this.rec.recordText() : this.rec.fieldText(i);
  }

  /** `$i` as a number. */
  fieldNum(i: number): number {
    return i === 0 ? toNum(this.rec.recordText()) : this.rec.fieldNum(i);
  }

  /** `$i` as a value (input text that looks numeric is a strnum). */
  fieldValue(i: number): Value {
    return i === 0 ? inputValue(this.rec.recordText()) : this.rec.fieldValue(i);
  }

  /** The field number an expression's value names (gawk's checks). */
  fieldIndex(n: number, at: SourcePosition | undefined): number {
    const i = Math.trunc(n);
    if (i >= 0 && i <= this.limits.maxFields) return i;
    if (Number.isNaN(n) || i < 0) throw new AwkFatalError(`attempt to access field ${integerText(i)}`, at);
    throw new AwkFatalError(
      `field number ${integerText(i)} is beyond the limit of ${this.limits.maxFields} fields of this shell`,
      at,
    );
  }

  setField(i: number, v: Value, at: SourcePosition | undefined): void {
    if (i === 0) this.setRecord(this.checkLength(this.toStr(v), at));
    else this.rec.setField(i, v, this.limits.maxFields);
  }

  getNF(): number {
    return this.rec.getNF();
  }

  setNF(n: number, at: SourcePosition | undefined): void {
    const count = Math.trunc(n);
    if (count < 0 || Number.isNaN(count)) throw new AwkFatalError('NF set to negative value', at);
    if (count > this.limits.maxFields) {
      throw new AwkFatalError(
        `NF set to ${count}, beyond the limit of ${this.limits.maxFields} fields of this shell`,
        at,
      );
    }
    this.rec.setNF(count);
  }

  /** Split `text` the way fields of a record are split now (for `split(s, a)`). */
  splitLikeRecord(text: string, out: string[], seps: string[] | undefined): void {
    this.splitter(text, out, seps);
  }

  /** An array subscript from a value (numbers through CONVFMT, integers as integers). */
  subscript(v: Value): string {
    if (typeof v === 'string') return v;
    if (v instanceof StrNum) return v.s;
    if (typeof v === 'number') return Number.isInteger(v) ? integerText(v) : this.numStr(v);
    return '';
  }
}
