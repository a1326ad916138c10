/**
 * Real bash as the oracle for the kernel: the same script runs in `bash -c` inside a fresh
 * temporary directory holding the case's files, and in the kernel over a memory filesystem
 * holding the same files at the same path. Status, stdout, stderr (byte for byte, as Latin-1
 * text so any byte compares) and the files left in the directory are compared.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createKernel } from '../../../src/kernel/index.js';
import type { Filesystem } from '../../../src/vfs/filesystem.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';

export interface ShellCase {
  readonly name: string;
  readonly script: string;
  readonly stdin?: string;
  /** Files relative to the working directory (a name ending in `/` is a directory). */
  readonly files?: Readonly<Record<string, string>>;
}

export interface ShellOutcome {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
  /** `name=content` of every file left in the directory, sorted. */
  readonly files: readonly string[];
}

/** What both shells see (no user configuration, C.UTF-8, UTC). */
export function oracleEnv(dir: string): Record<string, string> {
  return { PATH: '/usr/bin:/bin', HOME: dir, LC_ALL: 'C.UTF-8', TZ: 'UTC', TERM: 'dumb' };
}

const latin1 = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

function fresh(): string {
  return mkdtempSync(join(tmpdir(), 'kdiff-'));
}

function listReal(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, prefix)).sort()) {
    const rel = prefix === '' ? name : `${prefix}/${name}`;
    const st = statSync(join(dir, rel), { throwIfNoEntry: false });
    if (st?.isDirectory()) out.push(`${rel}/`, ...listReal(dir, rel));
    else if (st?.isFile()) out.push(`${rel}=${latin1(readFileSync(join(dir, rel)))}`);
    else out.push(`${rel}?`);
  }
  return out;
}

async function listVirtual(fs: Filesystem, dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  const entries = (await fs.readdir(prefix === '' ? dir : `${dir}/${prefix}`)).map((e) => e.name).sort();
  for (const name of entries) {
    const rel = prefix === '' ? name : `${prefix}/${name}`;
    const st = await fs.stat(`${dir}/${rel}`).catch(() => undefined);
    if (st?.type === 'directory') out.push(`${rel}/`, ...(await listVirtual(fs, dir, rel)));
    else if (st?.type === 'file') out.push(`${rel}=${latin1(await fs.readFile(`${dir}/${rel}`))}`);
    else out.push(`${rel}?`);
  }
  return out;
}

/** Run the case in real bash (`bash -c`), in a fresh directory. */
export function runBash(c: ShellCase): ShellOutcome {
  const dir = fresh();
  try {
    for (const [name, content] of Object.entries(c.files ?? {})) {
      if (name.endsWith('/')) mkdirSync(join(dir, name), { recursive: true });
      else {
        mkdirSync(dirname(join(dir, name)), { recursive: true });
        writeFileSync(join(dir, name), content);
      }
    }
    const r = spawnSync('/bin/bash', ['-c', c.script], {
      argv0: 'bash',
      cwd: dir,
      env: oracleEnv(dir),
      input: c.stdin ?? '',
      timeout: 20_000,
    });
    return {
      status: r.status ?? 128 + (r.signal === null ? 0 : (constants.signals[r.signal] ?? 0)),
      stdout: latin1(r.stdout),
      stderr: latin1(r.stderr),
      files: listReal(dir),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Run the case in the kernel, over a memory filesystem holding the same files at the same path. */
export async function runKernel(c: ShellCase): Promise<ShellOutcome> {
  const dir = fresh();
  rmSync(dir, { recursive: true, force: true });
  const seed: Record<string, { type: 'directory' } | { content: string }> = { [dir]: { type: 'directory' } };
  for (const [name, content] of Object.entries(c.files ?? {})) {
    if (name.endsWith('/')) seed[join(dir, name.slice(0, -1))] = { type: 'directory' };
    else seed[join(dir, name)] = { content };
  }
  const fs = createMemoryFilesystem({ files: seed } as NonNullable<
    Parameters<typeof createMemoryFilesystem>[0]
  >);
  const kernel = createKernel({ fs, cwd: dir, env: oracleEnv(dir) });
  try {
    const r = await kernel.exec(c.script, { stdin: c.stdin ?? '', timeoutMs: 20_000 });
    return {
      status: r.exitCode ?? -1,
      stdout: r.stdoutBytes === null ? r.stdout : latin1(r.stdoutBytes),
      stderr: r.stderrBytes === null ? r.stderr : latin1(r.stderrBytes),
      files: await listVirtual(fs, dir),
    };
  } finally {
    kernel.close();
  }
}

/** Whether bash can be run here (the differential tests skip without it). */
export function haveBash(): boolean {
  return spawnSync('/bin/bash', ['-c', 'exit 0']).status === 0;
}
