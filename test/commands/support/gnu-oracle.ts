/**
 * The GNU tools as the oracle for the virtual shell's commands: run the real tool (through real
 * bash, in a fresh temporary directory holding the given files) and the virtual command (through
 * `runStandalone` over a filesystem holding the same files), and compare status, stdout and stderr
 * byte for byte.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CommandHandler } from '../../../src/commands/command.js';
import { runStandalone } from '../../../src/commands/standalone.js';
import type { Filesystem } from '../../../src/vfs/filesystem.js';

export interface OracleCase {
  /** argv, `argv[0]` the tool's name (`grep`, `sed`, ...). */
  readonly argv: readonly string[];
  readonly stdin?: string | Uint8Array;
  /** Files relative to the working directory. */
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
}

export interface Outcome {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
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
    return await new Promise<Outcome>((resolve, reject) => {
      const child = spawn(c.argv[0] as string, c.argv.slice(1), { cwd: dir, env: { ...ORACLE_ENV } });
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
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Run the virtual command over `fs`, after writing the case's files under `cwd` in it. `fs` must
 * be empty (or at least free of the case's names) and writable.
 */
export async function runVirtual(
  handler: CommandHandler,
  c: OracleCase,
  fs: Filesystem,
  options: { readonly cwd?: string; readonly commands?: ReadonlyMap<string, CommandHandler> } = {},
): Promise<Outcome> {
  const cwd = options.cwd ?? '/work';
  await fs.mkdir(cwd, { recursive: true });
  for (const [name, content] of Object.entries(c.files ?? {})) {
    const path = `${cwd}/${name}`;
    await fs.mkdir(path.slice(0, path.lastIndexOf('/')), { recursive: true });
    await fs.writeFile(path, typeof content === 'string' ? new TextEncoder().encode(content) : content);
  }
  const stdin = typeof c.stdin === 'string' ? new TextEncoder().encode(c.stdin) : c.stdin;
  const r = await runStandalone(handler, {
    argv: c.argv,
    fs,
    cwd,
    stdin,
    env: ORACLE_ENV,
    commands: options.commands,
  });
  return { status: r.status, stdout: latin1(r.stdout), stderr: latin1(r.stderr) };
}
