/**
 * `berth/virtual`: berth's shell and commands in the Node process over a copy-on-write workspace,
 * behind the ExecutionContext contract, with `changes`, `diff`, `commit`, `discard` and `fork`;
 * and sessions, the change sets that outlive the process and are reviewed from another one.
 * @module
 */

export type { NetworkAllowRule, NetworkOptions } from '../commands/net/allowlist.js';
export {
  DEFAULT_VIRTUAL_BUDGET,
  DEFAULT_VIRTUAL_MAX_LIST_ENTRIES,
  DEFAULT_VIRTUAL_MAX_READ_BYTES,
  type VirtualCommand,
  type VirtualContextOptions,
  type VirtualIdentity,
  type VirtualMcpTools,
  type VirtualMount,
} from '../contexts/virtual/options.js';
export {
  createSession,
  findSession,
  listSessions,
  openSessionReview,
  removeSession,
  type ServedSession,
  type SessionEntry,
  type SessionRecord,
  type SessionReview,
  serveSession,
  sessionsFor,
  stateRoot,
} from '../contexts/virtual/sessions/index.js';
export { CommitStoppedError } from '../contexts/virtual/transactions.js';
export { createVirtualContext, VirtualContext } from '../contexts/virtual/virtual-context.js';
export type { ExternalCommands } from '../kernel/external.js';
export type { KernelLimits } from '../kernel/limits.js';
