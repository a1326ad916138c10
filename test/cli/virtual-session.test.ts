/**
 * The review flow end to end, with real processes: `berth mcp --context virtual` driven by the
 * official MCP client makes changes; `berth changes` / `berth diff` in other processes show them
 * while the server runs; a file a person edited meanwhile makes `berth commit` refuse, naming it;
 * the rest commits and the directory then holds exactly those changes; a server killed with
 * SIGKILL leaves its changes reviewable.
 */
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { berth, MAIN } from './berth-binary.js';

type ToolCall = { content: { type: string; text: string }[]; isError?: boolean };
const text = (result: unknown) => (result as ToolCall).content.map((c) => c.text).join('\n');

let root: string;
let state: string;
let env: NodeJS.ProcessEnv;
const clients: Client[] = [];

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'berth-review-root-')));
  state = realpathSync(mkdtempSync(join(tmpdir(), 'berth-review-state-')));
  env = { BERTH_STATE_DIR: state };
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'main.ts'), 'export const answer = 41;\n');
  writeFileSync(join(root, 'notes.txt'), 'first\n');
  writeFileSync(join(root, 'old.txt'), 'to be removed\n');
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  rmSync(root, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
});

async function startServer(
  extra: string[] = [],
): Promise<{ client: Client; transport: StdioClientTransport; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'mcp', '--context', 'virtual', '--root', root, ...extra],
    env: { ...(process.env as Record<string, string>), ...(env as Record<string, string>) },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'berth-review-e2e', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, transport, stderr: () => stderr };
}

const call = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<ToolCall>;

