/**
 * `berth/kernel`: the bash-compatible shell kernel, in-process over a virtual filesystem
 * (`createKernel`), with the types a host needs to define commands, mount MCP tools, plan a
 * script before running it, and read its limits and holds.
 * @module
 */

export type {
  ByteReader,
  ByteWriter,
  CommandContext,
  CommandDispatch,
  CommandHandler,
  CommandKind,
  PatientHold,
} from '../commands/command.js';
export type { NetworkAllowRule, NetworkOptions, NetworkPolicy } from '../commands/net/allowlist.js';
export type { ExternalCommands } from '../kernel/external.js';
export {
  createKernel,
  Kernel,
  type KernelExecOptions,
  type KernelOptions,
  type KernelResult,
} from '../kernel/kernel.js';
export { DEFAULT_LIMITS, type KernelLimits, resolveLimits } from '../kernel/limits.js';
export type { McpClientLike, McpToolInfo, MountMcpOptions } from '../kernel/mcp-tools.js';
export type { CommandPlan, PlannedCommand, PlannedKind } from '../kernel/plan.js';
export type { Identity, TrashLike } from '../kernel/runtime/shell.js';
export { createTrash, type Trash, type TrashEntry, type TrashOptions } from '../kernel/trash.js';
export type { HoldReport } from '../kernel/watchdog.js';
