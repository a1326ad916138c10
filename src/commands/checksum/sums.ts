/**
 * `md5sum`, `sha1sum`, `sha224sum`, `sha256sum`, `sha384sum`, `sha512sum` and `b2sum` (GNU
 * coreutils 9.1): each input hashed as it is read, printed as `HASH  NAME` (` *NAME` with `-b`),
 * `--tag`'s BSD form or `-z` lines; `-c` checks a list (`checksum-list.ts`). `b2sum -l BITS`
 * chooses BLAKE2b's length.
 * @module
 */
import type { CommandContext, CommandSpec } from '../command.js';
import type { OptionSpec } from '../getopt.js';
import { quoteName, quoteValue } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand, usageError } from '../text/cli.js';
import { TextOutput } from '../text/output.js';
import { checkList, checkOptionsFrom, digestOf, formatRecord } from './checksum-list.js';
import { type DigestAlgorithm, digestAlgorithm } from './digests.js';
import { CHECKSUM_HELP } from './gnu-help.js';

const COMMANDS: readonly (readonly [command: string, key: string])[] = [
  ['md5sum', 'md5'],
  ['sha1sum', 'sha1'],
  ['sha224sum', 'sha224'],
  ['sha256sum', 'sha256'],
  ['sha384sum', 'sha384'],
  ['sha512sum', 'sha512'],
  ['b2sum', 'blake2b'],
];

/** The options the sums and `cksum` share: `-c`'s five, `--tag`, `-z`. */
export const SHARED_SUM_OPTIONS: readonly OptionSpec[] = [
  { short: 'c', long: 'check' },
  { long: 'tag' },
  { short: 'z', long: 'zero' },
  { long: 'ignore-missing' },
  { long: 'quiet' },
  { long: 'status' },
  { long: 'strict' },
  { short: 'w', long: 'warn' },
];

/** The options that mean something only with `-c`, in GNU's order of complaint. */
export const CHECK_ONLY_OPTIONS = ['ignore-missing', 'status', 'warn', 'quiet', 'strict'] as const;

/**
 * `-l BITS` for BLAKE2b, checked as GNU does; a number of bits (0 for the default), or the
 * status after the message.
 */
export async function parseLength(ctx: CommandContext, command: string, value: string): Promise<number> {
  if (!/^\d+$/.test(value)) {
    await printError(ctx, `${command}: invalid length: ${quoteValue(value)}\n`);
    return -1;
  }
  const bits = Number(value);
  if (bits % 8 !== 0) {
    await printError(
      ctx,
      `${command}: invalid length: ${quoteValue(value)}\n${command}: length is not a multiple of 8\n`,
    );
    return -1;
  }
  return bits;
}

/** The message for a `-l` past BLAKE2b's 512 bits. */
export const lengthTooLarge = (command: string, value: string): string =>
  `${command}: invalid length: ${quoteValue(value)}\n${command}: maximum digest length for ${quoteValue('BLAKE2b')} is 512 bits\n`;

async function sum(ctx: CommandContext, command: string, a: DigestAlgorithm): Promise<number> {
  const options: OptionSpec[] = [
    { short: 'b', long: 'binary' },
    { short: 't', long: 'text' },
    ...SHARED_SUM_OPTIONS,
  ];
  if (a.variableLength) options.push({ short: 'l', long: 'length', argument: 'required' });
  const line = await parseCommandLine(ctx, command, { options }, { help: CHECKSUM_HELP[command] });
  if (typeof line === 'number') return line;
  const on = new Set<string>();
  let binary = false;
  let text = false;
  let lengthText: string | undefined;
  let bits = 0;
  for (const opt of line.options) {
    if (opt.key === 'binary') {
      binary = true;
      text = false;
    } else if (opt.key === 'text') {
      text = true;
      binary = false;
    } else if (opt.key === 'length') {
      lengthText = opt.value ?? '';
      bits = await parseLength(ctx, command, lengthText);
      if (bits < 0) return 1;
    } else on.add(opt.key);
  }
  if (bits > a.bits) {
    await printError(ctx, lengthTooLarge(command, lengthText ?? ''));
    return 1;
  }
  if (bits === 0) bits = a.bits;
  const check = on.has('check');
  if (on.has('tag') && text) return usageError(ctx, command, '--tag does not support --text mode');
  if (on.has('tag') && check)
    return usageError(ctx, command, 'the --tag option is meaningless when verifying checksums');
  if (on.has('zero') && check)
    return usageError(ctx, command, 'the --zero option is not supported when verifying checksums');
  if ((binary || text) && check)
    return usageError(
      ctx,
      command,
      'the --binary and --text options are meaningless when verifying checksums',
    );
  if (!check)
    for (const flag of CHECK_ONLY_OPTIONS)
      if (on.has(flag))
        return usageError(ctx, command, `the --${flag} option is meaningful only when verifying checksums`);
  const operands = line.operands.length === 0 ? ['-'] : line.operands;
  const out = new TextOutput(ctx.stdout);
  const style = { tagged: on.has('tag'), binary, zero: on.has('zero') };
  const checking = checkOptionsFrom(on);
  let status = 0;
  for (const operand of operands) {
    if (check) {
      const listStatus = await checkList(ctx, command, { fixed: a, initial: a }, checking, operand, out);
      status = Math.max(status, listStatus);
      continue;
    }
    const digest = await digestOf(ctx, a, bits, operand);
    if (digest instanceof Error) {
      await out.flush();
      await printError(ctx, `${command}: ${quoteName(operand)}: ${digest.message}\n`);
      status = 1;
      continue;
    }
    out.put(formatRecord(a, bits, digest, operand, style));
    if (out.full) await out.flush();
  }
  await out.flush();
  return status;
}

function spec(command: string, key: string): CommandSpec {
  const a = digestAlgorithm(key);
  return {
    name: command,
    summary: `compute and check ${a.tag} message digests`,
    help: CHECKSUM_HELP[command] as string,
    run: (ctx) => runCommand(ctx, () => sum(ctx, command, a)),
  };
}

export const checksumCommands: readonly CommandSpec[] = COMMANDS.map(([command, key]) => spec(command, key));
