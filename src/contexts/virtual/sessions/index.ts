/**
 * Sessions: a virtual workspace's change set kept in the per-user state directory, so it outlives
 * the process that made it and is reviewed (and committed) from another one.
 * @module
 */
export {
  type ControlRequest,
  callControl,
} from './session-control.js';
export { liveOwner, processAlive, type SessionOwner } from './session-owner.js';
export {
  openSessionReview,
  type ServedSession,
  type SessionReview,
  serveSession,
  sessionContextOptions,
} from './session-review.js';
export {
  assertSessionName,
  createSession,
  describeAll,
  findSession,
  listSessions,
  removeSession,
  type SessionEntry,
  type SessionRecord,
  sessionsFor,
  stateRoot,
} from './session-store.js';
