/**
 * The parsed form every syntax (BRE, ERE, awk, Perl-style) compiles to. Each engine works from
 * it: the program compiler, the lazy DFA and the bounded backtracker.
 * @module
 */
import type { Ranges } from './charset.js';

/** Zero-width assertions. */
export type AssertKind =
  /** `^`: start of text, or after a newline in multi-line mode. */
  | 'bol'
  /** `$`: end of text, or before a newline in multi-line mode. */
  | 'eol'
  /** `\``, Perl `\A`: start of text. */
  | 'bot'
  /** `\'`, Perl `\z`: end of text. */
  | 'eot'
  /** Perl `\Z`: end of text or before a final newline. */
  | 'eotnl'
  /** `\b` */
  | 'word-boundary'
  /** `\B` */
  | 'not-word-boundary'
  /** `\<` */
  | 'word-start'
  /** `\>` */
  | 'word-end'
  /** Not after a word character (`grep -w`'s left edge). */
  | 'not-word-before'
  /** Not before a word character (`grep -w`'s right edge). */
  | 'not-word-after';

export type RegexNode =
  | { readonly type: 'empty' }
  /** One character from a set of code points. */
  | { readonly type: 'set'; readonly ranges: Ranges }
  | { readonly type: 'seq'; readonly items: readonly RegexNode[] }
  | { readonly type: 'alt'; readonly items: readonly RegexNode[] }
  | {
      readonly type: 'repeat';
      readonly node: RegexNode;
      readonly min: number;
      /** -1: unbounded. */
      readonly max: number;
      readonly greedy: boolean;
      /** Perl's `*+`: no backtracking into what the repetition took. */
      readonly possessive: boolean;
    }
  /** `index` 0 is a non-capturing group. */
  | { readonly type: 'group'; readonly node: RegexNode; readonly index: number }
  | { readonly type: 'backref'; readonly index: number }
  | { readonly type: 'assert'; readonly kind: AssertKind }
  | { readonly type: 'look'; readonly node: RegexNode; readonly behind: boolean; readonly negate: boolean }
  | { readonly type: 'atomic'; readonly node: RegexNode }
  /** Perl's `\K`: the reported match starts here. */
  | { readonly type: 'keep' };

export const EMPTY: RegexNode = { type: 'empty' };

export function seq(items: RegexNode[]): RegexNode {
  const flat = items.filter((n) => n.type !== 'empty');
  if (flat.length === 0) return EMPTY;
  if (flat.length === 1) return flat[0] as RegexNode;
  return { type: 'seq', items: flat };
}

export function alt(items: RegexNode[]): RegexNode {
  if (items.length === 1) return items[0] as RegexNode;
  return { type: 'alt', items };
}

/** What a node needs from an engine. */
export interface NodeFeatures {
  backrefs: boolean;
  lookaround: boolean;
  atomic: boolean;
  keep: boolean;
  lazy: boolean;
  wordAsserts: boolean;
  anchors: boolean;
}

export function features(node: RegexNode): NodeFeatures {
  const f: NodeFeatures = {
    backrefs: false,
    lookaround: false,
    atomic: false,
    keep: false,
    lazy: false,
    wordAsserts: false,
    anchors: false,
  };
  const walk = (n: RegexNode): void => {
    switch (n.type) {
      case 'seq':
      case 'alt':
        for (const i of n.items) walk(i);
        return;
      case 'repeat':
        if (!n.greedy) f.lazy = true;
        if (n.possessive) f.atomic = true;
        walk(n.node);
        return;
      case 'group':
        walk(n.node);
        return;
      case 'backref':
        f.backrefs = true;
        return;
      case 'look':
        f.lookaround = true;
        walk(n.node);
        return;
      case 'atomic':
        f.atomic = true;
        walk(n.node);
        return;
      case 'keep':
        f.keep = true;
        return;
      case 'assert':
        if (n.kind.includes('word')) f.wordAsserts = true;
        else f.anchors = true;
        return;
      default:
        return;
    }
  };
  walk(node);
  return f;
}
