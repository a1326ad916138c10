/**
 * The names each contract options object accepts, checked against the types at compile time, so
 * every backend refuses the same misspelt key (`timeoutMS`, `imagee`) with the same did-you-mean.
 * @module
 */
import type {
  BackgroundOptions,
  BackgroundWriteOptions,
  ChangeSelection,
  CommitChangesOptions,
  ExecOptions,
  MountSpec,
  PortMapping,
  SpawnConfig,
  StreamOptions,
  TerminalOptions,
  WaitOptions,
} from './types.js';
import { optionKeys } from './validate-options.js';

export const SPAWN_CONFIG_KEYS = optionKeys<SpawnConfig>({
  cwd: true,
  env: true,
  image: true,
  user: true,
  labels: true,
  network: true,
  ports: true,
  mounts: true,
  resources: true,
  runtime: true,
  hardening: true,
});
export const RESOURCE_KEYS = optionKeys<NonNullable<SpawnConfig['resources']>>({
  memoryBytes: true,
  cpus: true,
  pids: true,
});
export const HARDENING_KEYS = optionKeys<Exclude<NonNullable<SpawnConfig['hardening']>, string>>({
  dropAllCapabilities: true,
  noNewPrivileges: true,
  readOnlyRootfs: true,
});
export const PORT_KEYS = optionKeys<PortMapping>({
  container: true,
  host: true,
  protocol: true,
  hostIp: true,
});
export const MOUNT_KEYS = optionKeys<MountSpec>({ source: true, target: true, readOnly: true });
export const EXEC_OPTION_KEYS = optionKeys<ExecOptions>({
  cwd: true,
  env: true,
  timeoutMs: true,
  signal: true,
  onOutput: true,
  stdin: true,
});
export const BACKGROUND_OPTION_KEYS = optionKeys<BackgroundOptions>({
  cwd: true,
  env: true,
  onExit: true,
  onStall: true,
  stallMs: true,
  maxLogBytes: true,
  stdin: true,
});
export const BACKGROUND_WRITE_OPTION_KEYS = optionKeys<BackgroundWriteOptions>({ close: true });
export const STREAM_OPTION_KEYS = optionKeys<StreamOptions>({ cwd: true, env: true, signal: true });
export const TERMINAL_OPTION_KEYS = optionKeys<TerminalOptions>({
  cols: true,
  rows: true,
  shell: true,
  cwd: true,
  env: true,
});
export const WAIT_OPTION_KEYS = optionKeys<WaitOptions>({ timeoutMs: true, signal: true });
export const REASSIGN_CALLBACK_KEYS = optionKeys<{ onExit: unknown; onStall: unknown }>({
  onExit: true,
  onStall: true,
});
export const CHANGE_SELECTION_KEYS = optionKeys<ChangeSelection>({ paths: true });
export const COMMIT_OPTION_KEYS = optionKeys<CommitChangesOptions>({ paths: true, force: true });
