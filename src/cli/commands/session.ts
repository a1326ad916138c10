/**
 * `berth changes`, `berth diff`, `berth commit`, `berth discard`: a person reviews the changes a
 * virtual session keeps (an agent's work under `berth mcp --context virtual`), from another
 * terminal, while the server runs (through it) or after it stopped (directly). The session is the
 * one over the current directory (or `--root`), or the one `--session` names.
 * @module
 */
import { relative, resolve, sep } from 'node:path';
import {
  describeAll,
  findSession,
  listSessions,
  liveOwner,
  openSessionReview,
  removeSession,
  type SessionEntry,
  type SessionReview,
  sessionsFor,
  stateRoot,
} from '../../contexts/virtual/sessions/index.js';
import type { WorkspaceChange } from '../../contract/types.js';
import { BerthError, ConflictError, InvalidArgumentError } from '../../errors/index.js';
import {
  type CommandSpec,
  type FlagSpec,
  type FlagValues,
  formatHelp,
  parseArgs,
  stringFlag,
} from '../args.js';
import type { CliIo } from '../io.js';

const SESSION_FLAGS: Readonly<Record<string, FlagSpec>> = {
  session: {
    type: 'string',
    value: 'ID|NAME',
    description: 'the session (an id, an id prefix, or a name); default: the one over the current directory',
  },
  root: {
    type: 'string',
    value: 'DIR',
    description: 'find the session over DIR instead of the current directory',
  },
};

const WHERE = `Sessions live in the per-user state directory ($BERTH_STATE_DIR, else
$XDG_STATE_HOME/berth, else ~/.local/state/berth), never in the project. Without --session,
berth takes the session over the current directory (or --root); when there are several it lists
them and asks for --session. While the server that made the session runs, these commands go
through it; after it stopped (or was killed), they open the session themselves.`;

export const changesSpec: CommandSpec = {
  name: 'berth changes',
  summary: "list the changes a virtual session keeps (an agent's work, not yet on disk)",
  usage: ['[--session ID|NAME] [--root DIR] [--json]', '--all [--json]'],
  positionals: 'none',
  flags: {
    ...SESSION_FLAGS,
    all: { type: 'boolean', description: 'list every session instead: id, name, root, state, changes' },
    json: { type: 'boolean', description: 'print as JSON' },
  },
  details: `Each change: A added, M modified, D deleted, T type changed (directories end with /).

${WHERE}`,
};

export const diffSpec: CommandSpec = {
  name: 'berth diff',
  summary: 'show the changes of a virtual session as a unified diff',
  usage: ['[PATH...] [--session ID|NAME] [--root DIR]'],
  positionals: 'some',
  flags: { ...SESSION_FLAGS },
  details: `A git-style diff, paths relative to the session's root (git apply takes it). PATH narrows it
to files or directories (relative to the current directory).

${WHERE}`,
};

export const commitSpec: CommandSpec = {
  name: 'berth commit',
  summary: "write a virtual session's changes to its directory",
  usage: ['[PATH...] [--force] [--session ID|NAME] [--root DIR]'],
  positionals: 'some',
  flags: {
    ...SESSION_FLAGS,
    force: {
      type: 'boolean',
      description: 'write even over files that changed on disk since the session first read them',
    },
  },
  details: `Each file is replaced atomically. If a file changed on disk since the session first read it
(you edited it meanwhile), nothing is written and the command lists every such path (exit 1):
look at them, then commit the rest with PATH, discard them, or commit with --force.
A session left empty by a commit is removed unless its server still runs.

${WHERE}`,
};

export const discardSpec: CommandSpec = {
  name: 'berth discard',
  summary: "drop a virtual session's changes (all, or those under PATH)",
  usage: ['[PATH...] [--session ID|NAME] [--root DIR]'],
  positionals: 'some',
  flags: { ...SESSION_FLAGS },
  details: `The directory is left as it is. A session left empty is removed unless its server still runs.

${WHERE}`,
};

const KIND_MARK: Record<WorkspaceChange['kind'], string> = {
  added: 'A',
  modified: 'M',
  deleted: 'D',
  'type-changed': 'T',
};

