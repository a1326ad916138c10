/**
 * `--context virtual` for the commands that open a context: berth's shell in this process over a
 * copy-on-write view of `--root`, at `/workspace`, with the file tools confined to it. With a
 * session (always under `berth mcp`, else `--session NAME`) the changes live in the per-user
 * state directory and are served for review while the command runs; without one they are dropped
 * when it exits, and berth says how many.
 * @module
 */

import {
  type NetworkAllowRule,
  type NetworkOptions,
  resolveNetworkPolicy,
} from '../commands/net/allowlist.js';
import {
  createSession,
  findSession,
  removeSession,
  type SessionEntry,
  stateRoot,
} from '../contexts/virtual/sessions/session-store.js';
import type { ContextHandle, ExecutionContext } from '../contract/types.js';
import { BerthError, InvalidArgumentError } from '../errors/index.js';
import { type FlagValues, stringFlag } from './args.js';
import type { ContextChoice, ContextTuning, OpenContext } from './context-setup.js';
import { type CliIo, warn } from './io.js';

/** Where `--root` appears inside the virtual context. */
export const VIRTUAL_WORKSPACE = '/workspace';

/** TERM-equivalent grace for a cancelled script's traps (the same budget as the other contexts). */
const VIRTUAL_KILL_GRACE_MS = 2000;

type VirtualChoice = Extract<ContextChoice, { kind: 'virtual' }>;

/** Validate the flags for the virtual context (`root` already resolved). */
export function chooseVirtual(flags: FlagValues, _cwd: string, root: string): VirtualChoice {
  if (flags.sandbox !== undefined) {
    throw new InvalidArgumentError(
      flags.sandbox === false ? '--no-sandbox' : '--sandbox',
      'applies to the process context; the virtual context starts no host process for an OS sandbox to confine',
    );
  }
  for (const name of ['image', 'harden'] as const) {
    if (flags[name] !== undefined) {
      const flag = name === 'harden' && flags.harden === false ? '--no-harden' : `--${name}`;
      throw new InvalidArgumentError(flag, 'applies to the docker context only; add --context docker');
    }
  }
  if (flags['unix-sockets'] !== undefined) {
    throw new InvalidArgumentError(
      '--unix-sockets',
      'applies to the OS sandbox of the process context; the virtual shell has no sockets at all',
    );
  }
  if (flags.template !== undefined) {
    throw new InvalidArgumentError(
      '--template',
      'applies to the e2b and daytona contexts only; the virtual context has no sandbox template',
    );
  }
  if (stringFlag(flags, 'network') === 'allow') {
    throw new InvalidArgumentError(
      '--network',
      "allow is not possible in the virtual context: its shell reaches only what --allow-url lists (curl and wget), e.g. --allow-url 'GET https://api.example.com/'",
    );
  }
  const network = stringFlag(flags, 'network');
  if (network !== undefined && network !== 'deny') {
    throw new InvalidArgumentError('--network', `must be allow or deny, got ${JSON.stringify(network)}`);
  }
  const allowed = allowUrls(flags['allow-url']);
  if (network === 'deny' && allowed !== undefined) {
    throw new InvalidArgumentError('--network', 'deny contradicts --allow-url; give one or the other');
  }
  return { kind: 'virtual', root, session: stringFlag(flags, 'session'), network: allowed };
}

/** `--allow-url [METHODS ]PREFIX`, each validated as the context will (errors name the value). */
function allowUrls(value: FlagValues[string]): NetworkOptions | undefined {
  if (value === undefined) return undefined;
  const values = Array.isArray(value) ? value : [String(value)];
  const rules: NetworkAllowRule[] = values.map((text) => {
    const trimmed = text.trim();
    const space = trimmed.indexOf(' ');
    if (space === -1) return { url: trimmed };
    const methods = trimmed.slice(0, space);
    const url = trimmed.slice(space + 1).trim();
    return { url, methods: methods === '*' ? '*' : methods.split(',').filter((m) => m !== '') };
  });
  for (const [index, rule] of rules.entries()) {
    try {
      resolveNetworkPolicy({ allow: [rule] }, '--allow-url');
    } catch (error) {
      if (!(error instanceof InvalidArgumentError)) throw error;
      const detail = error.message.slice(error.field.length + 2);
      throw new InvalidArgumentError(
        '--allow-url',
        `${JSON.stringify(values[index])}: ${detail} (the form is [METHODS ]PREFIX, e.g. 'GET,POST https://api.example.com/v1/')`,
      );
    }
  }
  return { allow: rules };
}

