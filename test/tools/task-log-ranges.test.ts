// The task tools read a large log by range: never the whole log, whatever its size. A context that
// counts every byte its read methods return shows it, for a single 8 MiB line and for pages of it.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProcessContext, type ProcessContext } from '../../src/contexts/process/index.js';
import type { ContextHandle, ExecutionContext } from '../../src/contract/types.js';
import { createTools } from '../../src/tools/index.js';
import type { BerthTool, ToolResult } from '../../src/tools/types.js';

const LINE_BYTES = 8 * 1024 * 1024;
const BUDGET = 30_000;

let dir: string;
let real: ProcessContext;
let handle: ContextHandle;
const reads = { whole: 0, rangedBytes: 0, rangedCalls: 0 };

/** The real context, counting what its read methods hand out. */
function counting(context: ProcessContext): ExecutionContext {
  return new Proxy(context, {
    get(target, key) {
      const value = Reflect.get(target, key);
      if (key === 'readFile' || key === 'readFileBytes') {
        return async (...args: [ContextHandle, string]) => {
          reads.whole++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      if (key === 'readFileRange') {
        return async (...args: [ContextHandle, string, number, number]) => {
          const bytes = await target.readFileRange(...args);
          reads.rangedCalls++;
          reads.rangedBytes += bytes.length;
          return bytes;
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as ExecutionContext;
}

const text = (result: ToolResult) =>
  result.content.map((part) => ('text' in part ? part.text : '')).join('\n');

describe('task tools on a large log', () => {
  let tools: Map<string, BerthTool>;
  let taskId: string;

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'berth-log-ranges-')));
    real = createProcessContext({ cwd: dir, maxLogBytes: 2 * LINE_BYTES });
    handle = await real.spawn();
    tools = new Map(createTools({ context: counting(real), handle }).map((tool) => [tool.name, tool]));
    const started = await tools.get('bash')!.execute({
      command: `head -c ${LINE_BYTES} /dev/zero | tr '\\0' a; printf 'END\\n'`,
      run_in_background: true,
    });
    taskId = /bg-[0-9a-f]+/.exec(text(started))![0];
    await real.waitBackground(handle, taskId, { timeoutMs: 60_000 });
  });
  afterAll(async () => {
    await real.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('task_output reads one page, not the log, and says where to continue', async () => {
    Object.assign(reads, { whole: 0, rangedBytes: 0, rangedCalls: 0 });
    const first = text(await tools.get('task_output')!.execute({ task_id: taskId, offset: 0 }));
    expect(first).toContain(`[Output bytes 0–${BUDGET} of ${(LINE_BYTES + 4).toLocaleString('en-US')}:]`);
    expect(first).toContain(`next_offset: ${BUDGET}`);
    expect(reads.whole).toBe(0);
    expect(reads.rangedBytes).toBe(BUDGET);
    const last = text(await tools.get('task_output')!.execute({ task_id: taskId, offset: LINE_BYTES - 2 }));
    expect(last).toContain('aaEND');
    expect(last).toContain('This is the end of the output.');
    expect(reads.whole).toBe(0);
    expect(reads.rangedBytes).toBe(BUDGET + 6);
  });

  it('task_wait and a bash call that outlives yield_ms read the two ends only', async () => {
    Object.assign(reads, { whole: 0, rangedBytes: 0, rangedCalls: 0 });
    const waited = text(await tools.get('task_wait')!.execute({ task_id: taskId, timeout_ms: 1000 }));
    expect(waited).toMatch(/Last 2,000 characters of 8,388,612 bytes/);
    expect(waited).toContain('aaEND');
    expect(waited).toContain('[next_offset for task_output: 8388612]');
    const yielded = text(
      await tools.get('bash')!.execute({
        command: `head -c ${LINE_BYTES} /dev/zero | tr '\\0' b; printf 'DONE\\n'; sleep 30`,
        yield_ms: 3000,
      }),
    );
    expect(yielded).toMatch(/^b{100}/);
    expect(yielded).toMatch(/of output omitted here\. Full output so far: /);
    expect(yielded).toContain('bDONE');
    expect(reads.whole).toBe(0);
    // Two ends of each log, each at most the window the tool shows.
    expect(reads.rangedBytes).toBeLessThanOrEqual(4 * 2000 + BUDGET);
    await real.destroy(handle).catch(() => undefined);
  });
});
