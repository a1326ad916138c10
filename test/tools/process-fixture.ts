/**
 * A temp workspace, a real process context over it, and the tools on one handle.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProcessContext, type ProcessContext } from '../../src/contexts/process/index.js';
import type { ProcessContextOptions } from '../../src/contexts/process/options.js';
import type { ContextHandle, SpawnConfig } from '../../src/contract/types.js';
import { createSandboxPolicy } from '../../src/sandbox/index.js';
import { createToolSession, createTools } from '../../src/tools/index.js';
import type { BerthTool, ToolOptions, ToolResult, ToolSession } from '../../src/tools/types.js';

export interface Workspace {
  readonly dir: string;
  readonly context: ProcessContext;
  readonly handle: ContextHandle;
  readonly session: ToolSession;
  readonly tools: ReadonlyMap<string, BerthTool>;
  call(name: string, args: unknown, signal?: AbortSignal): Promise<ToolResult>;
  dispose(): Promise<void>;
}

export async function openWorkspace(
  options: {
    context?: ProcessContextOptions;
    spawn?: SpawnConfig;
    tools?: Omit<ToolOptions, 'context' | 'handle' | 'session'>;
    /** Confine the file methods to the workspace directory. */
    contained?: boolean;
    /** Run commands in the OS sandbox with the workspace as the only writable root. */
    sandboxed?: boolean;
  } = {},
): Promise<Workspace> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'berth-tools-')));
  const context = createProcessContext({
    cwd: dir,
    killGraceMs: 1000,
    ...(options.contained === true ? { workspaceRoot: dir } : {}),
    ...(options.sandboxed === true ? { sandbox: createSandboxPolicy({ writableRoots: [dir] }) } : {}),
    ...options.context,
  });
  const handle = await context.spawn({ cwd: dir, ...options.spawn });
  const session = createToolSession();
  const tools = new Map(createTools({ context, handle, session, ...options.tools }).map((t) => [t.name, t]));
  return {
    dir,
    context,
    handle,
    session,
    tools,
    call: (name, args, signal) => {
      const tool = tools.get(name);
      if (tool === undefined) throw new Error(`no tool ${name}`);
      return tool.execute(args, { signal });
    },
    async dispose() {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The text a model reads from a result. */
export function text(result: ToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : `[image ${c.mimeType}]`)).join('\n');
}

/** The task id in a bash result that moved to (or started in) the background. */
export function taskId(result: ToolResult): string {
  const id = /task (\S+?)[ .(]/.exec(text(result))?.[1];
  if (id === undefined) throw new Error(`no task id in: ${text(result)}`);
  return id;
}
