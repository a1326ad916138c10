/**
 * `md5sum`, `sha1sum`, `sha224sum`, `sha256sum`, `sha384sum` and `sha512sum` (GNU coreutils 9.1):
 * each input hashed as it is read (`node:crypto`), printed as `HASH  NAME` (` *NAME` with `-b`),
 * `--tag`'s BSD form or `-z` lines; names with a backslash or a newline escaped as GNU does. `-c`
 * checks the lines of a list (either form), with `--quiet`, `--status`, `--strict`, `-w` and
 * `--ignore-missing`, and GNU's closing warnings and statuses.
 * @module
 */
import { createHash } from 'node:crypto';
import { decodeBytes, encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteName } from '../gnu-quote.js';
import { LineReader } from '../line-reader.js';
import { parseCommandLine, printError, runCommand, usageError } from '../text/cli.js';
import { errorText, isInputError, openInput } from '../text/input.js';
import { TextOutput } from '../text/output.js';
import { CHECKSUM_HELP } from './gnu-help.js';

interface Algorithm {
  readonly command: string;
  /** `node:crypto`'s name. */
  readonly hash: string;
  /** The BSD tag (`--tag`) and the name in `-c`'s messages. */
  readonly tag: string;
  readonly hexLength: number;
}

const ALGORITHMS: readonly Algorithm[] = [
  { command: 'md5sum', hash: 'md5', tag: 'MD5', hexLength: 32 },
  { command: 'sha1sum', hash: 'sha1', tag: 'SHA1', hexLength: 40 },
  { command: 'sha224sum', hash: 'sha224', tag: 'SHA224', hexLength: 56 },
  { command: 'sha256sum', hash: 'sha256', tag: 'SHA256', hexLength: 64 },
  { command: 'sha384sum', hash: 'sha384', tag: 'SHA384', hexLength: 96 },
  { command: 'sha512sum', hash: 'sha512', tag: 'SHA512', hexLength: 128 },
];

interface SumOptions {
  binary: boolean;
  check: boolean;
  tag: boolean;
  zero: boolean;
  ignoreMissing: boolean;
  quiet: boolean;
  status: boolean;
  strict: boolean;
  warn: boolean;
  text: boolean;
}

/** The digest of one input, or the failure to print (`undefined` after it was printed). */
async function digestOf(ctx: CommandContext, a: Algorithm, name: string): Promise<string | Error> {
  const opened = await openInput(ctx, name);
  if (!opened.ok) return new Error(errorText(opened.error));
  const hash = createHash(a.hash);
  try {
    for (;;) {
      const chunk = await opened.input.reader.read();
      if (chunk === null) break;
      hash.update(chunk);
      await ctx.cooperate();
    }
  } catch (error) {
    if (!isInputError(error)) throw error;
    return new Error(errorText(error));
  } finally {
    await opened.input.close();
  }
  return hash.digest('hex');
}

/** GNU's escaping of a name in a checksum line: `\\` and `\n`, flagged by a leading backslash. */
function escapeName(name: string): { readonly text: string; readonly escaped: boolean } {
  if (!/[\\\n\r]/.test(name)) return { text: name, escaped: false };
  return { text: name.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r'), escaped: true };
}

function unescapeName(text: string): string | undefined {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = text[i + 1];
    if (next === '\\') out += '\\';
    else if (next === 'n') out += '\n';
    else if (next === 'r') out += '\r';
    else return undefined;
    i += 1;
  }
  return out;
}

