/**
 * The shell kernel: a bash-compatible interpreter running in-process over a virtual filesystem.
 * @module
 */
export type { CommandKind } from '../commands/command.js';
export type { ExternalCommands } from './external.js';
export {
  createKernel,
  Kernel,
  type KernelExecOptions,
  type KernelOptions,
  type KernelResult,
} from './kernel.js';
export { DEFAULT_LIMITS, type KernelLimits, resolveLimits } from './limits.js';
export type { McpClientLike, McpToolInfo, MountMcpOptions } from './mcp-tools.js';
export type { CommandPlan, PlannedCommand, PlannedKind } from './plan.js';
export { ProcessTable } from './process-table.js';
export type { Identity, TrashLike } from './runtime/shell.js';
export { createTrash, type Trash, type TrashEntry, type TrashOptions } from './trash.js';
export type { HoldReport } from './watchdog.js';
