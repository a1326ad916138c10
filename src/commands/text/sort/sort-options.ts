/**
 * `sort`'s command line, with GNU's checks and messages (status 2 for every usage error).
 * @module
 */
import { encodeText } from '../../byte-text.js';
import type { CommandContext } from '../../command.js';
import { quoteNameAlways, quoteValue } from '../../gnu-quote.js';
import { parseCommandLine, printError, usageError } from '../cli.js';
import { parseCount } from '../numbers.js';
import {
  applyOrdering,
  emptyOrdering,
  hasNoOrdering,
  type KeyOrdering,
  KeySpecError,
  orderingLetters,
  parseKey,
  type SortKey,
} from './keys.js';

export const SORT_FAILURE = 2;

/** Default memory for lines before sorted runs spill to temporary files (`-S` changes it). */
export const DEFAULT_SORT_BUFFER_BYTES = 256 * 1024 * 1024;

export interface SortOptions {
  readonly keys: readonly SortKey[];
  readonly reverse: boolean;
  readonly tab: number;
  readonly unique: boolean;
  readonly stable: boolean;
  readonly check: 'c' | 'C' | undefined;
  readonly merge: boolean;
  readonly output: string | undefined;
  readonly delimiter: number;
  readonly bufferBytes: number;
  readonly tempDirs: readonly string[];
  readonly randomSource: string | undefined;
  readonly randomSeed: string | undefined;
  readonly files0From: string | undefined;
  readonly operands: readonly string[];
}

const OPTIONS = [
  { short: 'b', long: 'ignore-leading-blanks' },
  { short: 'd', long: 'dictionary-order' },
  { short: 'f', long: 'ignore-case' },
  { short: 'g', long: 'general-numeric-sort' },
  { short: 'i', long: 'ignore-nonprinting' },
  { short: 'M', long: 'month-sort' },
  { short: 'h', long: 'human-numeric-sort' },
  { short: 'n', long: 'numeric-sort' },
  { short: 'R', long: 'random-sort' },
  { long: 'random-source', argument: 'required' },
  { long: 'random-seed', argument: 'required' },
  { short: 'r', long: 'reverse' },
  { short: 'V', long: 'version-sort' },
  { long: 'sort', argument: 'required' },
  { long: 'batch-size', argument: 'required' },
  { short: 'c', key: 'check-c' },
  { long: 'check', argument: 'optional' },
  { short: 'C', key: 'check-C' },
  { long: 'compress-program', argument: 'required' },
  { long: 'debug' },
  { long: 'files0-from', argument: 'required' },
  { short: 'k', long: 'key', argument: 'required' },
  { short: 'm', long: 'merge' },
  { short: 'o', long: 'output', argument: 'required' },
  { short: 's', long: 'stable' },
  { short: 'S', long: 'buffer-size', argument: 'required' },
  { short: 't', long: 'field-separator', argument: 'required' },
  { short: 'T', long: 'temporary-directory', argument: 'required' },
  { long: 'parallel', argument: 'required' },
  { short: 'u', long: 'unique' },
  { short: 'z', long: 'zero-terminated' },
  { short: 'y', argument: 'required' },
] as const;

class SortUsage extends Error {
  constructor(
    message: string,
    readonly tryHelp = false,
    /** argmatch's failures exit 1, the rest of sort's usage errors 2. */
    readonly status = SORT_FAILURE,
  ) {
    super(message);
  }
}

function invalidArgument(value: string, option: string, valid: readonly string[]): SortUsage {
  const list = valid.map((v) => `  - ${v}`).join('\n');
  return new SortUsage(
    `invalid argument ${quoteValue(value)} for ${quoteValue(`--${option}`)}\nValid arguments are:\n${list}`,
    true,
    1,
  );
}

