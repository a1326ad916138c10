/**
 * `berth/virtual`: the virtual context. berth's shell kernel over a virtual namespace (memory
 * scratch space, a copy-on-write workspace over a host directory or seeded memory, `/dev`, your
 * own mounts), behind the same `ExecutionContext` contract as the process and Docker contexts,
 * with transactions on the workspace: `changes`, `diff`, `commit`, `discard`, `fork`.
 *
 * ```ts
 * import { createVirtualContext } from 'berth/virtual';
 * const context = createVirtualContext({ root: '/home/me/app' });
 * const handle = await context.spawn();
 * await context.exec(handle, "sed -i 's/old/new/' src/main.ts");
 * console.log(await context.diff(handle)); // nothing reached /home/me/app yet
 * await context.commit(handle);
 * ```
 * @module
 */
export type { ExternalCommands } from '../../kernel/external.js';
export type { KernelLimits } from '../../kernel/limits.js';
export {
  DEFAULT_VIRTUAL_BUDGET,
  DEFAULT_VIRTUAL_MAX_LIST_ENTRIES,
  DEFAULT_VIRTUAL_MAX_READ_BYTES,
  type VirtualCommand,
  type VirtualContextOptions,
  type VirtualIdentity,
  type VirtualMcpTools,
  type VirtualMount,
} from './options.js';
export * from './sessions/index.js';
export { CommitStoppedError } from './transactions.js';
export { createVirtualContext, VirtualContext } from './virtual-context.js';
