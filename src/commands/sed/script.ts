/**
 * A parsed sed script: a flat list of commands (blocks and branches hold indices into it).
 * @module
 */
import type { Regex } from '../../regex/index.js';

/** A regex address or `s` pattern; `regex` null is `//`, the last regex used. */
export interface SedRegex {
  readonly regex: Regex | null;
}

export type Address =
  | { readonly kind: 'line'; readonly n: number }
  | { readonly kind: 'last' }
  | { readonly kind: 'zero' }
  | ({ readonly kind: 'regex' } & SedRegex)
  | { readonly kind: 'step'; readonly first: number; readonly step: number }
  /** Second address only: `addr1,+N`. */
  | { readonly kind: 'plus'; readonly n: number }
  /** Second address only: `addr1,~N`. */
  | { readonly kind: 'multiple'; readonly n: number };

/** One piece of an `s` replacement. */
export type ReplacementPart =
  | { readonly kind: 'text'; readonly text: string }
  /** Group 0 is `&`. */
  | { readonly kind: 'group'; readonly n: number }
  /** `\U \L \E`: case of what follows; `\u \l`: of the next character only. */
  | { readonly kind: 'case'; readonly op: 'U' | 'L' | 'E' | 'u' | 'l' };

export interface Substitute extends SedRegex {
  readonly replacement: readonly ReplacementPart[];
  /** Replace every match from the `nth` on (`g`), or only the `nth`. */
  readonly global: boolean;
  readonly nth: number;
  /** Times `p` was given (GNU allows it once, or twice with `e`). */
  readonly print: boolean;
  readonly writeFile: string | undefined;
  /** The replacement is one plain text (the literal fast path applies). */
  readonly plainReplacement: string | undefined;
}

export type CommandBody =
  | { readonly name: '{'; end: number }
  | { readonly name: '}' }
  /** A comment or `v`: does nothing. */
  | { readonly name: '#' }
  | { readonly name: '=' | 'd' | 'D' | 'g' | 'G' | 'h' | 'H' | 'n' | 'N' | 'p' | 'P' | 'x' | 'z' | 'F' }
  | { readonly name: 'a' | 'i' | 'c'; readonly text: string }
  | { readonly name: 'b' | 't' | 'T'; readonly label: string; target: number }
  | { readonly name: ':'; readonly label: string }
  | { readonly name: 'l'; readonly width: number | undefined }
  | { readonly name: 'q' | 'Q'; readonly status: number }
  | { readonly name: 'r' | 'R' | 'w' | 'W'; readonly file: string }
  | ({ readonly name: 's' } & Substitute)
  | { readonly name: 'y'; readonly map: ReadonlyMap<string, string> };

export interface SedCommand {
  readonly a1: Address | undefined;
  readonly a2: Address | undefined;
  readonly negate: boolean;
  readonly body: CommandBody;
  /** Range state (per command, across cycles). */
  active: boolean;
  /** For `addr1,+N` and numeric ends: the last line of the active range. */
  rangeEnd: number;
}

export interface SedScript {
  readonly commands: SedCommand[];
  /** `#n` on the script's first line. */
  readonly quietFromScript: boolean;
  /** Files the script writes (`w`, `s///w`), opened (truncated) before the first cycle. */
  readonly writeFiles: readonly string[];
}
