/**
 * A remote command's environment: berth's non-interactive defaults, the handle's `env`, the call's
 * `env`. The provider adds variables to the sandbox's own environment but cannot remove any, so a
 * name set to `undefined`, and every credential-shaped name the sandbox's environment holds that
 * the caller did not pass explicitly (the same rule as the local scrub), become an `unset` line in
 * front of the command.
 * @module
 */
import { NON_INTERACTIVE_ENV } from '../../contract/defaults.js';
import { envRecord } from '../../contract/validate-options.js';
import { InvalidArgumentError } from '../../errors/index.js';
import { isCredentialShapedName } from '../../subprocess/scrubbed-env.js';
import { shQuote } from './scripts.js';

const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface RemoteEnv {
  readonly set: Record<string, string>;
  readonly unset: string[];
}

/** The credential-shaped names of a sandbox's environment (computed once per handle). */
export function credentialNames(names: readonly string[]): string[] {
  return names.filter((name) => SHELL_NAME.test(name) && isCredentialShapedName(name));
}

export function remoteEnv(
  env: unknown,
  field: string,
  base: 'command' | 'terminal',
  handleEnv: Readonly<Record<string, string>>,
  scrub: readonly string[],
): RemoteEnv {
  const record = envRecord(env, field) ?? {};
  const baseEnv = base === 'command' ? NON_INTERACTIVE_ENV : { TERM: 'xterm-256color' };
  const merged: Record<string, string | undefined> = { ...baseEnv, ...handleEnv, ...record };
  const set: Record<string, string> = {};
  const unset = new Set<string>();
  for (const name of scrub) if (!(name in merged)) unset.add(name);
  for (const [name, value] of Object.entries(merged)) {
    if (value !== undefined) {
      set[name] = value;
    } else if (SHELL_NAME.test(name)) {
      unset.add(name);
    } else {
      throw new InvalidArgumentError(
        `${field}.${name}`,
        'only variables with shell-valid names can be removed inside a remote sandbox',
      );
    }
  }
  return { set, unset: [...unset] };
}

/** `unset …;` in front of a command line ('' when nothing is removed). */
export function unsetPrelude(env: RemoteEnv): string {
  return env.unset.length === 0 ? '' : `unset ${env.unset.join(' ')}; `;
}

/** `export`/`unset` lines (for a script file; the PTY shell does not get the provider's env). */
export function exportLines(env: RemoteEnv): string {
  let lines = env.unset.length === 0 ? '' : `unset ${env.unset.join(' ')}\n`;
  for (const [name, value] of Object.entries(env.set)) {
    if (!SHELL_NAME.test(name)) {
      throw new InvalidArgumentError(
        `env.${name}`,
        'a stream needs shell-valid variable names in a remote sandbox',
      );
    }
    lines += `export ${name}=${shQuote(value)}\n`;
  }
  return lines;
}
