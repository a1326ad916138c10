/**
 * The GNU tools as the oracle for the virtual shell's commands: run the real tool (through real
 * bash, in a fresh temporary directory holding the given files) and the virtual command (through
 * `runStandalone` over a filesystem holding the same files), and compare status, stdout and stderr
 * byte for byte.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmod,
  lstat,
  lutimes,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rm,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CommandContext, CommandHandler } from '../../../src/commands/command.js';
import { runStandalone } from '../../../src/commands/standalone.js';
import type { Filesystem } from '../../../src/vfs/filesystem.js';

export interface OracleCase {
  /** argv, `argv[0]` the tool's name (`grep`, `sed`, ...). */
  readonly argv: readonly string[];
  readonly stdin?: string | Uint8Array;
  /** Files relative to the working directory. */
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
  /** Directories to make (relative), after the files. */
  readonly dirs?: readonly string[];
  /** Symbolic links to make: relative path → target. */
  readonly symlinks?: Readonly<Record<string, string>>;
  /** Permission bits to set (relative path → mode), after everything else is made. */
  readonly modes?: Readonly<Record<string, number>>;
  /** Modification (and access) times to set, in epoch seconds; applied last. */
  readonly mtimes?: Readonly<Record<string, number>>;
  /** Variables added to the environment of both sides (`COLUMNS`, `TZ`, ...). */
  readonly env?: Readonly<Record<string, string>>;
  /** Also compare the working directory's tree after the run (types, modes, sizes, contents, links). */
  readonly captureTree?: boolean | 'with-times';
  /**
   * Commands run after `argv` in the same directory, each compared too (list an archive the case
   * made, decompress what it compressed): for outputs that may differ in bytes but not in meaning.
   */
  readonly followUp?: readonly (readonly string[])[];
}

export interface Outcome {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
  /** The working directory after the run, when the case asked for it. */
  readonly tree?: string;
  /** The outcomes of the case's `followUp` commands, in order. */
  readonly followUps?: readonly Outcome[];
}

/** The working directory of the virtual side; the real side's temporary directory is shown as this. */
export const VIRTUAL_CWD = '/work';

function sortedEntries(record: Readonly<Record<string, unknown>> | undefined): string[] {
  return Object.keys(record ?? {}).sort();
}

/** When a case's setup was made, for entries a tree compared with times does not date itself. */
const SETUP_TIME = 981173106;

/**
 * The case's times, each in epoch seconds. A tree compared with times also fixes every entry the
 * setup makes (files, directories, symlinks and their parents): made at "now", they would differ
 * whenever the two runs straddle a second.
 */
function caseTimes(c: OracleCase): Readonly<Record<string, number>> {
  if (c.captureTree !== 'with-times') return c.mtimes ?? {};
  const times: Record<string, number> = {};
  const made = [...Object.keys(c.files ?? {}), ...(c.dirs ?? []), ...Object.keys(c.symlinks ?? {})];
  for (const path of made) {
    const parts = path.split('/').filter((part) => part !== '' && part !== '.');
    for (let end = 1; end <= parts.length; end += 1) times[parts.slice(0, end).join('/')] = SETUP_TIME;
  }
  return { ...times, ...c.mtimes };
}

/** A line per entry under `dir`: path, type, permission bits, size, content digest or link target. */
async function snapshotHost(dir: string, withTimes: boolean): Promise<string> {
  const lines: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const names = (await readdir(join(dir, rel))).sort();
    for (const name of names) {
      const path = rel === '' ? name : `${rel}/${name}`;
      const st = await lstat(join(dir, path));
      const mode = (st.mode & 0o7777).toString(8);
      const time = withTimes ? ` ${Math.floor(st.mtimeMs / 1000)}` : '';
      if (st.isSymbolicLink()) lines.push(`${path} l -> ${await readlink(join(dir, path))}`);
      else if (st.isDirectory()) {
        lines.push(`${path} d ${mode}${time}`);
        await walk(path);
      } else {
        const digest = createHash('sha1')
          .update(await readFile(join(dir, path)))
          .digest('hex')
          .slice(0, 12);
        lines.push(`${path} f ${mode} ${st.size} ${digest}${time}`);
      }
    }
  };
  await walk('');
  return lines.join('\n');
}

