/**
 * `tr`: GNU coreutils 9.1, byte-wise as GNU's tr is (a multibyte character is its bytes).
 * Translation, deletion and squeezing run through 256-entry tables over each chunk as it streams.
 * @module
 */
import { encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteValue } from '../gnu-quote.js';
import { helpText, parseCommandLine, printError, runCommand, usageError } from './cli.js';
import { flushingReader, TextOutput } from './output.js';
import {
  expandSet,
  membership,
  type ParsedSet,
  parseSet,
  type SetChar,
  type SetElement,
  setLength,
  TrError,
} from './tr-sets.js';

const OPTIONS = [
  { short: 'c', long: 'complement' },
  { short: 'C', key: 'complement' },
  { short: 'd', long: 'delete' },
  { short: 's', long: 'squeeze-repeats' },
  { short: 't', long: 'truncate-set1' },
] as const;

interface TrPlan {
  /** Byte → byte; identity where nothing translates. */
  translate: Uint8Array | undefined;
  remove: Uint8Array | undefined;
  squeeze: Uint8Array | undefined;
}

async function tr(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(ctx, 'tr', { options: OPTIONS, stopAtFirstOperand: false });
  if (typeof line === 'number') return line;
  const has = (k: string): boolean => line.options.some((o) => o.key === k);
  const complement = has('complement');
  const del = has('delete');
  const squeeze = has('squeeze-repeats');
  const truncate = has('truncate-set1');
  const args = line.operands;
  const translating = args.length === 2 && !del;
  const minOperands = 1 + (del === squeeze ? 1 : 0);
  const maxOperands = 1 + (del <= squeeze ? 1 : 0);
  if (args.length < minOperands) {
    if (args.length === 0) return usageError(ctx, 'tr', 'missing operand');
    const why = squeeze
      ? 'Two strings must be given when both deleting and squeezing repeats.'
      : 'Two strings must be given when translating.';
    return usageError(
      ctx,
      'tr',
      `missing operand after ${quoteValue(args[args.length - 1] as string)}\n${why}`,
    );
  }
  if (args.length > maxOperands) {
    const extra = `extra operand ${quoteValue(args[maxOperands] as string)}`;
    const why =
      args.length === 2 ? '\nOnly one string may be given when deleting without squeezing repeats.' : '';
    return usageError(ctx, 'tr', extra + why);
  }
  let plan: TrPlan;
  try {
    const sets: ParsedSet[] = [];
    for (const a of args) {
      const set = parseSet(encodeText(a));
      for (const w of set.warnings) await printError(ctx, `tr: ${w}\n`);
      sets.push(set);
    }
    plan = buildPlan(sets[0] as ParsedSet, sets[1], { complement, del, squeeze, truncate, translating });
  } catch (error) {
    if (!(error instanceof TrError)) throw error;
    await printError(ctx, `tr: ${error.message}\n`);
    return 1;
  }
  const out = new TextOutput(ctx.stdout);
  const reader = flushingReader(ctx.stdin, out);
  let last = -1;
  for (;;) {
    const chunk = await reader.read();
    if (chunk === null) break;
    last = filter(chunk, plan, out, last);
    if (out.full) await out.flush();
    await ctx.cooperate();
  }
  await out.flush();
  ctx.stdin.close();
  return 0;
}

function filter(chunk: Uint8Array, plan: TrPlan, out: TextOutput, previous: number): number {
  const { translate, remove, squeeze } = plan;
  if (remove === undefined && squeeze === undefined && translate !== undefined) {
    const mapped = new Uint8Array(chunk.length);
    for (let i = 0; i < chunk.length; i += 1) mapped[i] = translate[chunk[i] as number] as number;
    out.put(mapped);
    return previous;
  }
  let last = previous;
  for (let i = 0; i < chunk.length; i += 1) {
    let b = chunk[i] as number;
    if (remove !== undefined && remove[b] === 1) continue;
    if (translate !== undefined) b = translate[b] as number;
    if (squeeze !== undefined && squeeze[b] === 1 && b === last) continue;
    out.byte(b);
    last = b;
  }
  return last;
}

interface Flags {
  readonly complement: boolean;
  readonly del: boolean;
  readonly squeeze: boolean;
  readonly truncate: boolean;
  readonly translating: boolean;
}

