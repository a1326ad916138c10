/**
 * `spawn` for backends without containers (the host process, the virtual shell): the contract's
 * container fields are refused by name rather than ignored, the same way on each.
 * @module
 */
import { CapabilityError } from '../errors/index.js';
import { SPAWN_CONFIG_KEYS } from './option-keys.js';
import type { SpawnConfig } from './types.js';
import { knownOptions } from './validate-options.js';

/** SpawnConfig fields that only the container backends understand. */
const CONTAINER_ONLY_FIELDS = [
  'image',
  'user',
  'labels',
  'network',
  'ports',
  'mounts',
  'resources',
  'runtime',
  'hardening',
] as const;

/**
 * The checked spawn config of a backend without containers.
 * @throws InvalidArgumentError for an unknown key; CapabilityError naming a container-only field.
 */
export function containerlessSpawnConfig(config: unknown, contextType: string): Partial<SpawnConfig> {
  const input = knownOptions(config as SpawnConfig | undefined, 'config', SPAWN_CONFIG_KEYS, 'spawn');
  for (const field of CONTAINER_ONLY_FIELDS) {
    if (input[field] !== undefined) {
      throw new CapabilityError(
        `SpawnConfig.${field}`,
        contextType,
        'it applies to containers; use the docker context, or leave it unset',
      );
    }
  }
  return input;
}
