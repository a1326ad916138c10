/**
 * A temp workspace, a real context over it (the process context, or the virtual context over a
 * copy-on-write view of the same directory), and the tools on one handle.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProcessContext } from '../../src/contexts/process/index.js';
import type { ProcessContextOptions } from '../../src/contexts/process/options.js';
import { createVirtualContext } from '../../src/contexts/virtual/index.js';
import type { ContextHandle, ExecutionContext, SpawnConfig } from '../../src/contract/types.js';
import { createSandboxPolicy } from '../../src/sandbox/index.js';
import { createToolSession, createTools } from '../../src/tools/index.js';
import type { BerthTool, ToolOptions, ToolResult, ToolSession } from '../../src/tools/types.js';

/** The contexts the tool tests run on. */
export type Backend = 'process' | 'virtual';
export const BACKENDS: readonly Backend[] = ['process', 'virtual'];

/** Where the virtual context shows the workspace directory. */
const VIRTUAL_WORKSPACE = '/workspace';

export interface Workspace {
  readonly backend: Backend;
  /** The workspace as the tools see it: the host directory, or `/workspace` in the virtual context. */
  readonly dir: string;
  /** The host directory: set up files here (the virtual context sees them through its overlay). */
  readonly hostDir: string;
  readonly context: ExecutionContext & { close(): Promise<void> };
  readonly handle: ContextHandle;
  readonly session: ToolSession;
  readonly tools: ReadonlyMap<string, BerthTool>;
  call(name: string, args: unknown, signal?: AbortSignal): Promise<ToolResult>;
  /** What the tools left at `relative` (below `dir`), read through the context. */
  readBack(relative: string): Promise<Buffer>;
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
    /** The context: the process context (default), or the virtual one over the same directory. */
    backend?: Backend;
  } = {},
): Promise<Workspace> {
  const hostDir = realpathSync(mkdtempSync(join(tmpdir(), 'berth-tools-')));
  const backend = options.backend ?? 'process';
  const dir = backend === 'virtual' ? VIRTUAL_WORKSPACE : hostDir;
  let context: Workspace['context'];
  if (backend === 'virtual') {
    if (options.sandboxed === true) throw new Error('the virtual context has no OS sandbox to test');
    context = createVirtualContext({
      root: hostDir,
      workspacePath: VIRTUAL_WORKSPACE,
      killGraceMs: 1000,
      containment: options.contained === true,
      ...(options.context?.output === undefined ? {} : { output: options.context.output }),
    });
  } else {
    context = createProcessContext({
      cwd: hostDir,
      killGraceMs: 1000,
      ...(options.contained === true ? { workspaceRoot: hostDir } : {}),
      ...(options.sandboxed === true ? { sandbox: createSandboxPolicy({ writableRoots: [hostDir] }) } : {}),
      ...options.context,
    });
  }
  const handle = await context.spawn({ cwd: dir, ...options.spawn });
  const session = createToolSession();
  const tools = new Map(createTools({ context, handle, session, ...options.tools }).map((t) => [t.name, t]));
  return {
    backend,
    dir,
    hostDir,
    context,
    handle,
    session,
    tools,
    call: (name, args, signal) => {
      const tool = tools.get(name);
      if (tool === undefined) throw new Error(`no tool ${name}`);
      return tool.execute(args, { signal });
    },
    readBack: async (relative) =>
      Buffer.from(
        await (context.readFileBytes as NonNullable<ExecutionContext['readFileBytes']>)(
          handle,
          `${dir}/${relative}`,
        ),
      ),
    async dispose() {
      await context.close();
      rmSync(hostDir, { recursive: true, force: true });
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
