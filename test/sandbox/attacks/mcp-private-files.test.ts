// The same attacks on berth's private files through `berth mcp` with its embedded default (process
// context, sandboxed, the temp directory added to the writable roots), driven by the official MCP
// SDK client against the BUILT binary (`npm test` builds first; run `npm run build` by hand).
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeScene, type Scene } from './fake-home.js';

const MAIN = new URL('../../../dist/cli/main.js', import.meta.url).pathname;

type ToolCall = { content: { type: string; text: string }[]; isError?: boolean };
const text = (result: unknown) => (result as ToolCall).content.map((c) => c.text).join('\n');

let scene: Scene;
let client: Client;
let stderr = '';

beforeAll(async () => {
  expect(existsSync(MAIN), 'run `npm run build` first (npm test does)').toBe(true);
  scene = makeScene('mcp');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'mcp', '--root', scene.ws],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scene.home },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  client = new Client({ name: 'berth-attack', version: '1.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  scene?.remove();
});

const call = (name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<ToolCall>;

/** Start a background task, wait for it, and return its id and log path. */
async function backgroundTask(command: string): Promise<{ id: string; path: string }> {
  const started = text(await call('bash', { command, run_in_background: true }));
  const id = /Started background task (\S+) /.exec(started)?.[1];
  const path = /goes to (\/\S+)\.\n/.exec(started)?.[1];
  expect(id && path, started).toBeTruthy();
  const waited = await call('task_wait', { task_id: id, timeout_ms: 10_000 });
  expect(text(waited)).toMatch(/exited with code 0/);
  return { id: id!, path: path! };
}

describe('berth mcp (embedded default) against a sandboxed command', () => {
  it('runs sandboxed with the temp directory writable (the setup under attack)', async () => {
    expect(stderr).toMatch(/sandboxed \(bubblewrap/);
    const probe = await call('bash', {
      command:
        'cat ~/.ssh/id_rsa; touch /tmp/berth-attack-probe-$$ && rm /tmp/berth-attack-probe-$$ && echo tmp-writable',
    });
    expect(text(probe)).not.toContain(scene.secret);
    expect(text(probe)).toContain('tmp-writable');
  });

  it('read: task_output does not return the hidden key through a swapped log', async () => {
    const task = await backgroundTask('echo task-output');
    await call('bash', { command: `ln -sf ~/.ssh/id_rsa ${task.path}` });
    const output = text(await call('task_output', { task_id: task.id }));
    expect(output).not.toContain(scene.secret);
    expect(output).toContain('task-output');
  });

  it('write: a logs directory replaced by a link out does not receive the next log', async () => {
    const first = await backgroundTask('true');
    const logs = dirname(first.path);
    await call('bash', { command: `mv ${logs} ${logs}.old && ln -s ${scene.outside} ${logs}` });
    const second = await backgroundTask('echo contents-the-command-chose');
    expect(scene.outsideEntries()).toEqual([]);
    expect(text(await call('task_output', { task_id: second.id }))).toContain('contents-the-command-chose');
  });

  it('write: a spill directory replaced by a link out does not receive the next spill', async () => {
    // More than the context keeps in memory (1 MiB by default), so the stream spills to a file.
    const big = (letter: string) => `head -c 1500000 /dev/zero | tr '\\0' ${letter}`;
    const spillOf = (output: string) => /Full stdout \([^)]*\): (\/\S+?)(?: |\]|$)/m.exec(output)?.[1];
    // timeout_ms runs the call in the foreground (exec, whose output spills), not as a yielding task.
    const first = text(await call('bash', { command: big('a'), timeout_ms: 60_000 }));
    const spill = spillOf(first);
    expect(spill, first.replace(/a{40,}/g, 'a…')).toBeTruthy();
    const spills = dirname(spill!);
    const attack = text(
      await call('bash', { command: `mv ${spills} ${spills}.old && ln -s ${scene.outside} ${spills}` }),
    );
    expect(attack).not.toMatch(/\[Exit code 0 /);
    const again = text(await call('bash', { command: big('b'), timeout_ms: 60_000 }));
    expect(scene.outsideEntries()).toEqual([]);
    const second = spillOf(again);
    expect(second, again.slice(-400)).toBeTruthy();
    expect(dirname(second!)).toBe(spills);
  });
});
