// Files that host tools execute or trust (git hooks and config, agent and editor settings, CI
// workflows) against a sandboxed command: existing ones stay read-only, missing ones cannot be
// created, the rename-the-parent trick fails, and the placeholders berth needs for missing names
// never outlive the commands that hold them.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProcessContext, type ProcessContext } from '../../../src/contexts/process/index.js';
import type { ContextHandle } from '../../../src/contract/types.js';
import { createSandboxPolicy } from '../../../src/sandbox/index.js';
import { makeScene, type Scene } from './fake-home.js';

let scene: Scene;
let context: ProcessContext;
/** A root with no repository and no tool configuration at all. */
let bare: string;
/** A root with a git repository and some tool configuration. */
let repo: string;

beforeAll(() => {
  scene = makeScene('names');
  bare = join(scene.ws, 'bare');
  repo = join(scene.ws, 'repo');
  mkdirSync(bare);
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', repo]);
  mkdirSync(join(repo, '.husky'));
  writeFileSync(join(repo, '.husky', 'pre-commit'), 'npm test\n');
  mkdirSync(join(repo, '.cursor'));
  writeFileSync(join(repo, '.cursor', 'mcp.json'), '{}\n');
  mkdirSync(join(repo, '.github', 'workflows'), { recursive: true });
  writeFileSync(join(repo, '.github', 'workflows', 'ci.yml'), 'on: push\n');
  context = createProcessContext({
    sandbox: createSandboxPolicy({ writableRoots: [bare, repo], home: scene.home, env: {} }),
    killGraceMs: 500,
  });
});

afterAll(async () => {
  await context?.close();
  scene?.remove();
});

async function run(cwd: string, command: string) {
  const handle: ContextHandle = await context.spawn({ cwd });
  try {
    return await context.exec(handle, command);
  } finally {
    await context.destroy(handle);
  }
}

const entries = (dir: string) => readdirSync(dir).sort();

/** The entries of `dir` once berth removed its idle placeholders (they linger about a second). */
async function settledEntries(dir: string): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  while (entries(dir).length > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return entries(dir);
}

describe('names that do not exist yet', () => {
  it('a command cannot create .git/hooks/pre-commit in a new .git, and no placeholder is left', async () => {
    const result = await run(bare, 'mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit');
    expect(result.exitCode).not.toBe(0);
    expect(existsSync(join(bare, '.git', 'hooks', 'pre-commit'))).toBe(false);
    const init = await run(bare, 'git init -q . && git config core.fsmonitor "touch /tmp/x"');
    expect(init.exitCode).not.toBe(0);
    expect(await settledEntries(bare)).toEqual([]);
  });

  it('nor agent, editor and CI configuration that other tools run', async () => {
    const result = await run(
      bare,
      [
        'mkdir -p .claude && echo "{\\"hooks\\":{}}" > .claude/settings.json',
        'mkdir -p .vscode && echo "{}" > .vscode/tasks.json',
        'mkdir -p .cursor && echo "{}" > .cursor/mcp.json',
        'mkdir -p .gemini && echo "{}" > .gemini/settings.json',
        'mkdir -p .github/workflows && echo "on: push" > .github/workflows/evil.yml',
      ].join('; '),
    );
    expect(result.stderr).toMatch(/Permission denied/);
    expect(await settledEntries(bare)).toEqual([]);
  });

  it('the placeholders are empty, unwritable directories only while a command holds them', async () => {
    const handle = await context.spawn({ cwd: bare });
    try {
      const task = await context.execBackground!(handle, 'ls -A .git .claude; exec sleep 30');
      const deadline = Date.now() + 10_000;
      while (!(await context.readFile(handle, task.outputPath)).includes('.claude:') && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(existsSync(join(bare, '.git'))).toBe(true);
      expect(entries(join(bare, '.git'))).toEqual([]);
      // A second command while the first holds them: same protection; they stay when it ends.
      const second = await context.exec(handle, 'touch .claude/x .git/config');
      expect(second.stderr).toMatch(/Permission denied/);
      expect(existsSync(join(bare, '.claude'))).toBe(true);
      // Even a command that makes a placeholder writable only writes into its own throwaway tmpfs.
      const chmod = await context.exec(
        handle,
        'chmod 755 .claude && echo x > .claude/settings.json && echo wrote',
      );
      expect(chmod.stdout).toContain('wrote');
      expect(entries(join(bare, '.claude'))).toEqual([]);
      await context.killBackground!(handle, task.id);
      expect(await settledEntries(bare)).toEqual([]);
    } finally {
      await context.destroy(handle);
    }
  });
});

describe('names that exist', () => {
  it('hooks, husky, cursor and workflow files stay read-only; other .github files do not', async () => {
    const result = await run(
      repo,
      [
        'echo evil > .git/hooks/pre-commit',
        'echo evil >> .husky/pre-commit',
        'echo evil > .cursor/mcp.json',
        'echo evil > .github/workflows/ci.yml',
        'echo "version: 2" > .github/dependabot.yml && echo dependabot-ok',
      ].join('; '),
    );
    expect(result.stderr).toMatch(/Read-only file system/);
    expect(result.stdout).toContain('dependabot-ok');
    expect(existsSync(join(repo, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(readFileSync(join(repo, '.husky', 'pre-commit'), 'utf8')).toBe('npm test\n');
    expect(readFileSync(join(repo, '.cursor', 'mcp.json'), 'utf8')).toBe('{}\n');
    expect(readFileSync(join(repo, '.github', 'workflows', 'ci.yml'), 'utf8')).toBe('on: push\n');
  });

  it('renaming .git away to build a new one with hooks fails', async () => {
    const result = await run(
      repo,
      'mv .git .git-old && mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit',
    );
    expect(result.exitCode).not.toBe(0);
    expect(existsSync(join(repo, '.git-old'))).toBe(false);
    expect(existsSync(join(repo, '.git', 'hooks', 'pre-commit'))).toBe(false);
    const status = await run(repo, 'git status --porcelain && echo git-works');
    expect(status.stdout).toContain('git-works');
  });

  it('git keeps working inside (objects, refs and the index are writable)', async () => {
    const result = await run(
      repo,
      'echo hi > file.txt && git add file.txt && git -c user.name=a -c user.email=a@b commit -qm one && git log --oneline | wc -l',
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('1');
  });
});
