/**
 * `cksum` (GNU coreutils 9.1): the POSIX CRC by default (`CRC SIZE NAME`), `-a` for the older
 * sums (`sysv`, `bsd`) and the digests (`md5` .. `sha512`, `blake2b` with `-l`, `sm3`) in BSD's
 * tagged form (`--untagged` for GNU's), and `-c` over tagged lists, each line naming its own
 * algorithm unless `-a` fixes it.
 * @module
 */
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteName, quoteValue } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand, usageError } from '../text/cli.js';
import { TextOutput } from '../text/output.js';
import { checkList, checkOptionsFrom, digestOf, formatRecord } from './checksum-list.js';
import { DIGEST_ALGORITHMS, type DigestAlgorithm, digestAlgorithm } from './digests.js';
import { CHECKSUM_HELP } from './gnu-help.js';
import { CHECK_ONLY_OPTIONS, lengthTooLarge, parseLength, SHARED_SUM_OPTIONS } from './sums.js';

const NAME = 'cksum';

async function invalidAlgorithm(ctx: CommandContext, value: string): Promise<number> {
  const valid = DIGEST_ALGORITHMS.map((a) => `  - ${quoteValue(a.key)}\n`).join('');
  await printError(
    ctx,
    `${NAME}: invalid argument ${quoteValue(value)} for ${quoteValue('--algorithm')}\nValid arguments are:\n${valid}`,
  );
  return usageError(ctx, NAME, undefined);
}

async function cksum(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    NAME,
    {
      options: [
        { short: 'a', long: 'algorithm', argument: 'required' },
        { short: 'l', long: 'length', argument: 'required' },
        { long: 'untagged' },
        { long: 'debug' },
        // GNU's option string still holds md5sum's -b and -t; cksum answers them with its usage hint.
        { short: 'b', key: 'binary' },
        { short: 't', key: 'text' },
        ...SHARED_SUM_OPTIONS,
      ],
    },
    { help: CHECKSUM_HELP.cksum },
  );
  if (typeof line === 'number') return line;
  let chosen: DigestAlgorithm | undefined;
  let tagged = true;
  let lengthText: string | undefined;
  let bits = 0;
  const on = new Set<string>();
  for (const opt of line.options) {
    if (opt.key === 'algorithm') {
      const found = DIGEST_ALGORITHMS.find((a) => a.key === opt.value);
      if (found === undefined) return invalidAlgorithm(ctx, opt.value ?? '');
      chosen = found;
    } else if (opt.key === 'length') {
      lengthText = opt.value ?? '';
      bits = await parseLength(ctx, NAME, lengthText);
      if (bits < 0) return 1;
    } else if (opt.key === 'tag') tagged = true;
    else if (opt.key === 'untagged') tagged = false;
    else if (opt.key === 'binary' || opt.key === 'text') return usageError(ctx, NAME, undefined);
    else on.add(opt.key);
  }
  const a = chosen ?? digestAlgorithm('crc');
  if (bits !== 0 && !a.variableLength) {
    await printError(ctx, `${NAME}: --length is only supported with --algorithm=blake2b\n`);
    return 1;
  }
  if (bits > a.bits) {
    await printError(ctx, lengthTooLarge(NAME, lengthText ?? ''));
    return 1;
  }
  if (bits === 0) bits = a.bits;
  const check = on.has('check');
  if (check && chosen?.legacy === true) {
    await printError(ctx, `${NAME}: --check is not supported with --algorithm={bsd,sysv,crc}\n`);
    return 1;
  }
  if (on.has('zero') && check)
    return usageError(ctx, NAME, 'the --zero option is not supported when verifying checksums');
  if (!check)
    for (const flag of CHECK_ONLY_OPTIONS)
      if (on.has(flag))
        return usageError(ctx, NAME, `the --${flag} option is meaningful only when verifying checksums`);
  // There is no hardware CRC here: say which implementation runs, as GNU's --debug does.
  if (on.has('debug') && a.key === 'crc') await printError(ctx, `${NAME}: using generic hardware support\n`);
  const named = line.operands.length > 0;
  const operands = named ? line.operands : ['-'];
  const out = new TextOutput(ctx.stdout);
  const zero = on.has('zero');
  const checking = checkOptionsFrom(on);
  let status = 0;
  for (const operand of operands) {
    if (check) {
      const algorithms = { fixed: chosen, initial: a, lengthInTag: true };
      status = Math.max(status, await checkList(ctx, NAME, algorithms, checking, operand, out));
      continue;
    }
    const digest = await digestOf(ctx, a, bits, operand);
    if (digest instanceof Error) {
      await out.flush();
      await printError(ctx, `${NAME}: ${quoteName(operand)}: ${digest.message}\n`);
      status = 1;
      continue;
    }
    if (a.legacy) {
      // The older sums print the name as it is, and none for standard input read without operands.
      const text = `${digest}${named ? ` ${operand}` : ''}${zero ? '\0' : '\n'}`;
      out.put(Buffer.from(text, 'utf8'));
    } else out.put(formatRecord(a, bits, digest, operand, { tagged, binary: false, zero }));
    if (out.full) await out.flush();
  }
  await out.flush();
  return status;
}

export const cksumCommand: CommandSpec = {
  name: NAME,
  summary: 'compute and check CRC and message digests',
  help: CHECKSUM_HELP.cksum as string,
  run: (ctx) => runCommand(ctx, () => cksum(ctx)),
};