async function sum(ctx: CommandContext, a: Algorithm): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    a.command,
    {
      options: [
        { short: 'b', long: 'binary' },
        { short: 'c', long: 'check' },
        { long: 'tag' },
        { short: 't', long: 'text' },
        { short: 'z', long: 'zero' },
        { long: 'ignore-missing' },
        { long: 'quiet' },
        { long: 'status' },
        { long: 'strict' },
        { short: 'w', long: 'warn' },
      ],
    },
    { help: CHECKSUM_HELP[a.command] },
  );
  if (typeof line === 'number') return line;
  const o: SumOptions = {
    binary: false,
    check: false,
    tag: false,
    zero: false,
    ignoreMissing: false,
    quiet: false,
    status: false,
    strict: false,
    warn: false,
    text: false,
  };
  for (const opt of line.options) {
    switch (opt.key) {
      case 'binary':
        o.binary = true;
        o.text = false;
        break;
      case 'text':
        o.text = true;
        o.binary = false;
        break;
      case 'check':
        o.check = true;
        break;
      case 'tag':
        o.tag = true;
        break;
      case 'zero':
        o.zero = true;
        break;
      case 'ignore-missing':
        o.ignoreMissing = true;
        break;
      case 'quiet':
        o.quiet = true;
        break;
      case 'status':
        o.status = true;
        break;
      case 'strict':
        o.strict = true;
        break;
      case 'warn':
        o.warn = true;
        break;
    }
  }
  const name = a.command;
  if (o.tag && o.text) return usageError(ctx, name, '--tag does not support --text mode');
  if (o.tag && o.check)
    return usageError(ctx, name, 'the --tag option is meaningless when verifying checksums');
  if (o.zero && o.check)
    return usageError(ctx, name, 'the --zero option is not supported when verifying checksums');
  if ((o.binary || o.text) && o.check)
    return usageError(ctx, name, 'the --binary and --text options are meaningless when verifying checksums');
  if (!o.check) {
    for (const [flag, on] of [
      ['--ignore-missing', o.ignoreMissing],
      ['--status', o.status],
      ['--warn', o.warn],
      ['--quiet', o.quiet],
      ['--strict', o.strict],
    ] as const)
      if (on) return usageError(ctx, name, `the ${flag} option is meaningful only when verifying checksums`);
  }
  const operands = line.operands.length === 0 ? ['-'] : line.operands;
  const out = new TextOutput(ctx.stdout);
  let status = 0;
  for (const operand of operands) {
    if (o.check) {
      status = Math.max(status, await checkList(ctx, a, o, operand, out));
      continue;
    }
    const digest = await digestOf(ctx, a, operand);
    if (digest instanceof Error) {
      await out.flush();
      await printError(ctx, `${name}: ${quoteName(operand)}: ${digest.message}\n`);
      status = 1;
      continue;
    }
    const { text, escaped } = o.zero ? { text: operand, escaped: false } : escapeName(operand);
    const record = o.tag
      ? `${escaped ? '\\' : ''}${a.tag} (${text}) = ${digest}`
      : `${escaped ? '\\' : ''}${digest} ${o.binary ? '*' : ' '}${text}`;
    out.put(encodeText(`${record}${o.zero ? '\0' : '\n'}`));
    if (out.full) await out.flush();
  }
  await out.flush();
  return status;
}

interface Parsed {
  readonly digest: string;
  readonly name: string;
}

