/**
 * Words whose expansion runs nothing (literal text, quotes, `$((...))` over such text), expanded
 * without a promise: the interpreter's hot paths (`x=$((x + i))` in a loop) take this road, the
 * same result {@link expandToString} gives, in a fraction of the time.
 * @module
 */
import { arith } from '../runtime/arith-scope.js';
import type { Shell } from '../runtime/shell.js';
import type { WordPart } from '../syntax/ast.js';

/** Verdicts per parts array of the syntax tree (parsed once, expanded many times). */
const verdicts = new WeakMap<readonly WordPart[], boolean>();

/** Whether `parts` expand without running a command, reading a parameter or touching a file. */
export function isSyncParts(parts: readonly WordPart[]): boolean {
  let v = verdicts.get(parts);
  if (v === undefined) {
    v = check(parts);
    verdicts.set(parts, v);
  }
  return v;
}

function check(parts: readonly WordPart[]): boolean {
  for (const p of parts) {
    switch (p.type) {
      case 'lit':
      case 'sq':
      case 'esc':
        break;
      case 'dq':
        if (!check(p.parts)) return false;
        break;
      case 'arith':
        if (!check(p.expr.parts)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/**
 * The text of `parts` (for which {@link isSyncParts} holds) with quotes removed, as
 * `expandToString` makes it: literal and quoted text as written, arithmetic evaluated left to
 * right (an arithmetic error throws the same error).
 */
export function expandSyncParts(sh: Shell, parts: readonly WordPart[]): string {
  if (parts.length === 1) return partText(sh, parts[0] as WordPart);
  let out = '';
  for (const p of parts) out += partText(sh, p);
  return out;
}

function partText(sh: Shell, p: WordPart): string {
  switch (p.type) {
    case 'lit':
    case 'sq':
    case 'esc':
      return p.value;
    case 'dq':
      return expandSyncParts(sh, p.parts);
    case 'arith': {
      const only = p.expr.parts.length === 1 ? (p.expr.parts[0] as WordPart) : undefined;
      const text = only?.type === 'lit' ? only.value : expandSyncParts(sh, p.expr.parts);
      return String(arith(sh, text));
    }
    default:
      throw new Error(`not a synchronous word part: ${p.type}`);
  }
}
