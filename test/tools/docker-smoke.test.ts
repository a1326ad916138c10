/**
 * The tools against the Docker context on the busybox test image: no `rg` there, so grep takes the
 * built-in path. Skipped with the reason when no engine answers (and failing under CI=true).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DockerContext } from '../../src/contexts/docker/index.js';
import type { ContextHandle } from '../../src/contract/types.js';
import { createToolSession, createTools } from '../../src/tools/index.js';
import type { BerthTool, ToolResult } from '../../src/tools/types.js';
import { describeDocker, testContext } from '../contexts/docker/docker-engine.js';

function text(result: ToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : `[image ${c.mimeType}]`)).join('\n');
}

describeDocker('tools on the docker context (busybox, no rg)', () => {
  let context: DockerContext;
  let handle: ContextHandle;
  const session = createToolSession();
  let tools: Map<string, BerthTool>;
  const call = (name: string, args: unknown) => tools.get(name)!.execute(args);

  beforeAll(async () => {
    context = testContext();
    handle = await context.spawn({ cwd: '/workspace' });
    tools = new Map(createTools({ context, handle, session }).map((t) => [t.name, t]));
  });
  afterAll(async () => {
    await context?.close();
  });

  it('bash runs inside the container and states the exit code', async () => {
    const result = await call('bash', {
      command: 'echo in-$(hostname | cut -c1-3); cat /etc/passwd | head -n 1; exit 3',
    });
    expect(result.isError).toBeUndefined();
    expect(text(result)).toContain('root:x:0:0:root:/root:/bin/sh');
    expect(text(result)).toMatch(/\[Exit code 3 · \d/);
  });

  it('write_file, read_file and edit_file work on the container filesystem', async () => {
    expect(text(await call('write_file', { path: 'notes.txt', content: 'alpha\nbeta\ngamma\n' }))).toContain(
      'Created /workspace/notes.txt',
    );
    expect(text(await call('read_file', { path: 'notes.txt' }))).toBe(
      '     1\talpha\n     2\tbeta\n     3\tgamma',
    );
    expect(
      text(await call('edit_file', { path: 'notes.txt', old_string: 'beta', new_string: 'BETA' })),
    ).toContain('replaced 1 occurrence (at line 2)');
    expect(text(await call('bash', { command: 'cat /workspace/notes.txt' }))).toContain('alpha\nBETA\ngamma');
  });

  it('grep uses the built-in search (no rg in the image) with the same output shape', async () => {
    await call('bash', {
      command:
        'mkdir -p src/.hidden && echo "needle one" > src/a.c && echo "needle two" > src/b.h && echo needle > src/.hidden/x.c',
    });
    const result = await call('grep', { pattern: 'needle', path: 'src', output_mode: 'content' });
    expect(await session.ripgrep).toBe(false);
    expect(text(result)).toBe(
      '2 matching lines in 2 files:\n/workspace/src/a.c:1:needle one\n/workspace/src/b.h:1:needle two',
    );
    const filtered = await call('grep', {
      pattern: 'NEEDLE',
      path: 'src',
      glob: '*.h',
      case_insensitive: true,
    });
    expect(text(filtered)).toBe('1 file with matches:\n/workspace/src/b.h');
  });

  it('glob and list_dir see the container files', async () => {
    expect(text(await call('glob', { pattern: 'src/*.c' }))).toContain('/workspace/src/a.c');
    const listing = text(await call('list_dir', { path: 'src' }));
    expect(listing).toContain('.hidden/');
    expect(listing).toContain('a.c');
  });

  it('yield_ms returns a quick command like a foreground one', async () => {
    const quick = text(await call('bash', { command: 'echo quick; exit 4', yield_ms: 10_000 }));
    expect(quick).toMatch(/^quick\n\[Exit code 4 · /);
  });

  it('yield_ms moves a long command to the background; task_output and task_kill follow it', async () => {
    // The docker context's log pipeline may hold output back until it exits, so output is not asserted here.
    const shown = text(await call('bash', { command: 'echo started; sleep 30', yield_ms: 1000 }));
    const id = /moved to the background as task (\S+) /.exec(shown)?.[1];
    expect(id).toBeDefined();
    expect(text(await call('task_output', { task_id: id }))).toContain('running for');
    expect(text(await call('task_kill', { task_id: id }))).toContain(`Stopped task ${id}`);
    expect(text(await call('task_list', {}))).toMatch(new RegExp(`${id}  killed after`));
  });
});