/** GNU's `-S` reading: KiB by default, `b` bytes, `%` of memory, K M G ... suffixes. */
function parseBufferSize(text: string, spelled: string): number {
  const label = spelled.startsWith('--') ? spelled : `-${spelled.replace(/^-/, '')}`;
  const digitsThen = /^\s*\+?\d+(.)?$/.exec(text);
  let bytes: bigint;
  if (digitsThen !== null && (digitsThen[1] === 'b' || digitsThen[1] === '%')) {
    const n = BigInt(text.trim().replace(/[b%]$/, '').replace(/^\+/, ''));
    bytes = digitsThen[1] === 'b' ? n : (n * 8n * 1024n * 1024n * 1024n) / 100n;
  } else {
    const r = parseCount(text, 'EgGkKmMPtTYZ');
    if (r.kind === 'invalid') {
      const validStart = /^\s*\+?\d/.test(text) || /^\s*[EgGkKmMPtTYZ]/.test(text);
      throw new SortUsage(`${validStart ? 'invalid suffix in' : 'invalid'} ${label} argument '${text}'`);
    }
    if (r.kind === 'overflow') throw new SortUsage(`${label} argument '${text}' too large`);
    bytes = r.value;
    if (/\d$/.test(text)) bytes *= 1024n;
  }
  if (bytes > BigInt(Number.MAX_SAFE_INTEGER)) throw new SortUsage(`${label} argument '${text}' too large`);
  return Math.max(Number(bytes), 64 * 1024);
}

/** Parse the command line; resolves with the options or with the exit status. */
export async function parseSortOptions(ctx: CommandContext): Promise<SortOptions | number> {
  const line = await parseCommandLine(ctx, 'sort', { options: OPTIONS }, { usageStatus: SORT_FAILURE });
  if (typeof line === 'number') return line;
  try {
    return readOptions(line.options, line.operands);
  } catch (error) {
    if (error instanceof KeySpecError) {
      await printError(ctx, `sort: ${error.message}\n`);
      return SORT_FAILURE;
    }
    if (!(error instanceof SortUsage)) throw error;
    if (error.tryHelp) return usageError(ctx, 'sort', error.message, error.status);
    await printError(ctx, `sort: ${error.message}\n`);
    return SORT_FAILURE;
  }
}

