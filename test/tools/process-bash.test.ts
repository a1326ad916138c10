/**
 * `bash` and the task tools end to end against the real process context: real processes, real
 * logs, verified kills.
 */
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackgroundExit } from '../../src/contract/types.js';
import { eventually } from '../support/eventually.js';
import { openWorkspace, taskId, text, type Workspace } from './process-fixture.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function pidFrom(w: Workspace, file: string): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const path = `${w.dir}/${file}`;
    if (existsSync(path) && readFileSync(path, 'utf8').trim() !== '')
      return Number(readFileSync(path, 'utf8'));
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no pid in ${file}`);
}

describe('bash in the foreground', () => {
  let w: Workspace;
  beforeAll(async () => {
    w = await openWorkspace();
  });
  afterAll(async () => {
    await w.dispose();
  });

  it('shows stdout, labelled stderr, the exit code and the duration; a non-zero exit is not an error', async () => {
    const result = await w.call('bash', { command: 'echo out; echo err >&2; exit 3' });
    expect(result.isError).toBeUndefined();
    expect(text(result)).toMatch(/^out\n\[stderr\]\nerr\n\[Exit code 3 · \d+ ms\]$/);
  });

  it('says when there was no output', async () => {
    expect(text(await w.call('bash', { command: 'true' }))).toMatch(/^\(no output\)\n\[Exit code 0 · /);
  });

  it('runs in workdir, relative to the handle cwd', async () => {
    await w.call('bash', { command: 'mkdir -p sub/dir' });
    expect(text(await w.call('bash', { command: 'pwd', workdir: 'sub/dir' }))).toContain(
      `${w.dir}/sub/dir\n`,
    );
  });

  it('reports a missing workdir as an error result', async () => {
    const result = await w.call('bash', { command: 'pwd', workdir: 'nope' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^workdir "nope" \(.*\/nope\) does not exist\. Give an existing directory/);
  });

  it('kills a command at timeout_ms, says so, and leaves no process behind', async () => {
    const result = await w.call('bash', { command: 'echo $$ > t.pid; exec sleep 30', timeout_ms: 500 });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('[Timed out: the command was killed after 500 ms (timeout_ms=500).');
    expect(await eventually(() => !alive(Number(readFileSync(`${w.dir}/t.pid`, 'utf8'))))).toBe(true);
  });

  it('kills the command when the call is aborted', async () => {
    const controller = new AbortController();
    const pending = w.call('bash', { command: 'echo $$ > a.pid; exec sleep 30' }, controller.signal);
    const pid = await pidFrom(w, 'a.pid');
    controller.abort();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/\[Cancelled: the command was killed after/);
    expect(await eventually(() => !alive(pid))).toBe(true);
  });

  it('refuses an already aborted call without running anything', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await w.call('bash', { command: 'touch ran' }, controller.signal);
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('bash was cancelled before it started.');
    expect(existsSync(`${w.dir}/ran`)).toBe(false);
  });

  it('cuts huge output to head + tail and saves the whole of it in a private directory', async () => {
    const result = await w.call('bash', { command: 'seq 1 100000' });
    const shown = text(result);
    expect(shown.length).toBeLessThan(31_000);
    expect(shown.startsWith('1\n2\n3\n')).toBe(true);
    expect(shown).toMatch(/99999\n100000\n\[Exit code 0 · /);
    const marker =
      /\[… ([\d,]+) characters \(([\d,]+) lines\) of stdout omitted here\. Full stdout \(.+?\) saved to (\S+);/.exec(
        shown,
      );
    expect(marker).not.toBeNull();
    const saved = marker![3]!;
    try {
      const expected = `${Array.from({ length: 100000 }, (_, i) => i + 1).join('\n')}\n`;
      expect(readFileSync(saved, 'utf8')).toBe(expected);
      expect(statSync(saved.slice(0, saved.lastIndexOf('/'))).mode & 0o777).toBe(0o700);
      const omitted = Number(marker![1]!.replaceAll(',', ''));
      expect(shown.length).toBeGreaterThan(expected.length - omitted);
    } finally {
      rmSync(saved.slice(0, saved.lastIndexOf('/')), { recursive: true, force: true });
    }
  });
});

describe('bash output cut by the context', () => {
  it("names the context's spill file when the context spilled the stream", async () => {
    const w = await openWorkspace({ context: { output: { maxOutputBytes: 4096, maxSpillBytes: 1 << 20 } } });
    try {
      const shown = text(await w.call('bash', { command: 'seq 1 50000' }));
      const spill =
        /\[The context cut stdout to its start and end \(.+? omitted\); full stdout \(.+?\): (\S+)\]/.exec(
          shown,
        );
      expect(spill).not.toBeNull();
      expect(readFileSync(spill![1]!, 'utf8').split('\n')[49999]).toBe('50000');
      expect(shown).toMatch(/49999\n50000\n\[The context cut/);
    } finally {
      await w.dispose();
    }
  });

  it('says no full copy exists when the context kept only head and tail', async () => {
    const w = await openWorkspace({ context: { output: { maxOutputBytes: 4096, maxSpillBytes: 0 } } });
    try {
      const shown = text(await w.call('bash', { command: 'seq 1 50000' }));
      expect(shown).toContain('The context kept only the start and end of stdout');
      expect(shown).toContain('no full copy exists');
    } finally {
      await w.dispose();
    }
  });

  it('outputDir null disables saving and says how to keep the output', async () => {
    const w = await openWorkspace({ tools: { outputDir: null, outputBudgetChars: 1000 } });
    try {
      const shown = text(await w.call('bash', { command: 'seq 1 5000' }));
      expect(shown).toContain('The full text was not saved; rerun with the output redirected to a file');
    } finally {
      await w.dispose();
    }
  });
});

describe('background tasks', () => {
  let w: Workspace;
  const exits: BackgroundExit[] = [];
  beforeAll(async () => {
    w = await openWorkspace({ tools: { onBackgroundExit: (exit) => exits.push(exit) } });
  });
  afterAll(async () => {
    await w.dispose();
  });

  it('yield_ms: a command that ends in time reads like a foreground one and is not listed', async () => {
    const result = await w.call('bash', {
      command: 'echo a; sleep 0.1; echo b >&2; exit 7',
      yield_ms: 10_000,
    });
    expect(text(result)).toMatch(/^a\nb\n\[Exit code 7 · \d+ ms\]$/);
    expect(text(await w.call('task_list', {}))).toBe('No background tasks.');
  });

  it('yield_ms: a command still running moves to the background; task_output continues by offset', async () => {
    // The command waits on a gate file, so it is still running at the yield however slow the
    // machine is, and prints "two" only once the test opens the gate.
    const result = await w.call('bash', {
      command: 'echo one; echo $$ > y.pid; while [ ! -e y.go ]; do sleep 0.02; done; echo two; exec sleep 30',
      yield_ms: 1500,
    });
    const shown = text(result);
    expect(result.isError).toBeUndefined();
    expect(shown).toMatch(/^one\n\[Still running after 1.5 s: moved to the background as task /);
    const id = taskId(result);
    const offset = Number(/"offset":(\d+)/.exec(shown)![1]);
    expect(offset).toBe(4);
    const pid = await pidFrom(w, 'y.pid');
    expect(alive(pid)).toBe(true);

    writeFileSync(join(w.dir, 'y.go'), '');
    let next = '';
    expect(
      await eventually(async () => {
        next = text(await w.call('task_output', { task_id: id, offset }));
        return next.includes('two\n');
      }),
    ).toBe(true);
    expect(next).toContain(`Task ${id} (pid `);
    expect(next).toContain('running for');
    expect(next).toContain('[Output bytes 4–8 of 8:]\ntwo\n[next_offset: 8. The task is still running;');
    expect(text(await w.call('task_output', { task_id: id, offset: 8 }))).toContain(
      '[No new output since offset 8; the log has 8 bytes.]',
    );
    expect(text(await w.call('task_list', {}))).toMatch(
      new RegExp(`1 background task \\(1 running\\):\\n${id}  running for`),
    );

    const killed = text(await w.call('task_kill', { task_id: id }));
    expect(killed).toContain(`Stopped task ${id}`);
    expect(killed).toMatch(/\[Killed/);
    expect(await eventually(() => !alive(pid))).toBe(true);
    expect(text(await w.call('task_output', { task_id: id, offset: 0 }))).toContain('killed after');
    expect(text(await w.call('task_kill', { task_id: id }))).toContain('has already ended (killed after');
    expect(exits.some((e) => e.id === id && e.killed)).toBe(true);
  });

  it('run_in_background returns at once; task_wait waits for the exit and shows the output', async () => {
    const started = await w.call('bash', {
      command: 'sleep 0.3; echo done; exit 5',
      run_in_background: true,
    });
    expect(text(started)).toMatch(/^Started background task \S+ \(pid \d+\)\./);
    const id = taskId(started);
    const waited = text(await w.call('task_wait', { task_id: id, timeout_ms: 10_000 }));
    expect(waited).toMatch(new RegExp(`^Task ${id} exited with code 5 after`));
    expect(waited).toContain('[Output, 5 bytes:]\ndone\n[next_offset for task_output: 5]');
    const all = text(await w.call('task_output', { task_id: id }));
    expect(all).toContain('[Output bytes 0–5 of 5:]\ndone\n[next_offset: 5. This is the end of the output.]');
  });

  it('yield_ms: a command that ends in time with huge output is cut, naming its log', async () => {
    const shown = text(await w.call('bash', { command: 'seq 1 100000', yield_ms: 20_000 }));
    const marker = /of output omitted here\. Full output \(.+?\): (\S+) …\]/.exec(shown);
    expect(marker).not.toBeNull();
    expect(readFileSync(marker![1]!, 'utf8').endsWith('99999\n100000\n')).toBe(true);
    expect(shown).toMatch(/^1\n2\n/);
    expect(shown).toMatch(/100000\n\[Exit code 0 · /);
  });

  it('task_wait stops waiting when its call is cancelled, leaving the task running', async () => {
    const id = taskId(await w.call('bash', { command: 'sleep 30', run_in_background: true }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await w.call('task_wait', { task_id: id, timeout_ms: 20_000 }, controller.signal);
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      `Stopped waiting for task ${id}: the call was cancelled. The task was left as it was.`,
    );
    expect(text(await w.call('task_output', { task_id: id }))).toContain('running for');
    await w.call('task_kill', { task_id: id });
  });

  it('task_wait returns at its timeout with the task still running', async () => {
    const id = taskId(await w.call('bash', { command: 'sleep 30', run_in_background: true }));
    const waited = text(await w.call('task_wait', { task_id: id, timeout_ms: 200 }));
    expect(waited).toMatch(new RegExp(`^Task ${id} is still running after waiting 200 ms`));
    await w.call('task_kill', { task_id: id });
  });

  it('task_output pages through output larger than one call', async () => {
    const id = taskId(await w.call('bash', { command: 'seq 1 20000', run_in_background: true }));
    await w.call('task_wait', { task_id: id });
    let offset = 0;
    let collected = '';
    for (let i = 0; i < 10; i++) {
      const page = text(await w.call('task_output', { task_id: id, offset }));
      const range = /\[Output bytes (\d+)–(\d+) of/.exec(page);
      if (range === null) break;
      const body = page.slice(page.indexOf(':]\n') + 3, page.lastIndexOf('\n[next_offset'));
      collected += `${body}\n`;
      offset = Number(range[2]);
      if (page.includes('This is the end of the output.')) break;
      expect(page).toContain('more are already available');
    }
    expect(collected).toBe(`${Array.from({ length: 20000 }, (_, i) => i + 1).join('\n')}\n`);
  });

  it('cancelling a call during yield_ms kills the task', async () => {
    const controller = new AbortController();
    const pending = w.call(
      'bash',
      { command: 'echo $$ > c.pid; exec sleep 30', yield_ms: 20_000 },
      controller.signal,
    );
    const pid = await pidFrom(w, 'c.pid');
    controller.abort();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('[Cancelled: the command was killed');
    expect(await eventually(() => !alive(pid))).toBe(true);
  });

  it('unknown task ids and offsets past the end are errors the model can act on', async () => {
    const missing = await w.call('task_output', { task_id: 'bg-nope' });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(
      /^No background task with id "bg-nope"\. Known task ids: .+ Use task_list to see them\.$/,
    );
    expect((await w.call('task_kill', { task_id: 'bg-nope' })).isError).toBe(true);
    expect((await w.call('task_wait', { task_id: 'bg-nope' })).isError).toBe(true);
    const id = taskId(await w.call('bash', { command: 'echo hi', run_in_background: true }));
    await w.call('task_wait', { task_id: id });
    const past = await w.call('task_output', { task_id: id, offset: 99 });
    expect(past.isError).toBe(true);
    expect(text(past)).toContain('offset 99 is past the end of the output of task');
  });
});
