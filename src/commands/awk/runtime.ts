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
  recordMode: RecordMode = { kind: 'char', char: '\n', other: undefined };
  private splitter: Splitter;
  private fsSource = ' ';
  private splitMode: 'fs' | 'widths' | 'pattern' = 'fs';

  // The record.
  private record = '';
  private recordStale = false;
  private readonly fields: Value[] = [];
  private assigned: boolean[] | undefined;
  private nf = 0;
  private split = true;
  private recordSplitter: Splitter;

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
    g[SLOT.RLENGTH] = -1;
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
    this.recordSplitter = this.splitter;
  }

  array(slot: number): AwkArray {
    return this.globals[slot] as AwkArray;
  }

  // ---- conversions -------------------------------------------------------------------------

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
  }

  private updateRecordMode(): void {
    const rs = this.toStr(this.globals[SLOT.RS] as Value);
    const wasParagraph = this.recordMode.kind === 'paragraph';
    if (rs === '') {
      this.recordMode = { kind: 'paragraph', newlines: compileRegex('\n\n+', false) };
    } else if (rs.length === 1 && rs !== '\\') {
      const lower = rs.toLowerCase();
      const upper = rs.toUpperCase();
      this.recordMode =
        this.ignoreCase && lower !== upper
          ? { kind: 'char', char: lower, other: upper }
          : { kind: 'char', char: rs, other: undefined };
    } else {
      this.recordMode = { kind: 'regex', regex: compileRegex(rs === '\\' ? '\\\\' : rs, this.ignoreCase) };
    }
    if (wasParagraph !== (this.recordMode.kind === 'paragraph')) this.updateSplitter();
  }

  // ---- the record --------------------------------------------------------------------------

  /** A new record (from input or `$0 = ...`): fields are split when first needed. */
  setRecord(text: string): void {
    this.record = text;
    this.recordStale = false;
    this.split = false;
    this.assigned = undefined;
    this.recordSplitter = this.splitter;
  }

  private ensureSplit(): void {
    if (this.split) return;
    const fields = this.fields;
    fields.length = 0;
    this.recordSplitter(this.record, fields as string[], undefined);
    this.nf = fields.length;
    this.split = true;
    this.globals[SLOT.NF] = this.nf;
  }

  /** `$0` as text. */
  recordText(): string {
    if (this.recordStale) this.rebuild();
    return this.record;
  }

  /** `$i` as text. */
  fieldText(i: number): string {
    if (i === 0) return this.recordText();
    if (!this.split) this.ensureSplit();
    if (i > this.nf) return '';
    const f = this.fields[i - 1];
    return typeof f === 'string' ? f : this.toStr(f);
  }

  /** `$i` as a number. */
  fieldNum(i: number): number {
    if (i === 0) return toNum(this.recordText());
    if (!this.split) this.ensureSplit();
    if (i > this.nf) return 0;
    return toNum(this.fields[i - 1]);
  }

  /** `$i` as a value (input text that looks numeric is a strnum). */
  fieldValue(i: number): Value {
    if (i === 0) return inputValue(this.recordText());
    if (!this.split) this.ensureSplit();
    if (i > this.nf) return '';
    const f = this.fields[i - 1];
    if (typeof f === 'string' && this.assigned?.[i - 1] !== true) return inputValue(f);
    return f;
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
    if (i === 0) {
      this.setRecord(this.checkLength(this.toStr(v), at));
      return;
    }
    this.ensureSplit();
    const fields = this.fields;
    while (this.nf < i) {
      fields.push('');
      this.nf += 1;
    }
    fields[i - 1] = v;
    this.assigned ??= [];
    this.assigned[i - 1] = true;
    this.globals[SLOT.NF] = this.nf;
    this.recordStale = true;
  }

  getNF(): number {
    if (!this.split) this.ensureSplit();
    return this.nf;
  }

  setNF(n: number, at: SourcePosition | undefined): void {
    this.ensureSplit();
    const count = Math.trunc(n);
    if (count < 0 || Number.isNaN(count)) throw new AwkFatalError(`NF set to negative value`, at);
    if (count > this.limits.maxFields) {
      throw new AwkFatalError(
        `NF set to ${count}, beyond the limit of ${this.limits.maxFields} fields of this shell`,
        at,
      );
    }
    const fields = this.fields;
    if (count < this.nf) fields.length = count;
    else while (fields.length < count) fields.push('');
    this.nf = count;
    this.globals[SLOT.NF] = count;
    this.recordStale = true;
  }

  private rebuild(): void {
    const parts: string[] = [];
    let size = 0;
    for (let i = 0; i < this.nf; i += 1) {
      const f = this.fields[i];
      const s = typeof f === 'string' ? f : this.toStr(f);
      size += s.length + this.ofs.length;
      if (size > this.limits.maxStringChars) {
        throw new AwkFatalError(
          `record longer than ${this.limits.maxStringChars} characters (the limit of this shell)`,
          undefined,
        );
      }
      parts.push(s);
    }
    this.record = parts.join(this.ofs);
    this.recordStale = false;
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
