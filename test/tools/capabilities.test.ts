/**
 * Contexts that lack optional methods: each tool that needs one answers with a CapabilityError
 * result naming it, and nothing falls back to the host. The reduced contexts delegate to a real
 * process context, the way a request/response-only backend offers only the required methods.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContextHandle, ExecutionContext } from '../../src/contract/types.js';
import { createTools } from '../../src/tools/index.js';
import type { BerthTool } from '../../src/tools/types.js';
import { openWorkspace, taskId, text, type Workspace } from './process-fixture.js';

type Optional =
  | 'execBackground'
  | 'listBackground'
  | 'killBackground'
  | 'waitBackground'
  | 'readFileBytes'
  | 'fileSize';

/** `real` without the named optional methods, under another type name. */
function without(real: ExecutionContext, missing: readonly Optional[], glob: boolean): ExecutionContext {
  const reduced: Record<string, unknown> = {
    type: 'reduced',
    capabilities: { ...real.capabilities, glob, background: !missing.includes('execBackground') },
  };
  for (const name of [
    'spawn',
    'exec',
    'readFile',
    'writeFile',
    'listFiles',
    'destroy',
    'execBackground',
    'listBackground',
    'killBackground',
    'waitBackground',
    'readFileBytes',
    'fileSize',
  ] as const) {
    if (missing.includes(name as Optional)) continue;
    const method = real[name] as ((...args: unknown[]) => unknown) | undefined;
    if (method !== undefined) reduced[name] = method.bind(real);
  }
  return reduced as unknown as ExecutionContext;
}

function toolsOf(
  context: ExecutionContext,
  handle: ContextHandle,
  ripgrep?: 'never',
): Map<string, BerthTool> {
  return new Map(createTools({ context, handle, ripgrep }).map((t) => [t.name, t]));
}

let w: Workspace;
beforeAll(async () => {
  w = await openWorkspace();
  writeFileSync(`${w.dir}/a.txt`, 'alpha\n');
  writeFileSync(
    `${w.dir}/dot.png`,
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
  );
});
afterAll(async () => {
  await w.dispose();
});

