/**
 * Words whose expansion runs nothing and touches no file (literal text, quotes, plain `$name` and
 * `$1`, `$((...))` over such text), expanded without a promise: the interpreter's hot paths
 * (`x=$((x + i))`, `f $i`, `echo $(( $1 * 2 ))` in a loop) take this road. The pieces are the
 * ones `expandPieces` makes for the same parts, so splitting, globbing and joining see no
 * difference.
 * @module
 */
import { arith } from '../runtime/arith-scope.js';
import type { Shell } from '../runtime/shell.js';
import type { WordPart } from '../syntax/ast.js';
import { isPlainParam, plainParamValue } from './param.js';
import { joinPieces, type Piece } from './segments.js';

/** Verdicts per parts array of the syntax tree (parsed once, expanded many times). */
const verdicts = new WeakMap<readonly WordPart[], boolean>();

/** Whether `parts` expand without running a command or anything else that needs a promise. */
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
      case 'param':
        if (!isPlainParam(p)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/**
 * The pieces of `parts` (for which {@link isSyncParts} holds), appended to `out`, as
 * `expandPieces` makes them; an expansion error (arithmetic, `set -u`) throws the same error.
 */
export function syncPieces(sh: Shell, parts: readonly WordPart[], inDq: boolean, out: Piece[] = []): Piece[] {
  for (const part of parts) {
    switch (part.type) {
      case 'lit':
        out.push({ s: part.value, q: inDq, x: false });
        break;
      case 'esc':
      case 'sq':
        out.push({ s: part.value, q: true, x: false });
        break;
      case 'dq':
        // No list parameter here (`$@` is not plain): the empty quoted piece keeps the field.
        out.push({ s: '', q: true, x: false });
        syncPieces(sh, part.parts, true, out);
        break;
      case 'param':
        out.push({ s: plainParamValue(sh, part), q: inDq, x: true });
        break;
      case 'arith': {
        const only = part.expr.parts.length === 1 ? (part.expr.parts[0] as WordPart) : undefined;
        const text = only?.type === 'lit' ? only.value : joinPieces(syncPieces(sh, part.expr.parts, true));
        out.push({ s: String(arith(sh, text)), q: inDq, x: true });
        break;
      }
      default:
        throw new Error(`not a synchronous word part: ${part.type}`);
    }
  }
  return out;
}

/** The text of `parts` ({@link isSyncParts}) with quotes removed, as `expandToString` makes it. */
export function expandSyncParts(sh: Shell, parts: readonly WordPart[]): string {
  const only = parts.length === 1 ? (parts[0] as WordPart) : undefined;
  if (only !== undefined && (only.type === 'lit' || only.type === 'sq' || only.type === 'esc'))
    return only.value;
  return joinPieces(syncPieces(sh, parts, false));
}