async function snapshotVirtual(fs: Filesystem, dir: string, withTimes: boolean): Promise<string> {
  const lines: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const names = (await fs.readdir(rel === '' ? dir : `${dir}/${rel}`)).map((e) => e.name).sort();
    for (const name of names) {
      const path = rel === '' ? name : `${rel}/${name}`;
      const full = `${dir}/${path}`;
      const st = await fs.lstat(full);
      const mode = (st.mode & 0o7777).toString(8);
      const time = withTimes ? ` ${Math.floor(st.mtimeMs / 1000)}` : '';
      if (st.type === 'symlink') lines.push(`${path} l -> ${await fs.readlink(full)}`);
      else if (st.type === 'directory') {
        lines.push(`${path} d ${mode}${time}`);
        await walk(path);
      } else {
        const digest = createHash('sha1')
          .update(await fs.readFile(full))
          .digest('hex')
          .slice(0, 12);
        lines.push(`${path} f ${mode} ${st.size} ${digest}${time}`);
      }
    }
  };
  await walk('');
  return lines.join('\n');
}

/** The environment both sides see: GNU in C.UTF-8, UTC, no user configuration. */
export const ORACLE_ENV: Readonly<Record<string, string>> = {
  LC_ALL: 'C.UTF-8',
  TZ: 'UTC',
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: '/nonexistent',
};

const latin1 = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

