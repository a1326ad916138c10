// The placeholder machinery for protected names that do not exist yet: planning, holding across
// commands and across berth processes (a real second process holds a ledger), and the sweep of a
// dead process's placeholders.
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { statIdentity } from '../../src/sandbox/placeholder-ledger.js';
import {
  flushIdlePlaceholders,
  heldPlaceholderCount,
  holdPlaceholders,
  PLACEHOLDER_LINGER_MS,
} from '../../src/sandbox/placeholders.js';
import { planProtectedNames } from '../../src/sandbox/protected-names.js';
import { privateBase } from '../../src/subprocess/private-dir.js';

const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'berth-placeholders-')));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const realOf = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

function ledgerPath(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  return join(privateBase().path, 'placeholders', `${pid}.${start}.json`);
}

describe('planProtectedNames', () => {
  it('pins existing directories on the way, binds existing names, and guards missing ones at their first missing part', () => {
    const repo = join(scratch, 'repo');
    mkdirSync(join(repo, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(repo, '.git', 'hooks', 'pre-commit.sample'), '');
    writeFileSync(join(repo, '.git', 'config'), '');
    writeFileSync(join(repo, '.git', 'HEAD'), '');
    mkdirSync(join(repo, '.github'));
    writeFileSync(join(repo, '.github', 'CODEOWNERS'), '');
    mkdirSync(join(repo, 'dotfiles'));
    writeFileSync(join(repo, 'dotfiles', 'bashrc'), '');
    symlinkSync('dotfiles/bashrc', join(repo, '.bashrc'));
    const bare = join(scratch, 'bare');
    mkdirSync(bare);
    const plan = planProtectedNames(
      [repo, bare],
      ['.bashrc', '.git/hooks/', '.git/config', '.claude/', '.github/workflows/', '.mcp.json'],
      realOf,
    );
    expect(plan.pins).toEqual([join(repo, '.git'), join(repo, '.github')]);
    expect(plan.readOnly).toEqual([
      join(repo, '.git', 'config'),
      join(repo, '.git', 'hooks'),
      join(repo, 'dotfiles', 'bashrc'),
    ]);
    expect(plan.missing).toEqual([
      join(bare, '.claude'),
      join(bare, '.git'),
      join(bare, '.github'),
      join(repo, '.claude'),
      join(repo, '.github', 'workflows'),
    ]);
  });

  it('treats an empty directory on a guarded name as missing (another command’s placeholder)', () => {
    const root = join(scratch, 'held');
    mkdirSync(join(root, '.git'), { recursive: true });
    const plan = planProtectedNames([root], ['.git/hooks/', '.git/config'], realOf);
    expect(plan.missing).toEqual([join(root, '.git')]);
    expect(plan.pins).toEqual([]);
  });
});

describe('holdPlaceholders', () => {
  it('creates each missing directory once, shares it between holders, removes it after the last', async () => {
    const root = join(scratch, 'share');
    mkdirSync(root);
    const path = join(root, '.claude');
    const before = heldPlaceholderCount();
    const first = holdPlaceholders([path]);
    const second = holdPlaceholders([path]);
    expect(first.paths).toEqual([path]);
    expect(second.paths).toEqual([path]);
    expect(heldPlaceholderCount()).toBe(before + 1);
    first.release();
    first.release();
    expect(existsSync(path)).toBe(true);
    second.release();
    // Idle, it lingers (a burst of commands reuses it), then goes.
    expect(existsSync(path)).toBe(true);
    const third = holdPlaceholders([path]);
    expect(third.paths).toEqual([path]);
    third.release();
    await new Promise((resolve) => setTimeout(resolve, PLACEHOLDER_LINGER_MS + 200));
    expect(existsSync(path)).toBe(false);
    expect(heldPlaceholderCount()).toBe(before);
  });

  it('leaves a placeholder someone filled on the host, and a name that already existed', () => {
    const root = join(scratch, 'filled');
    mkdirSync(join(root, '.vscode'), { recursive: true });
    writeFileSync(join(root, '.vscode', 'settings.json'), '{}');
    const existing = holdPlaceholders([join(root, '.vscode')]);
    expect(existing.paths).toEqual([]);
    const lease = holdPlaceholders([join(root, '.cursor')]);
    writeFileSync(join(root, '.cursor', 'mcp.json'), '{}');
    lease.release();
    flushIdlePlaceholders();
    expect(readFileSync(join(root, '.cursor', 'mcp.json'), 'utf8')).toBe('{}');
  });

  it('keeps a placeholder another live berth process holds, and sweeps it once that process is gone', async () => {
    const root = join(scratch, 'cross');
    mkdirSync(root);
    const path = join(root, '.gemini');
    const lease = holdPlaceholders([path]);
    const other = spawn('sleep', ['30'], { stdio: 'ignore' });
    await new Promise((resolve) => other.once('spawn', resolve));
    const ledger = ledgerPath(other.pid!);
    try {
      // The other process adopted the same placeholder (as its ledger says) before this one let go.
      writeFileSync(ledger, JSON.stringify({ [path]: statIdentity(path) }));
      lease.release();
      flushIdlePlaceholders();
      expect(existsSync(path)).toBe(true);
    } finally {
      other.kill('SIGKILL');
      await new Promise((resolve) => other.once('exit', resolve));
    }
    // The next ledger round sees a dead process and removes what it alone held.
    holdPlaceholders([join(root, '.codex-unrelated')]).release();
    flushIdlePlaceholders();
    expect(existsSync(path)).toBe(false);
    expect(existsSync(ledger)).toBe(false);
  });
});
