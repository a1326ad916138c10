/**
 * Regular expressions as awk uses them: the project's engine (`src/regex/`, gawk's ERE dialect,
 * linear-time, leftmost-longest) behind one small interface (the first match at or after a
 * position, with group spans when asked), and a bounded cache of compiled regexes, so a string
 * used as a dynamic regex is compiled once.
 * @module
 */
import { compileRegex as compileEngine, type Regex, RegexSyntaxError } from '../../regex/index.js';

/** A match: UTF-16 offsets; `groups[i]` is group i's span, or undefined when it took no part. */
export interface RegexMatch {
  readonly start: number;
  readonly end: number;
  readonly groups: readonly (readonly [number, number] | undefined)[] | undefined;
}

export interface AwkRegex {
  readonly source: string;
  /** The first match starting at or after `from`; `^` matches only at 0. */
  exec(text: string, from: number, wantGroups: boolean): RegexMatch | null;
  test(text: string): boolean;
}

/** A regular expression that does not compile; `message` is gawk's (`Unmatched ( or \(`). */
export class AwkRegexError extends Error {
  constructor(
    message: string,
    readonly source: string,
  ) {
    super(message);
    this.name = 'AwkRegexError';
  }
}

const CACHE_LIMIT = 500;
const cache = new Map<string, AwkRegex>();

/** Compile (or fetch from the cache) `source` as a gawk ERE. */
export function compileRegex(source: string, ignoreCase: boolean): AwkRegex {
  const key = ignoreCase ? `i${source}` : `c${source}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let engine: Regex;
  try {
    engine = compileEngine(source, { syntax: 'awk', ignoreCase });
  } catch (error) {
    if (error instanceof RegexSyntaxError) throw new AwkRegexError(error.message, source);
    throw error;
  }
  const re = new EngineRegex(source, engine);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, re);
  return re;
}

class EngineRegex implements AwkRegex {
  constructor(
    readonly source: string,
    private readonly engine: Regex,
  ) {}

  exec(text: string, from: number, wantGroups: boolean): RegexMatch | null {
    const m = this.engine.exec(text, from);
    if (m === null) return null;
    if (!wantGroups) return { start: m.start, end: m.end, groups: undefined };
    const groups: ([number, number] | undefined)[] = [];
    for (let i = 1; i <= this.engine.groupCount; i += 1) {
      const s = m.groups[2 * i];
      const e = m.groups[2 * i + 1];
      groups[i] = s === undefined || e === undefined || s < 0 || e < 0 ? undefined : [s, e];
    }
    return { start: m.start, end: m.end, groups };
  }

  test(text: string): boolean {
    return this.engine.test(text);
  }
}
