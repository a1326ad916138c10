/**
 * A running task's stdin through `berth mcp` (the default sandboxed process context), driven by
 * the official SDK client: bash open_stdin, task_write, and task_output's yield_time_ms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BerthMcp, startBerthMcp, textOf } from './support/berth-mcp-client.js';

const taskIdOf = (text: string): string => {
  const match = /task (bg-[0-9a-f]+)/.exec(text);
  if (!match) throw new Error(`no task id in: ${text}`);
  return match[1]!;
};

describe('task_write and yield_time_ms (berth mcp, SDK client)', () => {
  let mcp: BerthMcp;
  beforeAll(async () => {
    mcp = await startBerthMcp();
  });
  afterAll(() => mcp?.close());

  it('lists task_write with a short schema', async () => {
    const { tools } = await mcp.client.listTools();
    const tool = tools.find((t) => t.name === 'task_write');
    expect(tool, 'task_write is listed').toBeDefined();
    expect(Object.keys(tool!.inputSchema.properties ?? {}).sort()).toEqual([
      'close',
      'input',
      'task_id',
      'yield_time_ms',
    ]);
    const bash = tools.find((t) => t.name === 'bash');
    expect(Object.keys(bash!.inputSchema.properties ?? {})).toContain('open_stdin');
  });

  it('answers a prompt: bash open_stdin shows the question, task_write the answer, and the task ends', async () => {
    const started = textOf(
      await mcp.call('bash', {
        command: 'printf "Continue? [y/n] "; read answer; echo "answer=$answer"',
        open_stdin: true,
      }),
    );
    expect(started).toContain('Continue? [y/n]');
    expect(started).toContain('Its stdin is open');
    const id = taskIdOf(started);
    const answered = await mcp.call('task_write', { task_id: id, input: 'y\n', yield_time_ms: 10_000 });
    expect(answered.isError).toBeFalsy();
    const text = textOf(answered);
    expect(text).toContain(`[Sent 2 bytes to task ${id}.]`);
    expect(text).toContain('answer=y');
    const waited = textOf(await mcp.call('task_wait', { task_id: id }));
    expect(waited).toMatch(/exited with code 0/);
    const late = await mcp.call('task_write', { task_id: id, input: 'again\n' });
    expect(late.isError).toBe(true);
    expect(textOf(late)).toContain(`Task ${id} has ended`);
  });

  it('holds a REPL conversation: each answer before the next line, close ends it', async () => {
    const id = taskIdOf(
      textOf(
        await mcp.call('bash', {
          command: 'while read a b; do echo "sum=$((a + b))"; done; echo "bye"',
          open_stdin: true,
        }),
      ),
    );
    for (const [a, b] of [
      [1, 2],
      [40, 2],
      [-5, 5],
    ] as const) {
      const text = textOf(
        await mcp.call('task_write', { task_id: id, input: `${a} ${b}\n`, yield_time_ms: 10_000 }),
      );
      expect(text).toContain(`sum=${a + b}`);
    }
    const closed = textOf(await mcp.call('task_write', { task_id: id, close: true, yield_time_ms: 10_000 }));
    expect(closed).toContain(`[Sent 0 bytes to task ${id} and closed its stdin.]`);
    expect(closed).toContain('bye');
    const out = textOf(await mcp.call('task_output', { task_id: id }));
    expect(out).toContain('sum=3\nsum=42\nsum=0\nbye');
  });

  it('refuses a task without an open stdin, naming open_stdin', async () => {
    const id = taskIdOf(textOf(await mcp.call('bash', { command: 'sleep 30', run_in_background: true })));
    const refused = await mcp.call('task_write', { task_id: id, input: 'x\n' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('was started without an open stdin');
    expect(textOf(refused)).toContain('"open_stdin": true');
    expect(textOf(refused)).not.toMatch(/execBackground|writeBackground|stdin: 'pipe'/);
    await mcp.call('task_kill', { task_id: id });
  });

  it('bad arguments are isError results with advice', async () => {
    const nothing = await mcp.call('task_write', { task_id: 'bg-000000000000' });
    expect(nothing.isError).toBe(true);
    expect(textOf(nothing)).toContain('Give the input to send, close: true');
    const typo = await mcp.call('task_write', { task_id: 'bg-000000000000', inptu: 'x' });
    expect(typo.isError).toBe(true);
    expect(textOf(typo)).toContain('did you mean `input`?');
    const unknown = await mcp.call('task_write', { task_id: 'bg-000000000000', input: 'x' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('No background task with id "bg-000000000000"');
    const foreground = await mcp.call('bash', { command: 'cat', open_stdin: true, timeout_ms: 1000 });
    expect(foreground.isError).toBe(true);
    expect(textOf(foreground)).toContain('open_stdin runs the command as a background task');
    const tooLong = await mcp.call('task_output', { task_id: 'bg-000000000000', yield_time_ms: 60_000 });
    expect(tooLong.isError).toBe(true);
    expect(textOf(tooLong)).toMatch(/yield_time_ms/);
  });

  it('a long input stays whole and in order through cat', async () => {
    const id = taskIdOf(textOf(await mcp.call('bash', { command: 'cat', open_stdin: true })));
    const lines = Array.from({ length: 2000 }, (_, i) => `row ${i}`);
    const input = `${lines.join('\n')}\n`;
    const sent = await mcp.call('task_write', { task_id: id, input, close: true, yield_time_ms: 10_000 });
    expect(sent.isError).toBeFalsy();
    await mcp.call('task_wait', { task_id: id });
    const out = textOf(await mcp.call('task_output', { task_id: id, tail_lines: 2 }));
    expect(out).toContain('row 1998\nrow 1999');
    const all = textOf(await mcp.call('task_output', { task_id: id, filter: '^row ' }));
    expect(all).toContain('[2,000 of 2,000 lines matching');
  });

  it('task_output yield_time_ms waits for the first output of a task that is still silent', async () => {
    const id = taskIdOf(
      textOf(
        await mcp.call('bash', { command: 'sleep 1; echo late-line; sleep 30', run_in_background: true }),
      ),
    );
    const text = textOf(await mcp.call('task_output', { task_id: id, yield_time_ms: 20_000 }));
    expect(text).toContain('late-line');
    expect(text).toContain('The task is still running');
    await mcp.call('task_kill', { task_id: id });
  });
});
