/**
 * Where sessions live and how they are found. A session is a directory under the per-user state
 * directory (`$BERTH_STATE_DIR`, else `$XDG_STATE_HOME/berth`, else `~/.local/state/berth`):
 *
 *     sessions/<id>/session.json   what the session is over (root, workspace path, name, created)
 *     sessions/<id>/overlay/       the workspace's changes (the overlay's state directory)
 *     sessions/<id>/owner.json     the live process using it (pid, control socket), while one does
 *
 * Never inside the workspace: a project's own tools (git, the build) never see a session, and an
 * agent working in the workspace cannot reach the change set that records its work.
 * @module
 */
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, sep } from 'node:path';
import { BerthError, InvalidArgumentError } from '../../../errors/index.js';

/** What `session.json` holds. */
export interface SessionRecord {
  readonly version: 1;
  /** Eight hex digits, unique in the state directory. */
  readonly id: string;
  /** The name given at creation, if any (unique in the state directory). */
  readonly name: string | null;
  /** The host directory the workspace is a copy-on-write view of (real path). */
  readonly root: string;
  /** Where the workspace is mounted in the virtual namespace. */
  readonly workspacePath: string;
  /** ISO time of creation. */
  readonly createdAt: string;
}

/** A session found on disk. */
export interface SessionEntry extends SessionRecord {
  /** The session's directory. */
  readonly directory: string;
  /** The overlay state directory inside it. */
  readonly overlayDirectory: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const ID = /^[0-9a-f]{8}$/;

/** The per-user state directory of berth (not created). */
export function stateRoot(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env.BERTH_STATE_DIR;
  if (explicit) {
    if (!isAbsolute(explicit)) {
      throw new InvalidArgumentError(
        'BERTH_STATE_DIR',
        `must be an absolute path, got ${JSON.stringify(explicit)}`,
      );
    }
    return explicit;
  }
  const xdg = env.XDG_STATE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'berth');
  return join(env.HOME || homedir(), '.local', 'state', 'berth');
}

function sessionsDir(root: string): string {
  return join(root, 'sessions');
}

/** Check a session name given by a person. */
export function assertSessionName(name: string, field = '--session'): string {
  if (!NAME.test(name) || ID.test(name)) {
    throw new InvalidArgumentError(
      field,
      `${JSON.stringify(name)} is not a session name: use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit, and not 8 hex digits (those are ids)`,
    );
  }
  return name;
}

/** Every readable session, newest first. */
export function listSessions(root: string): SessionEntry[] {
  const dir = sessionsDir(root);
  if (!existsSync(dir)) return [];
  const found: SessionEntry[] = [];
  for (const id of readdirSync(dir)) {
    if (!ID.test(id)) continue;
    const entry = readSession(root, id);
    if (entry) found.push(entry);
  }
  return found.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}

function readSession(root: string, id: string): SessionEntry | null {
  const directory = join(sessionsDir(root), id);
  try {
    const record = JSON.parse(readFileSync(join(directory, 'session.json'), 'utf8')) as SessionRecord;
    if (record.version !== 1 || record.id !== id || typeof record.root !== 'string') return null;
    return { ...record, directory, overlayDirectory: join(directory, 'overlay') };
  } catch {
    return null; // half-created or foreign: not a session
  }
}

/** Create a session over `root` (a real, existing directory). */
export function createSession(
  stateDir: string,
  options: { readonly root: string; readonly name?: string | undefined; readonly workspacePath: string },
): SessionEntry {
  if (options.name !== undefined) {
    assertSessionName(options.name);
    const clash = listSessions(stateDir).find((s) => s.name === options.name);
    if (clash) {
      throw new InvalidArgumentError(
        '--session',
        `a session named ${JSON.stringify(options.name)} exists already (${clash.id}, over ${clash.root})`,
      );
    }
  }
  mkdirSync(sessionsDir(stateDir), { recursive: true, mode: 0o700 });
  for (;;) {
    const id = randomBytes(4).toString('hex');
    const directory = join(sessionsDir(stateDir), id);
    try {
      mkdirSync(directory, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw error;
    }
    const record: SessionRecord = {
      version: 1,
      id,
      name: options.name ?? null,
      root: options.root,
      workspacePath: options.workspacePath,
      createdAt: new Date().toISOString(),
    };
    // Written whole under a temporary name, so a reader never sees half a record.
    const temp = join(directory, `.session.json.${process.pid}`);
    writeFileSync(temp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
    renameSync(temp, join(directory, 'session.json'));
    return { ...record, directory, overlayDirectory: join(directory, 'overlay') };
  }
}

/** Remove a session and its changes. */
export function removeSession(session: SessionEntry): void {
  rmSync(session.directory, { recursive: true, force: true });
}

/**
 * The session `selector` names: an exact id, an exact name, or an unambiguous id prefix of at
 * least four digits.
 * @throws NotFoundError when none matches; InvalidArgumentError when a prefix matches several.
 */
export function findSession(stateDir: string, selector: string): SessionEntry {
  const sessions = listSessions(stateDir);
  const exact = sessions.find((s) => s.id === selector || s.name === selector);
  if (exact) return exact;
  const prefixed = /^[0-9a-f]{4,8}$/.test(selector) ? sessions.filter((s) => s.id.startsWith(selector)) : [];
  if (prefixed.length === 1) return prefixed[0] as SessionEntry;
  if (prefixed.length > 1) {
    throw new InvalidArgumentError(
      '--session',
      `${JSON.stringify(selector)} matches ${prefixed.map((s) => s.id).join(', ')}; give more of the id`,
    );
  }
  throw new BerthError(
    'E_NOT_FOUND',
    `no such session: ${selector} (sessions are kept in ${sessionsDir(stateDir)}; ${describeAll(sessions)})`,
  );
}

/** Sessions whose root is `dir` or one of its ancestors: the ones a person in `dir` means. */
export function sessionsFor(stateDir: string, dir: string): SessionEntry[] {
  const real = realOrSelf(dir);
  return listSessions(stateDir).filter(
    (s) => real === s.root || real.startsWith(s.root.endsWith(sep) ? s.root : `${s.root}${sep}`),
  );
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** A short list of sessions for messages. */
export function describeAll(sessions: readonly SessionEntry[]): string {
  if (sessions.length === 0) return 'there are none';
  return `there are: ${sessions.map((s) => `${s.id}${s.name ? ` (${s.name})` : ''} over ${s.root}`).join('; ')}`;
}
