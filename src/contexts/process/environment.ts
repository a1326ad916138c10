/**
 * The environment a command sees: the scrubbed parent environment (or the minimal base when
 * `inheritEnv` is false), the non-interactive defaults, then the context's, the handle's and the
 * call's explicit entries. The runtime's scrub removes credential-shaped names; explicit strings
 * are a deliberate opt-in and survive it.
 * @module
 */
import { MINIMAL_ENV_NAMES, NON_INTERACTIVE_ENV } from '../../contract/defaults.js';

type EnvLayer = Readonly<Record<string, string | undefined>> | undefined;

/**
 * Explicit entries for the runtime's spawn spec (merged there onto the scrubbed parent).
 * @param interactive - a terminal for a person: keep the user's TERM and colours.
 */
export function commandEnv(
  inheritEnv: boolean,
  interactive: boolean,
  ...layers: EnvLayer[]
): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  if (!inheritEnv) {
    // Tombstones remove every ambient name outside the minimal base.
    const keep = new Set(MINIMAL_ENV_NAMES);
    for (const name of Object.keys(process.env)) if (!keep.has(name)) env[name] = undefined;
  }
  if (interactive) {
    env.TERM = 'xterm-256color';
  } else {
    Object.assign(env, NON_INTERACTIVE_ENV);
  }
  for (const layer of layers) {
    if (layer) Object.assign(env, layer);
  }
  return env;
}
