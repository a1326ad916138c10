/**
 * Literals a pattern implies, for the fast paths: a pattern that is one plain string is searched
 * with `indexOf` (memchr-speed in V8); otherwise the longest string every match must contain lets
 * a search skip text that cannot match.
 * @module
 */
import type { RegexNode } from './ast.js';

/** The single code point a set matches, or undefined. */
function single(node: RegexNode): string | undefined {
  if (node.type !== 'set' || node.ranges.length !== 2 || node.ranges[0] !== node.ranges[1]) return undefined;
  const cp = node.ranges[0] as number;
  if (cp >= 0xd800 && cp <= 0xdfff) return undefined;
  return String.fromCodePoint(cp);
}

/** The string `node` matches when it matches exactly one string of plain characters. */
export function pureLiteral(node: RegexNode): string | undefined {
  if (node.type === 'empty') return '';
  const one = single(node);
  if (one !== undefined) return one;
  if (node.type === 'group' && node.index === 0) return pureLiteral(node.node);
  if (node.type !== 'seq') return undefined;
  let out = '';
  for (const item of node.items) {
    const s = single(item);
    if (s === undefined) return undefined;
    out += s;
  }
  return out;
}

/** A fixed string every match of `node` starts with ('' when none is known). */
export function requiredPrefix(node: RegexNode): string {
  return facts(node).prefix;
}

/** The longest string every match of `node` contains ('' when none is known). */
export function requiredLiteral(node: RegexNode): string {
  return facts(node).best;
}

interface Facts {
  /** The whole match when it is one fixed string. */
  exact: string | undefined;
  /** A fixed string every match starts with / ends with. */
  prefix: string;
  suffix: string;
  /** The longest required string anywhere inside. */
  best: string;
}

function longer(a: string, b: string): string {
  return b.length > a.length ? b : a;
}

function facts(node: RegexNode): Facts {
  const one = single(node);
  if (one !== undefined) return { exact: one, prefix: one, suffix: one, best: one };
  switch (node.type) {
    case 'empty':
    case 'assert':
    case 'look':
    case 'keep':
      return { exact: '', prefix: '', suffix: '', best: '' };
    case 'group':
    case 'atomic':
      return facts(node.node);
    case 'repeat': {
      const f = facts(node.node);
      if (node.min === 0) return { exact: undefined, prefix: '', suffix: '', best: '' };
      if (node.min === 1 && node.max === 1) return f;
      return { exact: undefined, prefix: f.prefix, suffix: f.suffix, best: f.best };
    }
    case 'seq': {
      let best = '';
      let run = ''; // the fixed text ending at the current item
      let prefix = '';
      let exact: string | undefined = '';
      for (const item of node.items) {
        const f = facts(item);
        if (f.exact !== undefined) {
          run += f.exact;
          if (exact !== undefined) exact += f.exact;
        } else {
          run += f.prefix;
          best = longer(best, run);
          best = longer(best, f.best);
          if (exact !== undefined) prefix = exact + f.prefix;
          exact = undefined;
          run = f.suffix;
        }
        best = longer(best, run);
      }
      if (exact !== undefined) return { exact, prefix: exact, suffix: exact, best: exact };
      return { exact: undefined, prefix, suffix: run, best };
    }
    default:
      return { exact: undefined, prefix: '', suffix: '', best: '' };
  }
}
