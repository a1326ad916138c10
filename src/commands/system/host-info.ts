/**
 * `uname`, `hostname`, `nproc` and `tty` with the virtual shell's own values, never the host's:
 * the node name is `HOSTNAME` of the environment (default `localhost`), the system `Linux` with a
 * release of `6.1.0-berth`; `nproc` says 1 unless `OMP_NUM_THREADS` asks for another; there is
 * never a terminal.
 * @module
 */
import { encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteValue } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand, usageError, versionText } from '../text/cli.js';
import { SYSTEM_HELP } from './gnu-help.js';

export const VIRTUAL_UNAME = {
  sysname: 'Linux',
  release: '6.1.0-berth',
  version: '#1 SMP berth virtual shell',
  os: 'GNU/Linux',
};

function machine(): string {
  return process.arch === 'arm64' ? 'aarch64' : process.arch === 'x64' ? 'x86_64' : process.arch;
}

function nodeName(ctx: CommandContext): string {
  const h = ctx.identity?.hostname ?? ctx.env.get('HOSTNAME');
  return h === undefined || h === '' ? 'localhost' : h;
}

async function uname(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'uname',
    {
      options: [
        { short: 'a', long: 'all' },
        { short: 's', long: 'kernel-name' },
        { key: 'kernel-name', long: 'sysname' },
        { short: 'n', long: 'nodename' },
        { short: 'r', long: 'kernel-release' },
        { key: 'kernel-release', long: 'release' },
        { short: 'v', long: 'kernel-version' },
        { short: 'm', long: 'machine' },
        { short: 'p', long: 'processor' },
        { short: 'i', long: 'hardware-platform' },
        { short: 'o', long: 'operating-system' },
      ],
    },
    { help: SYSTEM_HELP.uname },
  );
  if (typeof line === 'number') return line;
  if (line.operands.length > 0)
    return usageError(ctx, 'uname', `extra operand ${quoteValue(line.operands[0] as string)}`);
  const want = new Set(line.options.map((o) => o.key));
  const all = want.has('all');
  const parts: string[] = [];
  const add = (key: string, value: string, inAll = true): void => {
    if (want.has(key) || (all && inAll)) parts.push(value);
  };
  if (want.size === 0) want.add('kernel-name');
  add('kernel-name', VIRTUAL_UNAME.sysname);
  add('nodename', nodeName(ctx));
  add('kernel-release', VIRTUAL_UNAME.release);
  add('kernel-version', VIRTUAL_UNAME.version);
  add('machine', machine());
  // GNU leaves out an unknown processor and platform under -a.
  add('processor', 'unknown', false);
  add('hardware-platform', 'unknown', false);
  add('operating-system', VIRTUAL_UNAME.os);
  return runCommand(ctx, async () => {
    await ctx.stdout.write(encodeText(`${parts.join(' ')}\n`));
    return 0;
  });
}

async function hostname(ctx: CommandContext): Promise<number> {
  const args = ctx.argv.slice(1);
  if (args[0] === '--help' || args[0] === '-h') {
    await ctx.stdout.write(encodeText(SYSTEM_HELP.hostname as string));
    return 0;
  }
  if (args[0] === '--version' || args[0] === '-V') {
    await ctx.stdout.write(encodeText(versionText('hostname', 'hostname')));
    return 0;
  }
  const name = nodeName(ctx);
  const flags = args.filter((a) => a.startsWith('-'));
  const operands = args.filter((a) => !a.startsWith('-'));
  if (operands.length > 0 || flags.includes('-F') || flags.includes('-b')) {
    await printError(ctx, 'hostname: you must be root to change the host name\n');
    return 1;
  }
  const flag = flags[flags.length - 1];
  let text = name;
  if (flag === '-s' || flag === '--short') text = name.split('.')[0] as string;
  else if (flag === '-d' || flag === '--domain')
    text = name.includes('.') ? name.slice(name.indexOf('.') + 1) : '';
  else if (flag === '-i' || flag === '--ip-address' || flag === '-I' || flag === '--all-ip-addresses')
    text = '127.0.0.1';
  else if (
    flag !== undefined &&
    !['-f', '--fqdn', '--long', '-A', '--all-fqdns', '-a', '--alias'].includes(flag)
  ) {
    // net-tools' hostname: getopt's message, then its usage on stdout, status 255.
    await printError(
      ctx,
      flag.startsWith('--')
        ? `hostname: unrecognized option '${flag}'\n`
        : `hostname: invalid option -- '${flag.slice(1, 2)}'\n`,
    );
    await ctx.stdout.write(encodeText(SYSTEM_HELP.hostname as string));
    return 255;
  }
  return runCommand(ctx, async () => {
    await ctx.stdout.write(encodeText(`${text}\n`));
    return 0;
  });
}

async function nproc(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'nproc',
    { options: [{ long: 'all' }, { long: 'ignore', argument: 'required' }] },
    { help: SYSTEM_HELP.nproc },
  );
  if (typeof line === 'number') return line;
  if (line.operands.length > 0)
    return usageError(ctx, 'nproc', `extra operand ${quoteValue(line.operands[0] as string)}`);
  let count = 1;
  const all = line.options.some((o) => o.key === 'all');
  const omp = ctx.env.get('OMP_NUM_THREADS');
  if (!all && omp !== undefined && /^\d+/.test(omp) && Number.parseInt(omp, 10) > 0)
    count = Number.parseInt(omp, 10);
  for (const o of line.options) {
    if (o.key !== 'ignore') continue;
    if (!/^\d+$/.test(o.value ?? '')) {
      await printError(ctx, `nproc: invalid number: ${quoteValue(o.value ?? '')}\n`);
      return 1;
    }
    count = Math.max(1, count - Number(o.value));
  }
  return runCommand(ctx, async () => {
    await ctx.stdout.write(encodeText(`${count}\n`));
    return 0;
  });
}

async function tty(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'tty',
    {
      options: [
        { short: 's', long: 'silent' },
        { key: 'silent', long: 'quiet' },
      ],
    },
    { help: SYSTEM_HELP.tty, usageStatus: 2 },
  );
  if (typeof line === 'number') return line;
  if (line.operands.length > 0)
    return usageError(ctx, 'tty', `extra operand ${quoteValue(line.operands[0] as string)}`, 2);
  if (line.options.some((o) => o.key === 'silent')) return 1;
  return runCommand(ctx, async () => {
    await ctx.stdout.write(encodeText('not a tty\n'));
    return 1;
  });
}

export const unameCommand: CommandSpec = {
  name: 'uname',
  summary: 'print the virtual system information',
  help: SYSTEM_HELP.uname as string,
  run: uname,
};
export const hostnameCommand: CommandSpec = {
  name: 'hostname',
  summary: 'print the virtual host name',
  help: SYSTEM_HELP.hostname as string,
  run: hostname,
};
export const nprocCommand: CommandSpec = {
  name: 'nproc',
  summary: 'print the number of processing units',
  help: SYSTEM_HELP.nproc as string,
  run: nproc,
};
export const ttyCommand: CommandSpec = {
  name: 'tty',
  summary: 'print the terminal name (there is none)',
  help: SYSTEM_HELP.tty as string,
  run: tty,
};
