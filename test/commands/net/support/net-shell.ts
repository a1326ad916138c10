/**
 * The network commands under test: berth's shell with a network allowlist, and the real curl and
 * wget as oracles, run with the same arguments against the same local server.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NetworkOptions } from '../../../../src/commands/net/allowlist.js';
import { createKernel, type KernelResult } from '../../../../src/kernel/index.js';
import { shellJoin } from '../../../../src/subprocess/shell-quote.js';
import { createMemoryFilesystem, type MemoryFilesystem } from '../../../../src/vfs/index.js';
import type { SeenRequest, TestServer } from './http-server.js';

export interface Outcome {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Files the run left in its working directory, by name (only those asked for). */
  readonly files: Readonly<Record<string, string | null>>;
}

export interface NetShell {
  readonly fs: MemoryFilesystem;
  exec(
    script: string,
    options?: { timeoutMs?: number; signal?: AbortSignal; stdin?: string },
  ): Promise<KernelResult>;
}

/** A kernel whose commands may fetch what `network` allows (none when undefined), cwd `/work`. */
export function netShell(network: NetworkOptions | undefined, files: Record<string, string> = {}): NetShell {
  const fs = createMemoryFilesystem({
    files: { '/work': { type: 'directory' }, '/home/user': { type: 'directory' }, ...files },
  });
  const kernel = createKernel({ fs, cwd: '/work', ...(network === undefined ? {} : { network }) });
  return {
    fs,
    exec: (script, options = {}) => kernel.exec(script, options),
  };
}

/** `argv` through berth's shell; `files` named are read back from /work afterwards. */
export async function runVirtualTool(
  shell: NetShell,
  argv: readonly string[],
  options: { stdin?: string; files?: readonly string[]; inputs?: Record<string, string> } = {},
): Promise<Outcome> {
  for (const [name, text] of Object.entries(options.inputs ?? {}))
    await shell.fs.writeFile(`/work/${name}`, new TextEncoder().encode(text));
  const result = await shell.exec(
    shellJoin(argv),
    options.stdin === undefined ? {} : { stdin: options.stdin },
  );
  const files: Record<string, string | null> = {};
  for (const name of options.files ?? []) {
    try {
      files[name] = new TextDecoder().decode(await shell.fs.readFile(`/work/${name}`));
    } catch {
      files[name] = null;
    }
  }
  return { status: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr, files };
}

/** The real tool with `argv` in a fresh directory holding `inputs`. */
export async function runRealTool(
  argv: readonly string[],
  options: { stdin?: string; files?: readonly string[]; inputs?: Record<string, string> } = {},
): Promise<Outcome> {
  const dir = await mkdtemp(join(tmpdir(), 'berth-net-oracle-'));
  try {
    const { writeFile } = await import('node:fs/promises');
    for (const [name, text] of Object.entries(options.inputs ?? {})) await writeFile(join(dir, name), text);
    const child = spawn(argv[0] as string, argv.slice(1), {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8', TZ: 'UTC' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    // The tool may exit before reading its input (an unknown option): EPIPE is its answer, not ours.
    child.stdin.on('error', () => {});
    child.stdin.end(options.stdin ?? '');
    const status = await new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
    const files: Record<string, string | null> = {};
    for (const name of options.files ?? []) {
      try {
        files[name] = await readFile(join(dir, name), 'utf8');
      } catch {
        files[name] = null;
      }
    }
    return {
      status,
      stdout: Buffer.concat(out).toString('utf8'),
      stderr: Buffer.concat(err).toString('utf8'),
      files,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What an oracle case compares between the real tool and berth's. */
export type Aspect = 'status' | 'stdout' | 'stderr' | 'request' | 'files' | 'first-line';

/** One command run by the real tool and by berth's shell against the same server. */
export interface OracleCase {
  readonly name: string;
  readonly args: (origin: string) => string[];
  readonly compare: readonly Aspect[];
  readonly inputs?: Record<string, string>;
  readonly files?: readonly string[];
  readonly stdin?: string;
}

/**
 * The case run by the real tool, then by `shell`, each seen through what it compares; `sent`
 * picks what a request shows of itself (the server's last request of each run).
 */
export async function oracleViews(
  server: TestServer,
  shell: NetShell,
  c: OracleCase,
  sent: (request: SeenRequest | undefined) => unknown,
): Promise<{ ours: unknown; real: unknown }> {
  const args = c.args(server.origin);
  const options = {
    ...(c.stdin === undefined ? {} : { stdin: c.stdin }),
    ...(c.files === undefined ? {} : { files: c.files }),
    ...(c.inputs === undefined ? {} : { inputs: c.inputs }),
  };
  server.seen.length = 0;
  const real = await runRealTool(args, options);
  const realSent = sent(server.seen.at(-1));
  server.seen.length = 0;
  const ours = await runVirtualTool(shell, args, options);
  const oursSent = sent(server.seen.at(-1));
  const view = (o: Outcome, request: unknown) => ({
    ...(c.compare.includes('status') ? { status: o.status } : {}),
    ...(c.compare.includes('stdout') ? { stdout: o.stdout } : {}),
    ...(c.compare.includes('stderr') ? { stderr: o.stderr } : {}),
    ...(c.compare.includes('files') ? { files: o.files } : {}),
    ...(c.compare.includes('first-line') ? { first: o.stdout.split('\n')[0] } : {}),
    ...(c.compare.includes('request') ? { request } : {}),
  });
  return { ours: view(ours, oursSent), real: view(real, realSent) };
}
