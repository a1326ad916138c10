import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { scanProcesses } from '../../src/subprocess/proc-stat.js';
import type { SubprocessOutputReader, SubprocessSpawnSpec } from '../../src/subprocess/types.js';

/** Absolute path of a fixture in test/fixtures/subprocess. */
export const fixture = (name: string) =>
  fileURLToPath(new URL(`../fixtures/subprocess/${name}`, import.meta.url));

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The subprocess module compiled to JavaScript in a scratch directory, for a host in another process. */
export interface BuiltSubprocessModule {
  /** URL of the built `subprocess/index.js`. */
  readonly moduleUrl: string;
  /** URL of node-pty's entry (the scratch directory has no node_modules to find it in). */
  readonly ptyModuleUrl: string;
  remove(): void;
}

/**
 * Compile `src/subprocess/index.ts` (and what it imports) into a scratch directory, leaving the
 * shared dist/ alone. The build has no supervisor of its own: hosts pass `supervisorPath`.
 */
export function buildSubprocessModule(prefix: string): BuiltSubprocessModule {
  const out = mkdtempSync(join(tmpdir(), prefix));
  execFileSync(
    join(repoRoot, 'node_modules/.bin/tsc'),
    [
      '--ignoreConfig',
      '--outDir',
      out,
      '--rootDir',
      join(repoRoot, 'src'),
      '--module',
      'NodeNext',
      '--moduleResolution',
      'NodeNext',
      '--target',
      'ES2023',
      '--skipLibCheck',
      '--types',
      'node',
      join(repoRoot, 'src/subprocess/index.ts'),
    ],
    { cwd: repoRoot, stdio: 'inherit' },
  );
  return {
    moduleUrl: pathToFileURL(join(out, 'subprocess/index.js')).href,
    ptyModuleUrl: pathToFileURL(join(repoRoot, 'node_modules/node-pty/lib/index.js')).href,
    remove: () => rmSync(out, { recursive: true, force: true }),
  };
}

/** True while `pid` exists and is not a zombie. */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Poll `probe` until it returns a truthy value; fail with `what` after a generous deadline. */
export async function waitFor<T>(
  probe: () => T | undefined | null | false,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A complete spec: collect both streams (64 KiB), stdin ignored, 2 s grace, cwd `/`. */
export function spec(argv: string[], overrides: Partial<SubprocessSpawnSpec> = {}): SubprocessSpawnSpec {
  return {
    argv,
    cwd: '/',
    stdio: { stdin: 'ignore', stdout: { maxBytes: 65536 }, stderr: { maxBytes: 65536 } },
    graceMs: 2000,
    ...overrides,
  };
}

/** Wait until tree.sh printed "ready" and return the descendant pids it announced, by kind. */
export async function treePids(
  reader: SubprocessOutputReader,
): Promise<Record<'group' | 'setsid' | 'trapper' | 'orphan', number>> {
  const text = await waitFor(() => {
    const now = reader.readFrom(0).text;
    return now.includes('ready\n') && now;
  }, 'tree.sh to start its descendants');
  const pids = Object.fromEntries([...text.matchAll(/^(\w+) (\d+)$/gm)].map((m) => [m[1], Number(m[2])]));
  return pids as Record<'group' | 'setsid' | 'trapper' | 'orphan', number>;
}

/** The pattern byte emit.mjs writes at stream offset `i`. */
export const pattern = (i: number) => 33 + ((i * 31 + 7) % 89);

/** Bytes `[from, to)` of emit.mjs's stream. */
export function patternBytes(from: number, to: number): Uint8Array {
  const out = new Uint8Array(Math.max(0, to - from));
  for (let i = from; i < to; i++) out[i - from] = pattern(i);
  return out;
}

/** The command a supervisor at `supervisorPid` runs: its child (the only one right after spawn). */
export function commandPid(supervisorPid: number): number {
  const child = scanProcesses().find((stat) => stat.ppid === supervisorPid);
  if (!child) throw new Error(`supervisor ${supervisorPid} has no child`);
  return child.pid;
}
