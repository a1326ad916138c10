/**
 * `berth/vfs`: filesystems berth's backends share. The first one is the host filesystem with
 * optional workspace-root containment.
 * @module
 */
export { fdRelativeWalk } from './dir-walk.js';
export { compileGlob, expandBraces, hasGlobMagic, matchParts } from './glob.js';
export {
  createLocalFileSystem,
  DEFAULT_MAX_ENTRIES,
  DEFAULT_MAX_READ_BYTES,
  LocalFileSystem,
  type LocalFileSystemOptions,
} from './local-fs.js';
export { assertPathArgument, isWithin } from './path-scope.js';
export type { FileEntry, FileSystem, WriteOptions } from './types.js';
