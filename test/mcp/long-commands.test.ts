import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMarker } from '../support/process-markers.js';
import { type BerthMcp, startBerthMcp, textOf } from './support/berth-mcp-client.js';

// Issue: `sleep 65; echo done` ended in the client's 60 s request timeout instead of berth's answer.
describe('long commands and client request timeouts (berth mcp, SDK client)', () => {
  let mcp: BerthMcp;
  beforeAll(async () => {
    mcp = await startBerthMcp();
  });
  afterAll(() => mcp?.close());

  it('the bash description says what happens to a long command', async () => {
    const { tools } = await mcp.client.listTools();
    const bash = tools.find((tool) => tool.name === 'bash');
    expect(bash?.description).toMatch(/still running after 45\.0 s .*keeps running as a background task/);
    expect(bash?.description).toMatch(/progress notifications/);
  });

  it('a foreground command longer than the client timeout: progress keeps the call alive', async () => {
    const progress: number[] = [];
    const result = await mcp.call(
      'bash',
      { command: 'sleep 8; echo done', timeout_ms: 30_000 },
      { timeout: 5000, resetTimeoutOnProgress: true, onprogress: (p) => progress.push(p.progress) },
    );
    expect(textOf(result)).toMatch(/^done\n\[Exit code 0/);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    // Progress only grows, as the protocol requires.
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1]!);
  });

  it('by default a command still running after 45 s answers with a task id before a 60 s client timeout', async () => {
    const marker = newMarker();
    const started = Date.now();
    const result = await mcp.call('bash', { command: `echo begun; sleep 65 # ${marker}` });
    const waited = Date.now() - started;
    const text = textOf(result);
    expect(result.isError).toBeFalsy();
    expect(text).toMatch(/^begun\n\[Still running after 45\.0 s: moved to the background as task (\S+)/);
    expect(waited).toBeLessThan(60_000);
    const id = /as task (\S+) /.exec(text)?.[1];
    const killed = await mcp.call('task_kill', { task_id: id });
    expect(textOf(killed)).toMatch(/Killed|killed/);
  }, 90_000);
});