function readOptions(
  options: readonly { key: string; value: string | undefined; spelled: string }[],
  operands: readonly string[],
): SortOptions {
  const global: KeyOrdering = emptyOrdering();
  const keys: SortKey[] = [];
  let tab = -1;
  let unique = false;
  let stable = false;
  let check: 'c' | 'C' | undefined;
  let merge = false;
  let output: string | undefined;
  let delimiter = 0x0a;
  let bufferBytes = 0;
  const tempDirs: string[] = [];
  let randomSource: string | undefined;
  let randomSeed: string | undefined;
  let files0From: string | undefined;
  const setCheck = (c: 'c' | 'C'): void => {
    if (check !== undefined && check !== c) throw new SortUsage("options '-cC' are incompatible");
    check = c;
  };
  for (const o of options) {
    const v = o.value as string;
    switch (o.key) {
      case 'ignore-leading-blanks':
      case 'dictionary-order':
      case 'ignore-case':
      case 'general-numeric-sort':
      case 'ignore-nonprinting':
      case 'month-sort':
      case 'human-numeric-sort':
      case 'numeric-sort':
      case 'random-sort':
      case 'reverse':
      case 'version-sort':
        applyOrdering(LETTER[o.key] as string, 0, global, 'both');
        break;
      case 'sort': {
        const words: Record<string, string> = {
          'general-numeric': 'g',
          'human-numeric': 'h',
          month: 'M',
          numeric: 'n',
          random: 'R',
          version: 'V',
        };
        const match = Object.keys(words).filter((w) => w.startsWith(v) && v !== '');
        const exact = words[v] !== undefined ? v : match.length === 1 ? match[0] : undefined;
        if (exact === undefined)
          throw invalidArgument(
            v,
            'sort',
            Object.keys(words).map((w) => quoteValue(w)),
          );
        applyOrdering(words[exact] as string, 0, global, 'both');
        break;
      }
      case 'random-source':
        if (randomSource !== undefined && randomSource !== v)
          throw new SortUsage('multiple random sources specified');
        randomSource = v;
        break;
      case 'random-seed':
        randomSeed = v;
        break;
      case 'batch-size': {
        const r = parseCount(v, '');
        if (r.kind !== 'ok') throw new SortUsage(`invalid --batch-size argument '${v}'`);
        if (r.value < 2n)
          throw new SortUsage(
            `invalid --batch-size argument ${quoteValue(v)}\nsort: minimum --batch-size argument is ‘2’`,
          );
        break;
      }
      case 'check-c':
        setCheck('c');
        break;
      case 'check-C':
        setCheck('C');
        break;
      case 'check': {
        if (o.value === undefined) {
          setCheck('c');
          break;
        }
        const words = ['quiet', 'silent', 'diagnose-first'];
        const match = words.filter((w) => w.startsWith(v) && v !== '');
        const word = words.includes(v) ? v : match.length === 1 ? match[0] : undefined;
        if (word === undefined) throw invalidArgument(v, 'check', ['‘quiet’, ‘silent’', '‘diagnose-first’']);
        setCheck(word === 'diagnose-first' ? 'c' : 'C');
        break;
      }
      case 'compress-program':
        throw new SortUsage(
          '--compress-program is not supported: the virtual shell runs no external programs (temporary files are kept uncompressed)',
        );
      case 'debug':
        throw new SortUsage('--debug is not supported by this sort');
      case 'files0-from':
        files0From = v;
        break;
      case 'key':
        keys.push(parseKey(v));
        break;
      case 'merge':
        merge = true;
        break;
      case 'output':
        if (output !== undefined && output !== v) throw new SortUsage('multiple output files specified');
        output = v;
        break;
      case 'stable':
        stable = true;
        break;
      case 'buffer-size':
        bufferBytes = Math.max(bufferBytes, parseBufferSize(v, o.spelled === '-S' ? 'S' : '--buffer-size'));
        break;
      case 'field-separator': {
        let t: number;
        const bytes = encodeText(v);
        if (bytes.length === 0) throw new SortUsage('empty tab');
        if (bytes.length === 1) t = bytes[0] as number;
        else if (v === '\\0') t = 0;
        else throw new SortUsage(`multi-character tab ${quoteValue(v)}`);
        if (tab !== -1 && tab !== t) throw new SortUsage('incompatible tabs');
        tab = t;
        break;
      }
      case 'temporary-directory':
        tempDirs.push(v);
        break;
      case 'parallel': {
        const r = parseCount(v, '');
        if (r.kind !== 'ok') throw new SortUsage(`invalid --parallel argument '${v}'`);
        if (r.value === 0n) throw new SortUsage('number in parallel must be nonzero');
        break;
      }
      case 'unique':
        unique = true;
        break;
      case 'zero-terminated':
        delimiter = 0;
        break;
    }
  }
  // Keys without orderings of their own take the global ones.
  for (const k of keys) {
    if (hasNoOrdering(k) && !k.reverse) {
      const { reverse, ...rest } = global;
      Object.assign(k, rest, { reverse });
    }
  }
  if (keys.length === 0 && !hasNoOrdering(global)) {
    keys.push({
      ...global,
      sword: Number.POSITIVE_INFINITY,
      schar: 0,
      eword: Number.POSITIVE_INFINITY,
      echar: 0,
    });
  }
  for (const k of keys) {
    const count =
      Number(k.numeric) +
      Number(k.general) +
      Number(k.human) +
      Number(k.month) +
      Number(k.version || k.random || k.dictionary || k.ignoreNonprinting);
    if (count > 1) throw new SortUsage(`options '-${orderingLetters(k, false)}' are incompatible`);
  }
  if (files0From !== undefined && operands.length > 0)
    throw new SortUsage(
      `extra operand ${quoteNameAlways(operands[0] as string)}\nfile operands cannot be combined with --files0-from`,
      true,
    );
  if (check !== undefined) {
    if (operands.length > 1)
      throw new SortUsage(
        `extra operand ${quoteNameAlways(operands[1] as string)} not allowed with -${check}`,
      );
    if (output !== undefined) throw new SortUsage(`options '-${check}o' are incompatible`);
  }
  return {
    keys,
    reverse: global.reverse,
    tab,
    unique,
    stable,
    check,
    merge,
    output,
    delimiter,
    bufferBytes: bufferBytes === 0 ? DEFAULT_SORT_BUFFER_BYTES : bufferBytes,
    tempDirs,
    randomSource,
    randomSeed,
    files0From,
    operands,
  };
}

const LETTER: Readonly<Record<string, string>> = {
  'ignore-leading-blanks': 'b',
  'dictionary-order': 'd',
  'ignore-case': 'f',
  'general-numeric-sort': 'g',
  'ignore-nonprinting': 'i',
  'month-sort': 'M',
  'human-numeric-sort': 'h',
  'numeric-sort': 'n',
  'random-sort': 'R',
  reverse: 'r',
  'version-sort': 'V',
};