/** Every file under `dir` with its content, relative paths sorted. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(dir, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(dir);
  return out;
}

describe('berth mcp --context virtual, reviewed with berth changes, diff and commit', () => {
  it('keeps the agent changes from disk, shows them to another process, commits them exactly, refuses a conflict', async () => {
    const before = tree(root);
    const { client, stderr } = await startServer();
    expect(client.getInstructions()).toMatch(/virtual context .* changes kept in session [0-9a-f]{8}/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['bash', 'changes', 'diff']));
    expect(tools.map((t) => t.name)).not.toContain('commit');

    // The agent works: a shell edit, a tool edit, a new file, a deletion by truncation and mv.
    expect(text(await call(client, 'bash', { command: 'pwd; printf "second\\n" >> notes.txt' }))).toContain(
      '/workspace',
    );
    expect(
      (await call(client, 'edit_file', { path: 'src/main.ts', old_string: '41', new_string: '42' })).isError,
    ).toBeFalsy();
    expect(
      (await call(client, 'write_file', { path: 'src/new.ts', content: 'export {};\n' })).isError,
    ).toBeFalsy();
    expect(
      (await call(client, 'write_file', { path: 'old.txt', content: 'rewritten\n' })).isError,
    ).toBeFalsy();
    expect(tree(root)).toEqual(before);

    // The agent reviews its own work.
    const changes = text(await call(client, 'changes', {}));
    expect(changes).toContain('M  /workspace/src/main.ts');
    expect(changes).toContain('A  /workspace/src/new.ts');
    expect(text(await call(client, 'diff', { path: 'src/main.ts' }))).toContain('+export const answer = 42;');

    // A person, in another terminal, in the project directory.
    const listed = await berth(['changes'], { cwd: root, env });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/session [0-9a-f]{8} over .*, served by process \d+/);
    expect(listed.stdout).toContain('M notes.txt');
    expect(listed.stdout).toContain('A src/new.ts');
    const diff = await berth(['diff', 'src'], { cwd: root, env });
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('diff --git a/src/main.ts b/src/main.ts');
    expect(diff.stdout).toContain('-export const answer = 41;\n+export const answer = 42;');
    expect(diff.stdout).toContain('new file mode 100644\n--- /dev/null\n+++ b/src/new.ts');
    expect(diff.stdout).not.toContain('notes.txt');

    // The person edits a file the agent changed: the commit refuses, names it, writes nothing.
    writeFileSync(join(root, 'notes.txt'), 'first\nedited by a person\n');
    const refused = await berth(['commit'], { cwd: root, env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(join(root, 'notes.txt'));
    expect(refused.stderr).toMatch(/nothing was written/);
    expect(readFileSync(join(root, 'src', 'main.ts'), 'utf8')).toBe('export const answer = 41;\n');

    // Everything else commits, and the directory holds exactly that.
    const committed = await berth(['commit', 'src', 'old.txt'], { cwd: root, env });
    expect(committed.code, committed.stderr).toBe(0);
    expect(committed.stdout).toContain('committed 3 paths');
    expect(tree(root)).toEqual({
      'notes.txt': 'first\nedited by a person\n',
      'old.txt': 'rewritten\n',
      'src/main.ts': 'export const answer = 42;\n',
      'src/new.ts': 'export {};\n',
    });
    // The agent's view follows: only the conflicting change is left.
    expect(text(await call(client, 'changes', {}))).toMatch(/^1 change .*\nM {2}\/workspace\/notes\.txt$/);
    expect(stderr()).toMatch(/serving \d+ tools on stdio \(virtual context/);
  });

  it('keeps the changes reviewable after the server is killed with SIGKILL', async () => {
    const { client, transport } = await startServer(['--session', 'killed-run']);
    await call(client, 'bash', {
      command: 'echo survived > kept.txt; printf "first\\nagain\\n" > notes.txt',
    });
    const pid = transport.pid as number;
    process.kill(pid, 'SIGKILL');
    expect(await eventually(() => !alive(pid))).toBe(true);

    const listed = await berth(['changes', '--session', 'killed-run'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/session [0-9a-f]{8} \(killed-run\) over .*, stopped/);
    expect(listed.stdout).toContain('A kept.txt');
    expect(listed.stdout).toContain('M notes.txt');
    const diff = await berth(['diff'], { cwd: root, env });
    expect(diff.stdout).toContain('+survived');
    const committed = await berth(['commit'], { cwd: root, env });
    expect(committed.code, committed.stderr).toBe(0);
    expect(readFileSync(join(root, 'kept.txt'), 'utf8')).toBe('survived\n');
    expect(committed.stdout).toMatch(/session [0-9a-f]{8} is empty and was removed/);
    expect((await berth(['changes'], { cwd: root, env })).code).toBe(1);
  });

  it('offers the agent a commit tool only with --allow-commit; it refuses conflicts too', async () => {
    const { client } = await startServer(['--allow-commit']);
    await call(client, 'bash', { command: 'echo agent > notes.txt; echo x > x.txt' });
    writeFileSync(join(root, 'notes.txt'), 'person\n');
    const conflict = await call(client, 'commit', {});
    expect(conflict.isError).toBe(true);
    expect(text(conflict)).toContain('/workspace/notes.txt');
    const partial = await call(client, 'commit', { path: 'x.txt' });
    expect(text(partial)).toContain('Committed 1 path');
    expect(readFileSync(join(root, 'x.txt'), 'utf8')).toBe('x\n');
  });

  it('asks which session when several are over the directory, and finds one by name', async () => {
    const first = await startServer(['--session', 'one']);
    const second = await startServer(['--session', 'two']);
    await call(first.client, 'bash', { command: 'echo 1 > one.txt' });
    await call(second.client, 'bash', { command: 'echo 2 > two.txt' });
    const ambiguous = await berth(['changes'], { cwd: root, env });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(/2 sessions are over .*pick one: [0-9a-f]{8} \((one|two)\)/);
    const named = await berth(['diff', '--session', 'two'], { cwd: root, env });
    expect(named.stdout).toContain('diff --git a/two.txt b/two.txt');
    expect(named.stdout).not.toContain('one.txt');
    // A second server on a session that is being served is refused.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'mcp', '--context', 'virtual', '--root', root, '--session', 'one'],
      env: { ...(process.env as Record<string, string>), ...(env as Record<string, string>) },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'third', version: '1.0.0' });
    await expect(client.connect(transport)).rejects.toThrow();
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z');
  } catch {
    return false;
  }
}

// Keep the CLI honest about where sessions live: never inside the project.
it('never writes into the project directory while serving', async () => {
  const { client } = await startServer();
  await call(client, 'bash', { command: 'echo x > y.txt' });
  expect(readdirSync(root).sort()).toEqual(['notes.txt', 'old.txt', 'src']);
  expect(
    execFileSync('ls', [join(state, 'sessions')])
      .toString()
      .trim(),
  ).toMatch(/^[0-9a-f]{8}$/);
});
