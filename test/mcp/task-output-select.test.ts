import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BerthMcp, startBerthMcp, textOf } from './support/berth-mcp-client.js';

describe('task_output tail_lines and filter (berth mcp, SDK client)', () => {
  let mcp: BerthMcp;
  let id: string;
  beforeAll(async () => {
    mcp = await startBerthMcp();
    const started = textOf(
      await mcp.call('bash', {
        command:
          'for i in $(seq 1 500); do echo "line $i"; [ $((i % 100)) -eq 0 ] && echo "ERROR at $i" >&2; done',
        run_in_background: true,
      }),
    );
    id = /task (bg-\S+) /.exec(started)![1]!;
    await mcp.call('task_wait', { task_id: id });
  });
  afterAll(() => mcp?.close());

  it('tail_lines returns the last lines and the offset of the end', async () => {
    const text = textOf(await mcp.call('task_output', { task_id: id, tail_lines: 3 }));
    const lines = text.split('\n');
    expect(lines[1]).toMatch(/^\[3 of 505 lines in bytes 0–\d+ \(tail_lines 3\):\]$/);
    expect(lines.slice(2, 5)).toEqual(['line 499', 'line 500', 'ERROR at 500']);
    expect(text).toMatch(/\[next_offset: \d+\. This is the end of the output\.\]$/);
  });

  it('filter keeps the matching lines (ripgrep syntax), with tail_lines and offset', async () => {
    const text = textOf(await mcp.call('task_output', { task_id: id, filter: '^ERROR at \\d+$' }));
    expect(text.split('\n').filter((l) => l.startsWith('ERROR'))).toEqual([
      'ERROR at 100',
      'ERROR at 200',
      'ERROR at 300',
      'ERROR at 400',
      'ERROR at 500',
    ]);
    const last = textOf(await mcp.call('task_output', { task_id: id, filter: 'ERROR', tail_lines: 2 }));
    expect(last).toContain('[2 of 5 lines matching "ERROR" in bytes');
    expect(last).toContain('ERROR at 400\nERROR at 500');
    const bad = await mcp.call('task_output', { task_id: id, filter: '(unclosed' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/pattern "\(unclosed" is not a valid regular expression/);
    const typo = await mcp.call('task_output', { task_id: id, tail: 5 });
    expect(textOf(typo)).toContain('did you mean `tail_lines`?');
  });
});