/** Run the real tool. Output is returned as Latin-1 text so that any byte compares exactly. */
export async function runGnu(c: OracleCase): Promise<Outcome> {
  const dir = await mkdtemp(join(tmpdir(), 'berth-oracle-'));
  try {
    for (const [name, content] of Object.entries(c.files ?? {})) {
      await mkdir(dirname(join(dir, name)), { recursive: true });
      await writeFile(join(dir, name), content);
    }
    for (const d of c.dirs ?? []) await mkdir(join(dir, d), { recursive: true });
    for (const link of sortedEntries(c.symlinks)) {
      await mkdir(dirname(join(dir, link)), { recursive: true });
      await symlink(c.symlinks?.[link] as string, join(dir, link));
    }
    for (const path of sortedEntries(c.modes)) await chmod(join(dir, path), c.modes?.[path] as number);
    const times = caseTimes(c);
    for (const path of sortedEntries(times)) {
      const t = times[path] as number;
      // A symlink's own time (what tar records), not its target's.
      await (c.symlinks?.[path] === undefined ? utimes : lutimes)(join(dir, path), t, t);
    }
    const outcome = await spawnTool(c.argv, dir, c);
    const later: Outcome[] = [];
    for (const argv of c.followUp ?? []) later.push(await spawnTool(argv, dir, { env: c.env }));
    const shown = (text: string): string => text.split(dir).join(VIRTUAL_CWD);
    const tree = c.captureTree ? await snapshotHost(dir, c.captureTree === 'with-times') : undefined;
    const show = (o: Outcome): Outcome => ({
      status: o.status,
      stdout: shown(o.stdout),
      stderr: shown(o.stderr),
    });
    return {
      ...show(outcome),
      ...(tree === undefined ? {} : { tree }),
      ...(c.followUp === undefined ? {} : { followUps: later.map(show) }),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function spawnTool(
  argv: readonly string[],
  dir: string,
  c: Pick<OracleCase, 'env' | 'stdin'>,
): Promise<Outcome> {
  return new Promise<Outcome>((resolve, reject) => {
    const child = spawn(argv[0] as string, argv.slice(1), {
      cwd: dir,
      env: { ...ORACLE_ENV, ...c.env },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({
        status: code ?? 128 + (signal === null ? 0 : 15),
        stdout: latin1(Buffer.concat(out)),
        stderr: latin1(Buffer.concat(err)),
      }),
    );
    child.stdin.on('error', () => {});
    child.stdin.end(c.stdin ?? '');
  });
}

/** A clock for a memory filesystem (`createMemoryFilesystem({ now })`) that can be held at one time. */
export interface PinnableClock {
  readonly now: () => number;
  /** Hold the clock at `ms` (epoch ms), or let it run again with `null`. */
  pin(ms: number | null): void;
}

/** A clock that runs as `Date.now` until pinned. */
export function pinnableClock(): PinnableClock {
  let pinned: number | null = null;
  return {
    now: () => pinned ?? Date.now(),
    pin: (ms) => {
      pinned = ms;
    },
  };
}

/**
 * Run the virtual command over `fs`, after writing the case's files under `cwd` in it. `fs` must
 * be empty (or at least free of the case's names) and writable.
 */
export async function runVirtual(
  handler: CommandHandler,
  c: OracleCase,
  fs: Filesystem,
  options: {
    readonly cwd?: string;
    readonly commands?: ReadonlyMap<string, CommandHandler>;
    /** Fields added to the command's context (an identity, a network policy). */
    readonly context?: Partial<CommandContext>;
    /**
     * The clock `fs` reads its times from, pinned while a symlink with an entry in `mtimes` is
     * made: the VFS cannot set a symlink's own times afterwards (no `lutimes`).
     */
    readonly clock?: PinnableClock;
  } = {},
): Promise<Outcome> {
  const cwd = options.cwd ?? VIRTUAL_CWD;
  await fs.mkdir(cwd, { recursive: true });
  for (const [name, content] of Object.entries(c.files ?? {})) {
    const path = `${cwd}/${name}`;
    await fs.mkdir(path.slice(0, path.lastIndexOf('/')), { recursive: true });
    await fs.writeFile(path, typeof content === 'string' ? new TextEncoder().encode(content) : content);
  }
  for (const d of c.dirs ?? []) await fs.mkdir(`${cwd}/${d}`, { recursive: true });
  for (const link of sortedEntries(c.symlinks)) {
    const path = `${cwd}/${link}`;
    await fs.mkdir(path.slice(0, path.lastIndexOf('/')), { recursive: true });
    const at = caseTimes(c)[link];
    if (at !== undefined && options.clock === undefined)
      throw new Error(`the case sets the time of symlink ${link}: pass a pinnable clock`);
    options.clock?.pin(at === undefined ? null : at * 1000);
    try {
      await fs.symlink(c.symlinks?.[link] as string, path);
    } finally {
      options.clock?.pin(null);
    }
  }
  for (const path of sortedEntries(c.modes)) await fs.chmod(`${cwd}/${path}`, c.modes?.[path] as number);
  const times = caseTimes(c);
  for (const path of sortedEntries(times)) {
    if (c.symlinks?.[path] !== undefined) continue;
    const t = (times[path] as number) * 1000;
    await fs.utimes(`${cwd}/${path}`, t, t);
  }
  const stdin = typeof c.stdin === 'string' ? new TextEncoder().encode(c.stdin) : c.stdin;
  const r = await runStandalone(handler, {
    argv: c.argv,
    fs,
    cwd,
    stdin,
    env: { ...ORACLE_ENV, ...c.env },
    commands: options.commands,
    context: options.context,
  });
  const later: Outcome[] = [];
  for (const argv of c.followUp ?? []) {
    const next = argv[0] === c.argv[0] ? handler : options.commands?.get(argv[0] as string);
    if (next === undefined) throw new Error(`followUp: no handler for ${argv[0]}`);
    const f = await runStandalone(next, {
      argv,
      fs,
      cwd,
      env: { ...ORACLE_ENV, ...c.env },
      commands: options.commands,
      context: options.context,
    });
    later.push({ status: f.status, stdout: latin1(f.stdout), stderr: latin1(f.stderr) });
  }
  const tree = c.captureTree ? await snapshotVirtual(fs, cwd, c.captureTree === 'with-times') : undefined;
  return {
    status: r.status,
    stdout: latin1(r.stdout),
    stderr: latin1(r.stderr),
    ...(tree === undefined ? {} : { tree }),
    ...(c.followUp === undefined ? {} : { followUps: later }),
  };
}