function buildPlan(set1: ParsedSet, set2: ParsedSet | undefined, f: Flags): TrPlan {
  const s1 = set1.elements;
  if (s1.some((e) => e.kind === 'repeat' && e.count === 0))
    throw new TrError('the [c*] repeat construct may not appear in string1');
  let s2 = set2?.elements;
  if (s2 !== undefined) {
    if (s2.filter((e) => e.kind === 'repeat' && e.count === 0).length > 1)
      throw new TrError('only one [c*] repeat construct may appear in string2');
  }
  if (!f.translating) {
    if (s2?.some((e) => e.kind === 'repeat' && e.count === 0))
      throw new TrError('the [c*] construct may appear in string2 only when translating');
    if (f.del && f.squeeze)
      return {
        translate: undefined,
        remove: membership(s1, f.complement),
        squeeze: membership(s2 ?? [], false),
      };
    if (f.del) return { translate: undefined, remove: membership(s1, f.complement), squeeze: undefined };
    return { translate: undefined, remove: undefined, squeeze: membership(s1, f.complement) };
  }
  s2 = s2 as readonly SetElement[];
  if (s2.some((e) => e.kind === 'equiv'))
    throw new TrError('[=c=] expressions may not appear in string2 when translating');
  if (s2.some((e) => e.kind === 'class' && e.name !== 'upper' && e.name !== 'lower'))
    throw new TrError(
      "when translating, the only character classes that may appear in\nstring2 are 'upper' and 'lower'",
    );
  const inSet1 = membership(s1, false);
  let len1 = setLength(s1);
  if (f.complement) {
    let distinct = 0;
    for (let b = 0; b < 256; b += 1) distinct += inSet1[b] as number;
    len1 = 256 - distinct;
  }
  const len2Fixed = setLength(s2);
  const fill = Math.max(0, len1 - len2Fixed);
  let chars2 = expandSet(s2, fill);
  const chars1 = f.complement ? [] : expandSet(s1);
  if (!f.complement) checkCaseAlignment(chars1, chars2);
  if (len1 > chars2.length && !f.truncate) {
    if (chars2.length === 0) throw new TrError('when not truncating set1, string2 must be non-empty');
    if (s2[s2.length - 1]?.kind === 'class')
      throw new TrError(
        'when translating with string1 longer than string2,\nthe latter string must not end with a character class',
      );
    const lastChar = chars2[chars2.length - 1] as SetChar;
    const extra: SetChar[] = [];
    for (let k = chars2.length; k < len1; k += 1)
      extra.push({ c: lastChar.c, element: -1, caseClass: undefined });
    chars2 = chars2.concat(extra);
  }
  if (f.complement && s1.some((e) => e.kind === 'class')) {
    const homogeneous = chars2.every((ch) => ch.c === (chars2[0] as SetChar).c);
    if (!(chars2.length === len1 && homogeneous))
      throw new TrError(
        'when translating with complemented character classes,\nstring2 must map all characters in the domain to one',
      );
  }
  const translate = new Uint8Array(256);
  for (let b = 0; b < 256; b += 1) translate[b] = b;
  if (f.complement) {
    let k = 0;
    for (let b = 0; b < 256; b += 1) {
      if (inSet1[b] === 1) continue;
      const ch = chars2[k];
      if (ch === undefined) break;
      translate[b] = ch.c;
      k += 1;
    }
  } else translateInOrder(chars1, chars2, translate);
  return {
    translate,
    remove: undefined,
    squeeze: f.squeeze ? tableOf(chars2) : undefined,
  };
}

function tableOf(chars: readonly SetChar[]): Uint8Array {
  const table = new Uint8Array(256);
  for (const ch of chars) table[ch.c] = 1;
  return table;
}

/** Pairs SET1 with SET2 as GNU does: an `[:upper:]`/`[:lower:]` pair maps the whole class. */
function translateInOrder(chars1: readonly SetChar[], chars2: readonly SetChar[], table: Uint8Array): void {
  let i = 0;
  let j = 0;
  for (;;) {
    const a = chars1[i];
    const b = chars2[j];
    if (a?.caseClass === 'lower' && b?.caseClass === 'upper') {
      for (let c = 97; c <= 122; c += 1) table[c] = c - 32;
    } else if (a?.caseClass === 'upper' && b?.caseClass === 'lower') {
      for (let c = 65; c <= 90; c += 1) table[c] = c + 32;
    } else {
      if (a === undefined || b === undefined) return;
      table[a.c] = b.c;
    }
    if (b?.caseClass !== undefined) {
      i = skipElement(chars1, i);
      j = skipElement(chars2, j);
    } else {
      i += 1;
      j += 1;
    }
  }
}

/** The index after the element `chars[i]` belongs to. */
function skipElement(chars: readonly SetChar[], i: number): number {
  const element = chars[i]?.element;
  if (element === undefined) return i + 1;
  let k = i;
  while (k < chars.length && (chars[k] as SetChar).element === element) k += 1;
  return k;
}

/** GNU's `validate_case_classes`: a case class in SET2 must start where one starts in SET1. */
function checkCaseAlignment(chars1: readonly SetChar[], chars2: readonly SetChar[]): void {
  if (!chars2.some((c) => c.caseClass !== undefined)) return;
  let i = 0;
  let j = 0;
  let new1 = true;
  let new2 = true;
  for (;;) {
    const a = chars1[i];
    const b = chars2[j];
    if (new2 && b?.caseClass !== undefined && !(new1 && a?.caseClass !== undefined))
      throw new TrError('misaligned [:upper:] and/or [:lower:] construct');
    if (a === undefined || b === undefined) return;
    if (b.caseClass !== undefined) {
      i = skipElement(chars1, i);
      j = skipElement(chars2, j);
    } else {
      i += 1;
      j += 1;
    }
    new1 = i === 0 || chars1[i]?.element !== chars1[i - 1]?.element;
    new2 = j === 0 || chars2[j]?.element !== chars2[j - 1]?.element;
  }
}

export const trCommand: CommandSpec = {
  name: 'tr',
  summary: 'translate or delete characters',
  help: helpText('tr'),
  run: (ctx) => runCommand(ctx, () => tr(ctx)),
};