/** `berth changes` */
export async function changesCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(argv, changesSpec);
  if (parsed.help) {
    io.stdout.write(formatHelp(changesSpec));
    return 0;
  }
  if (parsed.flags.all === true) return listAll(parsed.flags, io);
  return withReview(parsed.flags, io, async (session, review) => {
    const changes = await review.changes();
    if (parsed.flags.json === true) {
      io.stdout.write(
        `${JSON.stringify(
          {
            session: describeSession(session),
            server:
              review.server === null ? null : { pid: review.server.pid, since: review.server.startedAt },
            changes: changes.map((c) => ({ ...c, hostPath: hostPath(session, c.path) })),
          },
          null,
          2,
        )}\n`,
      );
      return 0;
    }
    io.stdout.write(`${heading(session, review, io)}\n`);
    for (const change of changes) {
      const shown = `${relative(session.root, hostPath(session, change.path)) || '.'}${change.type === 'directory' ? '/' : ''}`;
      io.stdout.write(`  ${markColour(io, change.kind)(KIND_MARK[change.kind])} ${shown}\n`);
    }
    io.stdout.write(
      changes.length === 0
        ? 'no changes\n'
        : `${changes.length} change${changes.length === 1 ? '' : 's'}: berth diff shows them, berth commit writes them to ${session.root}, berth discard drops them\n`,
    );
    return 0;
  });
}

/** `berth diff` */
export async function diffCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(argv, diffSpec);
  if (parsed.help) {
    io.stdout.write(formatHelp(diffSpec));
    return 0;
  }
  return withReview(parsed.flags, io, async (session, review) => {
    const diff = await review.diff(selection(session, parsed.positionals, io));
    io.stdout.write(io.out.enabled ? colourDiff(diff, io) : diff);
    return 0;
  });
}

/** `berth commit` */
export async function commitCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(argv, commitSpec);
  if (parsed.help) {
    io.stdout.write(formatHelp(commitSpec));
    return 0;
  }
  return withReview(parsed.flags, io, async (session, review) => {
    try {
      const { applied } = await review.commit(
        selection(session, parsed.positionals, io),
        parsed.flags.force === true,
      );
      if (applied.length === 0) io.stdout.write('nothing to commit\n');
      else {
        io.stdout.write(
          `committed ${applied.length} path${applied.length === 1 ? '' : 's'} to ${session.root}:\n`,
        );
        for (const path of applied)
          io.stdout.write(`  ${relative(session.root, hostPath(session, path)) || '.'}\n`);
      }
      await removeIfEmpty(session, review, io);
      return 0;
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      io.stderr.write(
        `${io.err.red('berth commit:')} nothing was written: ${error.paths.length === 1 ? 'this file' : `these ${error.paths.length} files`} changed on disk since the session first read ${error.paths.length === 1 ? 'it' : 'them'}:\n`,
      );
      for (const path of error.paths) io.stderr.write(`  ${hostPath(session, path)}\n`);
      io.stderr.write(
        'look at them (berth diff PATH), then commit the rest with PATH, discard them, or commit with --force\n',
      );
      return 1;
    }
  });
}

/** `berth discard` */
export async function discardCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(argv, discardSpec);
  if (parsed.help) {
    io.stdout.write(formatHelp(discardSpec));
    return 0;
  }
  return withReview(parsed.flags, io, async (session, review) => {
    const paths = selection(session, parsed.positionals, io);
    const before = await review.changes();
    await review.discard(paths);
    const after = await review.changes();
    const dropped = before.length - after.length;
    io.stdout.write(`dropped ${dropped} change${dropped === 1 ? '' : 's'}; ${after.length} left\n`);
    await removeIfEmpty(session, review, io);
    return 0;
  });
}

async function withReview(
  flags: FlagValues,
  io: CliIo,
  body: (session: SessionEntry, review: SessionReview) => Promise<number>,
): Promise<number> {
  const session = chooseSession(flags, io);
  const review = await openSessionReview(session);
  try {
    return await body(session, review);
  } finally {
    await review.close();
  }
}