/** Open the virtual context the choice describes. */
export async function openVirtual(
  choice: VirtualChoice,
  io: CliIo,
  tuning: ContextTuning,
): Promise<OpenContext> {
  const options = {
    containment: true,
    killGraceMs: VIRTUAL_KILL_GRACE_MS,
    session: tuning.shellSession === true,
    ...(tuning.maxOutputBytes === undefined ? {} : { output: { maxOutputBytes: tuning.maxOutputBytes } }),
    ...(choice.network === undefined ? {} : { network: choice.network }),
  };
  const base = `virtual context (berth's shell in this process: no host processes, ${networkSummary(choice)}), ${choice.root} at ${VIRTUAL_WORKSPACE} copy-on-write`;
  if (choice.session === undefined && tuning.keepSession !== true) {
    // Loaded on use: the virtual shell and its commands are most of berth's modules, and every
    // other context starts without them.
    const { createVirtualContext } = await import('../contexts/virtual/index.js');
    const context = createVirtualContext({ ...options, root: choice.root, workspacePath: VIRTUAL_WORKSPACE });
    const handle = await context.spawn();
    return {
      context,
      handle,
      description: `${base}, changes dropped on exit`,
      dispose: once(async () => {
        const count = await changeCount(context, handle);
        await context.close();
        if (count > 0) {
          warn(
            io,
            `${count} change${count === 1 ? '' : 's'} to ${choice.root} ${count === 1 ? 'was' : 'were'} dropped: the virtual context keeps them for review only in a session (--session NAME)`,
          );
        }
      }),
    };
  }
  const stateDir = stateRoot(io.env);
  const session =
    choice.session === undefined
      ? newSession(stateDir, choice.root)
      : namedSession(stateDir, choice.session, choice.root);
  const { serveSession } = await import('../contexts/virtual/sessions/session-review.js');
  const served = await serveSession(session, options);
  const label = `${session.id}${session.name ? ` (${session.name})` : ''}`;
  return {
    context: served.context,
    handle: served.handle,
    description: `${base}, changes kept in session ${label}`,
    session: { id: session.id, name: session.name },
    dispose: once(async () => {
      const count = await changeCount(served.context, served.handle);
      await served.close();
      if (count === 0) {
        removeSession(session);
        return;
      }
      io.stderr.write(
        `berth: session ${label} keeps ${count} change${count === 1 ? '' : 's'} to ${choice.root} for review: berth changes --session ${session.id} (then berth diff, berth commit or berth discard)\n`,
      );
    }),
  };
}

/** `no network`, or what curl and wget may reach. */
export function networkSummary(choice: VirtualChoice): string {
  const rules = choice.network?.allow.length ?? 0;
  if (rules === 0) return 'no network';
  return `network only for curl and wget to ${rules} allowed URL prefix${rules === 1 ? '' : 'es'}`;
}

function newSession(stateDir: string, root: string): SessionEntry {
  return createSession(stateDir, { root, workspacePath: VIRTUAL_WORKSPACE });
}

/** The session `selector` names (continued), or a new one of that name. */
function namedSession(stateDir: string, selector: string, root: string): SessionEntry {
  let existing: SessionEntry | undefined;
  try {
    existing = findSession(stateDir, selector);
  } catch (error) {
    if (!(error instanceof BerthError && error.code === 'E_NOT_FOUND')) throw error;
  }
  if (existing === undefined)
    return createSession(stateDir, { root, name: selector, workspacePath: VIRTUAL_WORKSPACE });
  if (existing.root !== root) {
    throw new InvalidArgumentError(
      '--session',
      `session ${JSON.stringify(selector)} is over ${existing.root}, not ${root}; give its --root, or another session name`,
    );
  }
  return existing;
}

async function changeCount(context: ExecutionContext, handle: ContextHandle): Promise<number> {
  try {
    return (await context.changes?.(handle))?.length ?? 0;
  } catch {
    return 0;
  }
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let promise: Promise<void> | undefined;
  return () => {
    promise ??= fn();
    return promise;
  };
}
