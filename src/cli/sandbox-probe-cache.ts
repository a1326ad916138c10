/**
 * The sandbox preflight, remembered per machine and kernel. The preflight runs real sandboxes
 * (tens of milliseconds to a second), and MCP clients start `berth mcp` at every session, so a
 * passing result is kept in the user's cache directory under a key of everything it depends on:
 * host, kernel, user, the user-namespace settings, the bubblewrap binary and berth's own build.
 * Only a pass is kept: a stale pass fails closed (a sandboxed command then fails to start), never
 * open, and a failure is probed again every time so that a fix takes effect at once.
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { arch, homedir, hostname, platform, release, version } from 'node:os';
import { join } from 'node:path';
import { findExecutable } from '../sandbox/find-executable.js';
import { insideContainer, readUserNamespaceSettings } from '../sandbox/linux-host.js';
import { probeSandbox } from '../sandbox/probe.js';
import { SANDBOX_EXEC_PATH } from '../sandbox/sandbox-exec-profile.js';
import type { SandboxReport } from '../sandbox/types.js';
import { berthVersion } from './version.js';

/** A kept pass is probed again after this long, whatever its key says. */
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** Set to `0` to probe at every start. */
export const PROBE_CACHE_ENV = 'BERTH_SANDBOX_PROBE_CACHE';

interface CacheEntry {
  readonly key: string;
  readonly at: number;
  readonly report: SandboxReport;
}

/** `probeSandbox()`, answered from the cache when a pass for this exact machine state is kept. */
export async function probeSandboxCached(env: NodeJS.ProcessEnv): Promise<SandboxReport> {
  if (env[PROBE_CACHE_ENV] === '0') return probeSandbox();
  const key = cacheKey();
  const dir = cacheDir(env);
  const file = dir === null || key === null ? null : join(dir, `sandbox-probe-${key.slice(0, 32)}.json`);
  if (file !== null && key !== null) {
    const kept = readEntry(file, key);
    if (kept !== null) return kept;
  }
  const report = await probeSandbox();
  if (report.available && file !== null && dir !== null && key !== null)
    writeEntry(dir, file, { key, at: Date.now(), report });
  return report;
}

/** Everything the preflight's answer depends on, hashed; null when it cannot be told. */
function cacheKey(): string | null {
  try {
    // The preflight looks bubblewrap up on this process's PATH, so the key does too.
    const binary =
      platform() === 'linux'
        ? findExecutable('bwrap', process.env.PATH)
        : platform() === 'darwin'
          ? SANDBOX_EXEC_PATH
          : null;
    if (binary === null) return null;
    const facts = {
      host: [hostname(), platform(), arch(), release(), version()],
      user: [process.getuid?.(), process.getgid?.()],
      userns: platform() === 'linux' ? readUserNamespaceSettings() : null,
      container: platform() === 'linux' ? insideContainer() : null,
      binary: [binary, fileIdentity(binary)],
      // Every build rewrites this file: a new berth probes again.
      berth: [berthVersion(), fileIdentity(new URL(import.meta.url))],
    };
    return createHash('sha256').update(JSON.stringify(facts)).digest('hex');
  } catch {
    return null;
  }
}

function fileIdentity(path: string | URL): number[] {
  const s = statSync(path);
  return [s.dev, s.ino, s.size, s.mtimeMs, s.mode];
}

function cacheDir(env: NodeJS.ProcessEnv): string | null {
  const base = env.XDG_CACHE_HOME || (homedir() ? join(homedir(), '.cache') : '');
  return base === '' ? null : join(base, 'berth');
}

function readEntry(file: string, key: string): SandboxReport | null {
  try {
    const entry = JSON.parse(readFileSync(file, 'utf8')) as Partial<CacheEntry>;
    const fresh =
      typeof entry.at === 'number' && Date.now() - entry.at < MAX_AGE_MS && entry.at <= Date.now();
    if (entry.key !== key || !fresh || entry.report?.available !== true) return null;
    return entry.report;
  } catch {
    return null;
  }
}

/** Written whole or not at all (a rename), readable by this user only. A failure is ignored. */
function writeEntry(dir: string, file: string, entry: CacheEntry): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(temp, JSON.stringify(entry), { mode: 0o600, flag: 'wx' });
    renameSync(temp, file);
  } catch {
    // No cache: the next start probes again.
  }
}