/** The session `--session` names, or the one over the current directory (or `--root`). */
function chooseSession(flags: FlagValues, io: CliIo): SessionEntry {
  const stateDir = stateRoot(io.env);
  const selector = stringFlag(flags, 'session');
  if (selector !== undefined) {
    if (flags.root !== undefined) {
      throw new InvalidArgumentError(
        '--root',
        'finds a session by its directory; with --session it is not needed',
      );
    }
    return findSession(stateDir, selector);
  }
  const dir = resolve(io.cwd, stringFlag(flags, 'root') ?? '.');
  const found = sessionsFor(stateDir, dir);
  if (found.length === 1) return found[0] as SessionEntry;
  if (found.length === 0) {
    throw new BerthError(
      'E_NOT_FOUND',
      `no virtual session over ${dir} (sessions are made by berth mcp --context virtual; ${describeAll(listSessions(stateDir))})`,
    );
  }
  throw new InvalidArgumentError(
    '--session',
    `${found.length} sessions are over ${dir}; pick one: ${found
      .map(
        (s) =>
          `${s.id}${s.name ? ` (${s.name})` : ''}, created ${s.createdAt}${liveOwner(s) ? ', running' : ''}`,
      )
      .join('; ')}`,
  );
}

/** PATH arguments (host paths, relative to the current directory) as namespace paths. */
function selection(session: SessionEntry, paths: readonly string[], io: CliIo): string[] | undefined {
  if (paths.length === 0) return undefined;
  return paths.map((path) => {
    const absolute = resolve(io.cwd, path);
    const rel = relative(session.root, absolute);
    if (rel === '..' || rel.startsWith(`..${sep}`) || resolve(session.root, rel) !== absolute) {
      throw new InvalidArgumentError(JSON.stringify(path), `is outside the session's root ${session.root}`);
    }
    return rel === '' ? session.workspacePath : `${session.workspacePath}/${rel.split(sep).join('/')}`;
  });
}

/** The host path a namespace path of the session stands for. */
function hostPath(session: SessionEntry, path: string): string {
  if (path === session.workspacePath) return session.root;
  return resolve(session.root, path.slice(session.workspacePath.length + 1));
}

async function removeIfEmpty(session: SessionEntry, review: SessionReview, io: CliIo): Promise<void> {
  if (review.server !== null) return;
  if ((await review.changes()).length > 0) return;
  await review.close();
  removeSession(session);
  io.stdout.write(`session ${session.id} is empty and was removed\n`);
}

function heading(session: SessionEntry, review: SessionReview, io: CliIo): string {
  const state = review.server === null ? 'stopped' : `served by process ${review.server.pid}`;
  return io.out.bold(
    `session ${session.id}${session.name ? ` (${session.name})` : ''} over ${session.root}, ${state}`,
  );
}

function describeSession(session: SessionEntry) {
  return { id: session.id, name: session.name, root: session.root, createdAt: session.createdAt };
}

async function listAll(flags: FlagValues, io: CliIo): Promise<number> {
  for (const name of ['session', 'root'] as const) {
    if (flags[name] !== undefined) throw new InvalidArgumentError(`--${name}`, 'does not go with --all');
  }
  const sessions = listSessions(stateRoot(io.env));
  const rows = sessions.map((s) => {
    const owner = liveOwner(s);
    return { ...describeSession(s), running: owner?.kind === 'server' ? owner.pid : null };
  });
  if (flags.json === true) {
    io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) io.stdout.write('no sessions\n');
  for (const row of rows) {
    io.stdout.write(
      `${row.id}  ${(row.name ?? '-').padEnd(16)}  ${row.running === null ? 'stopped' : `running (pid ${row.running})`}  ${row.createdAt}  ${row.root}\n`,
    );
  }
  return 0;
}

function markColour(io: CliIo, kind: WorkspaceChange['kind']): (text: string) => string {
  return kind === 'added' ? io.out.green : kind === 'deleted' ? io.out.red : io.out.yellow;
}

function colourDiff(diff: string, io: CliIo): string {
  return diff
    .split('\n')
    .map((line) =>
      line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff --git')
        ? io.out.bold(line)
        : line.startsWith('@@')
          ? io.out.cyan(line)
          : line.startsWith('+')
            ? io.out.green(line)
            : line.startsWith('-')
              ? io.out.red(line)
              : line,
    )
    .join('\n');
}
