/**
 * The virtual identity a command runs as (`CommandContext.identity`) and the names the file
 * commands print for owners: the identity's own uid and gid by its names, 0 as `root`, any other
 * id as its number (there is no user database in the virtual shell).
 * @module
 */
import type { CommandContext } from '../command.js';

export interface ResolvedIdentity {
  readonly uid: number;
  readonly gid: number;
  readonly user: string;
  readonly group: string;
  readonly groups: readonly number[];
}

/** The identity with its defaults filled in. */
export function identityOf(ctx: CommandContext): ResolvedIdentity {
  const id = ctx.identity;
  const uid = id?.uid ?? 0;
  const gid = id?.gid ?? 0;
  const envUser = ctx.env.get('USER') ?? ctx.env.get('LOGNAME');
  const user =
    id?.user ?? (envUser !== undefined && envUser !== '' ? envUser : uid === 0 ? 'root' : String(uid));
  const group = id?.group ?? (gid === 0 ? 'root' : gid === uid ? user : String(gid));
  return { uid, gid, user, group, groups: id?.groups ?? [gid] };
}

/** The name of `uid`, or undefined when it has none. */
export function userNameOf(ctx: CommandContext, uid: number): string | undefined {
  const me = identityOf(ctx);
  if (uid === me.uid) return me.user;
  if (uid === 0) return 'root';
  return undefined;
}

/** The name of `gid`, or undefined when it has none. */
export function groupNameOf(ctx: CommandContext, gid: number): string | undefined {
  const me = identityOf(ctx);
  if (gid === me.gid) return me.group;
  if (gid === 0) return 'root';
  return undefined;
}
