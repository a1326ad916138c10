/**
 * `whoami`, `id` and `groups` (GNU coreutils 9.1) over the context's virtual identity
 * (`CommandContext.identity`; absent: uid and gid 0, the user named by `USER`, else root). There
 * is no user database: only the identity itself and root (0) are known by name.
 * @module
 */
import { encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { groupNameOf, identityOf, userNameOf } from '../files/identity.js';
import { quoteValue } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand, usageError } from '../text/cli.js';
import { SYSTEM_HELP } from './gnu-help.js';

async function whoami(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(ctx, 'whoami', { options: [] }, { help: SYSTEM_HELP.whoami });
  if (typeof line === 'number') return line;
  if (line.operands.length > 0)
    return usageError(ctx, 'whoami', `extra operand ${quoteValue(line.operands[0] as string)}`);
  return runCommand(ctx, async () => {
    await ctx.stdout.write(encodeText(`${identityOf(ctx).user}\n`));
    return 0;
  });
}

interface Who {
  readonly uid: number;
  readonly gid: number;
  readonly groups: readonly number[];
}

/** The identity `name` refers to (the context's own, or root), by name or number. */
function lookup(ctx: CommandContext, name: string): Who | undefined {
  const me = identityOf(ctx);
  if (name === me.user || name === String(me.uid)) return me;
  if (name === 'root' || name === '0') return { uid: 0, gid: 0, groups: [0] };
  return undefined;
}

const user = (ctx: CommandContext, uid: number): string => userNameOf(ctx, uid) ?? String(uid);
const group = (ctx: CommandContext, gid: number): string => groupNameOf(ctx, gid) ?? String(gid);

async function id(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'id',
    {
      options: [
        { short: 'a', key: 'a' },
        { short: 'Z', long: 'context' },
        { short: 'g', long: 'group' },
        { short: 'G', long: 'groups' },
        { short: 'n', long: 'name' },
        { short: 'r', long: 'real' },
        { short: 'u', long: 'user' },
        { short: 'z', long: 'zero' },
      ],
    },
    { help: SYSTEM_HELP.id },
  );
  if (typeof line === 'number') return line;
  let which: 'u' | 'g' | 'G' | undefined;
  let names = false;
  let real = false;
  let zero = false;
  let count = 0;
  for (const o of line.options) {
    if (o.key === 'user' || o.key === 'group' || o.key === 'groups') {
      which = o.key === 'user' ? 'u' : o.key === 'group' ? 'g' : 'G';
      count += 1;
    }
    if (o.key === 'name') names = true;
    if (o.key === 'real') real = true;
    if (o.key === 'zero') zero = true;
    if (o.key === 'context') {
      await printError(ctx, 'id: --context (-Z) works only on an SELinux-enabled kernel\n');
      return 1;
    }
  }
  if (count > 1) {
    await printError(ctx, 'id: cannot print "only" of more than one choice\n');
    return 1;
  }
  if (which === undefined && (names || real)) {
    await printError(ctx, 'id: cannot print only names or real IDs in default format\n');
    return 1;
  }
  if (which === undefined && zero) {
    await printError(ctx, 'id: option --zero not permitted in default format\n');
    return 1;
  }
  return runCommand(ctx, async () => {
    const targets = line.operands.length === 0 ? [undefined] : line.operands;
    let status = 0;
    let out = '';
    for (const t of targets) {
      const who = t === undefined ? identityOf(ctx) : lookup(ctx, t);
      if (who === undefined) {
        await printError(ctx, `id: ${quoteValue(t as string)}: no such user\n`);
        status = 1;
        continue;
      }
      const end = zero ? '\0' : '\n';
      if (which === 'u') out += `${names ? user(ctx, who.uid) : who.uid}${end}`;
      else if (which === 'g') out += `${names ? group(ctx, who.gid) : who.gid}${end}`;
      else if (which === 'G')
        out += `${who.groups.map((g) => (names ? group(ctx, g) : String(g))).join(zero ? '\0' : ' ')}${end}`;
      else
        out += `uid=${who.uid}(${user(ctx, who.uid)}) gid=${who.gid}(${group(ctx, who.gid)}) groups=${who.groups.map((g) => `${g}(${group(ctx, g)})`).join(',')}\n`;
    }
    await ctx.stdout.write(encodeText(out));
    return status;
  });
}

async function groups(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(ctx, 'groups', { options: [] }, { help: SYSTEM_HELP.groups });
  if (typeof line === 'number') return line;
  return runCommand(ctx, async () => {
    let out = '';
    let status = 0;
    if (line.operands.length === 0) {
      const me = identityOf(ctx);
      out = `${me.groups.map((g) => group(ctx, g)).join(' ')}\n`;
    }
    for (const name of line.operands) {
      const who = lookup(ctx, name);
      if (who === undefined) {
        await printError(ctx, `groups: ${quoteValue(name)}: no such user\n`);
        status = 1;
        continue;
      }
      out += `${name} : ${who.groups.map((g) => group(ctx, g)).join(' ')}\n`;
    }
    await ctx.stdout.write(encodeText(out));
    return status;
  });
}

export const whoamiCommand: CommandSpec = {
  name: 'whoami',
  summary: 'print the virtual user name',
  help: SYSTEM_HELP.whoami as string,
  run: whoami,
};
export const idCommand: CommandSpec = {
  name: 'id',
  summary: 'print the virtual user and group ids',
  help: SYSTEM_HELP.id as string,
  run: id,
};
export const groupsCommand: CommandSpec = {
  name: 'groups',
  summary: 'print the groups of the virtual user',
  help: SYSTEM_HELP.groups as string,
  run: groups,
};