describe('a context with only the required methods', () => {
  let tools: Map<string, BerthTool>;
  let minimal: ExecutionContext;
  beforeAll(() => {
    minimal = without(
      w.context,
      ['execBackground', 'listBackground', 'killBackground', 'waitBackground', 'readFileBytes', 'fileSize'],
      false,
    );
    tools = toolsOf(minimal, w.handle, 'never');
  });

  const expectations: [string, Record<string, unknown>, string][] = [
    [
      'bash',
      { command: 'sleep 1', run_in_background: true },
      'bash failed: the reduced context does not support background tasks (execBackground); run the command in the foreground [E_CAPABILITY]',
    ],
    [
      'bash',
      { command: 'sleep 1', yield_ms: 100 },
      'bash failed: the reduced context does not support background tasks (execBackground); drop yield_ms to run in the foreground [E_CAPABILITY]',
    ],
    [
      'task_list',
      {},
      'task_list failed: the reduced context does not support background tasks (listBackground) [E_CAPABILITY]',
    ],
    ['task_output', { task_id: 'x' }, 'does not support background tasks (listBackground)'],
    ['task_wait', { task_id: 'x' }, 'does not support waiting for background tasks (waitBackground)'],
    ['task_kill', { task_id: 'x' }, 'does not support killing background tasks (killBackground)'],
    [
      'read_file',
      { path: 'a.txt' },
      'read_file failed: the reduced context does not support file size probes (fileSize) [E_CAPABILITY]',
    ],
    [
      'edit_file',
      { path: 'a.txt', old_string: 'a', new_string: 'b' },
      'does not support file size probes (fileSize)',
    ],
    [
      'grep',
      { pattern: 'alpha', path: 'a.txt' },
      'grep failed: the reduced context does not support file size probes (fileSize)',
    ],
    [
      'glob',
      { pattern: '*.txt' },
      'does not support glob patterns (listFiles with a pattern); use bash with `find` instead',
    ],
  ];
  for (const [tool, args, message] of expectations) {
    it(`${tool} names the missing capability`, async () => {
      const result = await tools.get(tool)!.execute(args);
      expect(result.isError).toBe(true);
      expect(text(result)).toContain(message);
    });
  }

  it('grep through ripgrep in the context needs no size probe', async () => {
    const withRg = toolsOf(minimal, w.handle);
    expect(text(await withRg.get('grep')!.execute({ pattern: 'alpha', path: 'a.txt' }))).toBe(
      `1 file with matches:\n${w.dir}/a.txt`,
    );
  });

  it('foreground bash, write_file and list_dir still work', async () => {
    expect(text(await tools.get('bash')!.execute({ command: 'echo ok' }))).toMatch(/^ok\n\[Exit code 0/);
    expect(text(await tools.get('write_file')!.execute({ path: 'b.txt', content: 'x' }))).toBe(
      `Wrote ${w.dir}/b.txt (1 B, 1 line).`,
    );
    expect(text(await tools.get('list_dir')!.execute({}))).toContain('b.txt');
  });
});

describe('a context without readFileBytes', () => {
  let tools: Map<string, BerthTool>;
  beforeAll(() => {
    tools = toolsOf(without(w.context, ['readFileBytes'], true), w.handle);
  });

  it('reads text with readFile, and refuses images naming readFileBytes', async () => {
    expect(text(await tools.get('read_file')!.execute({ path: 'a.txt' }))).toBe('     1\talpha');
    const image = await tools.get('read_file')!.execute({ path: 'dot.png' });
    expect(image.isError).toBe(true);
    expect(text(image)).toContain(
      'the reduced context does not support binary file reads (readFileBytes); images cannot be read in this context',
    );
  });

  it('edits with readFile, and reads task logs with readFile', async () => {
    await tools.get('edit_file')!.execute({ path: 'a.txt', old_string: 'alpha', new_string: 'beta' });
    expect(text(await tools.get('read_file')!.execute({ path: 'a.txt' }))).toBe('     1\tbeta');
    const id = taskId(
      await tools.get('bash')!.execute({ command: 'printf "é1\\né2\\n"', run_in_background: true }),
    );
    await tools.get('task_wait')!.execute({ task_id: id });
    expect(text(await tools.get('task_output')!.execute({ task_id: id, offset: 4 }))).toContain(
      '[Output bytes 4–8 of 8:]\né2',
    );
  });
});

describe('a failure after a yielded task started', () => {
  it('kills the task, since the model never learns its id', async () => {
    const broken = without(w.context, [], true) as unknown as Record<string, unknown>;
    broken.readFileBytes = async () => {
      throw new Error('transport lost');
    };
    const context = broken as unknown as ExecutionContext;
    const tools = toolsOf(context, w.handle);
    const result = await tools.get('bash')!.execute({ command: 'sleep 30', yield_ms: 100 });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('bash failed: transport lost');
    const tasks = await w.context.listBackground!(w.handle);
    const task = tasks.find((t) => t.command === 'sleep 30');
    expect(task?.status).toBe('killed');
  });
});

describe('read_file by range on a context without readFileRange', () => {
  let w: Workspace;
  beforeAll(async () => {
    w = await openWorkspace();
  });
  afterAll(() => w.dispose());

  it('fails with a message that says why offset/limit cannot help and what to run instead', async () => {
    writeFileSync(`${w.hostDir}/big.txt`, 'line\n'.repeat(100));
    const reduced = without(w.context, [], true);
    const tools = createTools({ context: reduced, handle: w.handle, files: { maxFileBytes: 100 } });
    const read = tools.find((t) => t.name === 'read_file')!;
    const result = await read.execute({ path: 'big.txt', offset: 10, limit: 5 });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(
      /above the 100 B limit for reading a whole file\. This workspace cannot read part of a file \(its context has no readFileRange\), so offset\/limit cannot help: read a range with bash, e\.g\. `sed -n '10,14p' .*big\.txt`/,
    );
  });
});
