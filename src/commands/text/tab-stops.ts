/**
 * Tab stops as GNU `expand` and `unexpand` read them (`-t 4`, `-t 2,6,10`, `-t 4,/8`,
 * `-t 4,+8`), with GNU's messages, and the next stop after a column.
 * @module
 */
import { quoteValue } from '../gnu-quote.js';

export class TabStopError extends Error {}

export class TabStops {
  private readonly list: bigint[] = [];
  private extend = 0n;
  private increment = 0n;
  /** One size for every stop (0 when there is a list). */
  private size = 0n;
  /** The widest gap between stops (how many blanks `unexpand` may hold). */
  maxColumnWidth = 0n;

  /** Add the stops of one `-t` argument. Throws {@link TabStopError}. */
  parse(stops: string): void {
    let have = false;
    let value = 0n;
    let extendValue = false;
    let incrementValue = false;
    let numStart = 0;
    const errors: string[] = [];
    const finish = (): boolean => {
      if (extendValue) {
        if (this.extend !== 0n) {
          errors.push("'/' specifier only allowed with the last value");
          return false;
        }
        this.extend = value;
      } else if (incrementValue) {
        if (this.increment !== 0n) {
          errors.push("'+' specifier only allowed with the last value");
          return false;
        }
        this.increment = value;
      } else this.add(value);
      return true;
    };
    let i = 0;
    for (; i < stops.length; i += 1) {
      const c = stops[i] as string;
      if (c === ',' || c === ' ' || c === '\t') {
        if (have && !finish()) break;
        have = false;
      } else if (c === '/') {
        if (have) errors.push(`'/' specifier not at start of number: ${quoteValue(stops.slice(i))}`);
        extendValue = true;
        incrementValue = false;
      } else if (c === '+') {
        if (have) errors.push(`'+' specifier not at start of number: ${quoteValue(stops.slice(i))}`);
        incrementValue = true;
        extendValue = false;
      } else if (c >= '0' && c <= '9') {
        if (!have) {
          value = 0n;
          have = true;
          numStart = i;
        }
        value = value * 10n + BigInt(c.charCodeAt(0) - 48);
        if (value > (1n << 64n) - 1n) {
          const digits = /^\d*/.exec(stops.slice(numStart))?.[0] ?? '';
          errors.push(`tab stop is too large ${quoteValue(digits)}`);
          i = numStart + digits.length - 1;
          have = false;
        }
      } else {
        errors.push(`tab size contains invalid character(s): ${quoteValue(stops.slice(i))}`);
        break;
      }
    }
    if (errors.length === 0 && have) finish();
    if (errors.length > 0) throw new TabStopError(errors.join('\n'));
  }

  private add(value: bigint): void {
    const prev = this.list[this.list.length - 1] ?? 0n;
    const width = prev <= value ? value - prev : 0n;
    this.list.push(value);
    if (width > this.maxColumnWidth) this.maxColumnWidth = width;
  }

  /** Validate and settle (GNU's `finalize_tab_stops`). Throws {@link TabStopError}. */
  finish(): void {
    let prev = 0n;
    for (const t of this.list) {
      if (t === 0n) throw new TabStopError('tab size cannot be 0');
      if (t <= prev) throw new TabStopError('tab sizes must be ascending');
      prev = t;
    }
    if (this.increment !== 0n && this.extend !== 0n)
      throw new TabStopError("'/' specifier is mutually exclusive with '+'");
    if (this.list.length === 0) {
      this.size = this.extend !== 0n ? this.extend : this.increment !== 0n ? this.increment : 8n;
      this.maxColumnWidth = this.size;
    } else if (this.list.length === 1 && this.extend === 0n && this.increment === 0n)
      this.size = this.list[0] as bigint;
    else this.size = 0n;
  }

  /**
   * The column of the next stop after `column`; `state.index` walks the list. `undefined` past
   * the last stop of a list (GNU's `last_tab`).
   */
  next(column: number, state: { index: number }): number | undefined {
    if (this.size !== 0n) {
      const size = Number(this.size);
      return column + (size - (column % size));
    }
    for (; state.index < this.list.length; state.index += 1) {
      const tab = Number(this.list[state.index]);
      if (column < tab) return tab;
    }
    if (this.extend !== 0n) {
      const e = Number(this.extend);
      return column + (e - (column % e));
    }
    if (this.increment !== 0n) {
      const last = Number(this.list[this.list.length - 1]);
      const inc = Number(this.increment);
      return column + (inc - ((column - last) % inc));
    }
    return undefined;
  }
}
