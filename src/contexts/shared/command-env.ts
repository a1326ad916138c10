/**
 * The environment of one command in a container or a pod: berth's non-interactive defaults, then
 * the caller's entries. An exec can add variables but not remove the container's own, so a name
 * set to `undefined` becomes an `unset` line in front of the script.
 * @module
 */
import { NON_INTERACTIVE_ENV } from '../../contract/defaults.js';
import { envRecord } from '../../contract/validate-options.js';
import { InvalidArgumentError } from '../../errors/index.js';

const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Exec `Env` entries and the names to unset. */
export interface CommandEnv {
  readonly set: string[];
  readonly unset: string[];
}

/**
 * Resolve a command's environment: berth's base (the non-interactive defaults `TERM=dumb`,
 * `NO_COLOR=1`, … for commands, `TERM=xterm-256color` for terminals), then the handle's `env`
 * (already the container's, repeated so it wins over the base), then the call's.
 */
export function commandEnv(
  env: unknown,
  field: string,
  base: 'command' | 'terminal',
  handleEnv: Readonly<Record<string, string>> = {},
): CommandEnv {
  const record = envRecord(env, field) ?? {};
  const baseEnv = base === 'command' ? NON_INTERACTIVE_ENV : { TERM: 'xterm-256color' };
  const merged: Record<string, string | undefined> = { ...baseEnv, ...handleEnv, ...record };
  const set: string[] = [];
  const unset: string[] = [];
  for (const [name, value] of Object.entries(merged)) {
    if (value !== undefined) {
      set.push(`${name}=${value}`);
    } else if (SHELL_NAME.test(name)) {
      unset.push(name);
    } else {
      throw new InvalidArgumentError(
        `${field}.${name}`,
        'only variables with shell-valid names can be removed inside a container',
      );
    }
  }
  return { set, unset };
}

/** `unset …` line to put in front of a script (empty when nothing is removed). */
export function unsetLine(env: CommandEnv): string {
  return env.unset.length === 0 ? '' : `unset ${env.unset.join(' ')}\n`;
}