/** One line of a checksum list, in GNU's or the BSD (`--tag`) form. */
function parseLine(a: Algorithm, text: string): Parsed | undefined {
  let s = text.replace(/^[ \t]+/, '');
  let escaped = false;
  if (s.startsWith('\\')) {
    escaped = true;
    s = s.slice(1);
  }
  const tagged = new RegExp(`^${a.tag} ?\\((.*)\\) ?= ?([0-9a-fA-F]+)$`).exec(s);
  let digest: string;
  let raw: string;
  if (tagged !== null) {
    raw = tagged[1] as string;
    digest = tagged[2] as string;
  } else {
    const m = /^([0-9a-fA-F]+) ([ *])(.*)$/s.exec(s);
    if (m === null) return undefined;
    digest = m[1] as string;
    raw = m[3] as string;
  }
  if (digest.length !== a.hexLength || raw === '') return undefined;
  const name = escaped ? unescapeName(raw) : raw;
  if (name === undefined) return undefined;
  return { digest: digest.toLowerCase(), name };
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

async function checkList(
  ctx: CommandContext,
  a: Algorithm,
  o: SumOptions,
  listName: string,
  out: TextOutput,
): Promise<number> {
  const name = a.command;
  const shown = listName === '-' ? 'standard input' : quoteName(listName);
  const opened = await openInput(ctx, listName);
  if (!opened.ok) {
    await out.flush();
    await printError(ctx, `${name}: ${quoteName(listName)}: ${errorText(opened.error)}\n`);
    return 1;
  }
  let bad = 0;
  let failedOpen = 0;
  let mismatched = 0;
  let matchedOrMismatched = 0;
  let lineNumber = 0;
  const say = async (text: string): Promise<void> => {
    if (o.status) return;
    out.put(encodeText(text));
    if (out.full) await out.flush();
  };
  const reader = new LineReader(opened.input.reader);
  try {
    for (;;) {
      const l = await reader.next();
      if (l === null) break;
      lineNumber += 1;
      const text = decodeBytes(l).replace(/\r$/, '');
      const parsed = parseLine(a, text);
      if (parsed === undefined) {
        bad += 1;
        if (o.warn) {
          await out.flush();
          await printError(
            ctx,
            `${name}: ${shown}: ${lineNumber}: improperly formatted ${a.tag} checksum line\n`,
          );
        }
        continue;
      }
      const digest = await digestOf(ctx, a, parsed.name);
      // The report escapes a name only when it holds a newline (GNU's needs_escape).
      const { text: label, escaped } = parsed.name.includes('\n')
        ? escapeName(parsed.name)
        : { text: parsed.name, escaped: false };
      const prefix = escaped ? '\\' : '';
      if (digest instanceof Error) {
        if (o.ignoreMissing && digest.message === 'No such file or directory') continue;
        failedOpen += 1;
        await out.flush();
        await printError(ctx, `${name}: ${quoteName(parsed.name)}: ${digest.message}\n`);
        await say(`${prefix}${label}: FAILED open or read\n`);
        continue;
      }
      matchedOrMismatched += 1;
      if (digest === parsed.digest) {
        if (!o.quiet) await say(`${prefix}${label}: OK\n`);
      } else {
        mismatched += 1;
        await say(`${prefix}${label}: FAILED\n`);
      }
    }
  } catch (error) {
    if (!isInputError(error)) throw error;
    await out.flush();
    await printError(ctx, `${name}: ${quoteName(listName)}: ${errorText(error)}\n`);
    return 1;
  } finally {
    await opened.input.close();
  }
  await out.flush();
  if (matchedOrMismatched === 0 && failedOpen === 0) {
    if (o.ignoreMissing && bad === 0 && lineNumber > 0)
      await printError(ctx, `${name}: ${shown}: no file was verified\n`);
    else await printError(ctx, `${name}: ${shown}: no properly formatted checksum lines found\n`);
    return 1;
  }
  if (!o.status) {
    let warnings = '';
    if (bad > 0)
      warnings += `${name}: WARNING: ${plural(bad, 'line is', 'lines are')} improperly formatted\n`;
    if (failedOpen > 0)
      warnings += `${name}: WARNING: ${plural(failedOpen, 'listed file', 'listed files')} could not be read\n`;
    if (mismatched > 0)
      warnings += `${name}: WARNING: ${plural(mismatched, 'computed checksum', 'computed checksums')} did NOT match\n`;
    if (warnings !== '') await printError(ctx, warnings);
  }
  return mismatched > 0 || failedOpen > 0 || (o.strict && bad > 0) ? 1 : 0;
}

function spec(a: Algorithm): CommandSpec {
  return {
    name: a.command,
    summary: `compute and check ${a.tag} message digests`,
    help: CHECKSUM_HELP[a.command] as string,
    run: (ctx) => runCommand(ctx, () => sum(ctx, a)),
  };
}

export const checksumCommands: readonly CommandSpec[] = ALGORITHMS.map(spec);
