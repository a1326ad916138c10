/**
 * The current record (`$0`) and its fields. Splitting is lazy twice over: nothing is split until
 * a field or NF is read, and with the default FS or a single-character FS only as many fields are
 * located as the program asks for, as offsets into the record, so `$3` of a long line neither
 * scans the rest of it nor allocates the other fields, and `$3 + 0` reads the number in place.
 * Assigning a field (or NF) turns the fields into values and marks `$0` for rebuilding with OFS,
 * which happens when `$0` is next read.
 * @module
 */
import { AwkFatalError } from './errors.js';
import type { Splitter } from './fields.js';
import { inputValue, strToNum, toNum, type Value } from './values.js';

/** How fields can be located without splitting the whole record. */
export type LazySplit = { readonly kind: 'blanks' } | { readonly kind: 'char'; readonly code: number };

export interface RecordHost {
  toStr(v: Value): string;
  readonly ofs: string;
  readonly maxChars: number;
  /** Called with the field count whenever it becomes known or changes. */
  nfChanged(nf: number): void;
}

const isBlank = (c: number): boolean => c === 32 || c === 9 || c === 10;

export class CurrentRecord {
  private text = '';
  private stale = false;
  private splitter: Splitter;
  private lazy: LazySplit | undefined;

  // Offsets of the fields located so far (lazy mode).
  private starts: number[] = [];
  private ends: number[] = [];
  private located = 0;
  private scanAt = 0;
  private complete = true;

  // Fields as values (after a full split or an assignment).
  private materialized = true;
  private readonly fields: Value[] = [];
  private assigned: boolean[] | undefined;
  private nf = 0;

  constructor(
    private readonly host: RecordHost,
    splitter: Splitter,
  ) {
    this.splitter = splitter;
  }

  /** A new `$0`, split later with `splitter` (and located lazily when `lazy` says how). */
  set(text: string, splitter: Splitter, lazy: LazySplit | undefined): void {
    this.text = text;
    this.stale = false;
    this.splitter = splitter;
    this.lazy = lazy;
    this.materialized = false;
    this.assigned = undefined;
    this.located = 0;
    this.scanAt = 0;
    this.complete = text === '';
  }

  /** `$0`. */
  recordText(): string {
    if (this.stale) this.rebuild();
    return this.text;
  }

  /** Locate fields until `count` are known (or the record ends). */
  private locate(count: number): void {
    const rec = this.text;
    const n = rec.length;
    let i = this.scanAt;
    const lazy = this.lazy as LazySplit;
    if (lazy.kind === 'blanks') {
      while (this.located < count) {
        while (i < n && isBlank(rec.charCodeAt(i))) i += 1;
        if (i >= n) {
          this.complete = true;
          break;
        }
        const s = i;
        while (i < n && !isBlank(rec.charCodeAt(i))) i += 1;
        this.starts[this.located] = s;
        this.ends[this.located] = i;
        this.located += 1;
      }
    } else {
      const code = lazy.code;
      while (this.located < count && !this.complete) {
        let at = i;
        while (at < n && rec.charCodeAt(at) !== code) at += 1;
        this.starts[this.located] = i;
        this.ends[this.located] = at;
        this.located += 1;
        if (at >= n) {
          this.complete = true;
          i = n;
          break;
        }
        i = at + 1;
      }
    }
    this.scanAt = i;
  }

  private materialize(): void {
    if (this.materialized) return;
    const fields = this.fields;
    if (this.lazy !== undefined) {
      this.locate(Number.POSITIVE_INFINITY);
      const count = this.located;
      fields.length = count;
      for (let k = 0; k < count; k += 1) fields[k] = this.text.slice(this.starts[k], this.ends[k]);
      this.nf = count;
    } else {
      const out: string[] = [];
      this.splitter(this.text, out, undefined);
      fields.length = out.length;
      for (let k = 0; k < out.length; k += 1) fields[k] = out[k];
      this.nf = out.length;
    }
    this.materialized = true;
    this.host.nfChanged(this.nf);
  }

  /** `$i` as text (i ≥ 1). */
  fieldText(i: number): string {
    if (!this.materialized && this.lazy !== undefined) {
      if (i > this.located) this.locate(i);
      if (i > this.located) return '';
      return this.text.slice(this.starts[i - 1], this.ends[i - 1]);
    }
    this.materialize();
    if (i > this.nf) return '';
    const f = this.fields[i - 1];
    return typeof f === 'string' ? f : this.host.toStr(f);
  }

  /** `$i` as a number (i ≥ 1), read in place when possible. */
  fieldNum(i: number): number {
    if (!this.materialized && this.lazy !== undefined) {
      if (i > this.located) this.locate(i);
      if (i > this.located) return 0;
      return rangeToNum(this.text, this.starts[i - 1] as number, this.ends[i - 1] as number);
    }
    this.materialize();
    if (i > this.nf) return 0;
    return toNum(this.fields[i - 1]);
  }

  /** `$i` as a value: input that looks numeric is a strnum (i ≥ 1). */
  fieldValue(i: number): Value {
    if (!this.materialized && this.lazy !== undefined) return inputValue(this.fieldText(i));
    this.materialize();
    if (i > this.nf) return '';
    const f = this.fields[i - 1];
    if (typeof f === 'string' && this.assigned?.[i - 1] !== true) return inputValue(f);
    return f;
  }

  getNF(): number {
    this.materialize();
    return this.nf;
  }

  setField(i: number, v: Value, maxFields: number): void {
    this.materialize();
    if (i > maxFields)
      throw new AwkFatalError(
        `field number ${i} is beyond the limit of ${maxFields} fields of this shell`,
        undefined,
      );
    const fields = this.fields;
    while (this.nf < i) {
      fields[this.nf] = '';
      this.nf += 1;
    }
    fields[i - 1] = v;
    this.assigned ??= [];
    this.assigned[i - 1] = true;
    this.stale = true;
    this.host.nfChanged(this.nf);
  }

  setNF(count: number): void {
    this.materialize();
    const fields = this.fields;
    if (count < this.nf) fields.length = count;
    else while (fields.length < count) fields.push('');
    this.nf = count;
    this.stale = true;
    this.host.nfChanged(count);
  }

  private rebuild(): void {
    const ofs = this.host.ofs;
    const parts: string[] = [];
    let size = 0;
    for (let k = 0; k < this.nf; k += 1) {
      const f = this.fields[k];
      const s = typeof f === 'string' ? f : this.host.toStr(f);
      size += s.length + ofs.length;
      if (size > this.host.maxChars) {
        throw new AwkFatalError(
          `record longer than ${this.host.maxChars} characters (the limit of this shell)`,
          undefined,
        );
      }
      parts.push(s);
    }
    this.text = parts.join(ofs);
    this.stale = false;
  }
}

/** The number in `s[start, end)`: digits are read in place, anything else through strToNum. */
function rangeToNum(s: string, start: number, end: number): number {
  const len = end - start;
  if (len > 0 && len <= 15) {
    let v = 0;
    let k = start;
    for (; k < end; k += 1) {
      const c = s.charCodeAt(k);
      if (c < 48 || c > 57) break;
      v = v * 10 + (c - 48);
    }
    if (k === end) return v;
  }
  return strToNum(s.slice(start, end));
}
