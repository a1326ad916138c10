/**
 * The tools over a process context whose commands run inside bubblewrap: writes outside the
 * workspace are refused for both commands and write_file, and bash never leaves an unprotected
 * copy of cut output on the host when the sandbox's /tmp is private.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkspace, taskId, text, type Workspace } from './process-fixture.js';

describe('tools inside the bubblewrap sandbox', () => {
  let w: Workspace;
  let elsewhere: Workspace;
  beforeAll(async () => {
    elsewhere = await openWorkspace();
    w = await openWorkspace({ sandboxed: true });
  });
  afterAll(async () => {
    await w.dispose();
    await elsewhere.dispose();
  });

  it('commands write inside the workspace and fail outside it, with the failure shown', async () => {
    expect(text(await w.call('bash', { command: 'echo ok > in.txt && cat in.txt' }))).toMatch(
      /^ok\n\[Exit code 0/,
    );
    const refused = text(await w.call('bash', { command: `echo no > ${elsewhere.dir}/out.txt` }));
    expect(refused).toContain('[stderr]');
    expect(refused).toMatch(/\[Exit code [1-9]/);
    expect(existsSync(`${elsewhere.dir}/out.txt`)).toBe(false);
  });

  it('write_file outside the writable roots is a sandbox-denied error', async () => {
    const result = await w.call('write_file', { path: `${elsewhere.dir}/x.txt`, content: 'x' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('[E_SANDBOX_DENIED]');
    expect(existsSync(`${elsewhere.dir}/x.txt`)).toBe(false);
  });

  it("a cut output is saved in the context's private directory, where read_file reads it", async () => {
    const shown = text(await w.call('bash', { command: 'seq 1 100000' }));
    expect(shown).not.toContain('could not be saved');
    expect(shown).not.toMatch(/berth-output-/);
    const path = /saved to (\/\S+\.txt);/.exec(shown)?.[1];
    expect(path, shown).toBeDefined();
    expect(text(await w.call('read_file', { path, offset: 100_000, limit: 1 }))).toMatch(/^100000\t100000/);
  });

  it('grep with ripgrep, read_file and background tasks work inside the sandbox', async () => {
    await w.call('write_file', { path: 'src/a.txt', content: 'needle\n' });
    expect(text(await w.call('grep', { pattern: 'needle', output_mode: 'content' }))).toBe(
      `1 matching line in 1 file:\n${w.dir}/src/a.txt:1:needle`,
    );
    expect(await w.session.ripgrep).toBe(true);
    const started = await w.call('bash', { command: 'echo bg; sleep 30', yield_ms: 300 });
    const id = taskId(started);
    expect(text(started)).toMatch(/^bg\n\[Still running/);
    expect(text(await w.call('task_kill', { task_id: id }))).toContain(`Stopped task ${id}`);
  });
});
