/**
 * `moveSpill` for the Docker context: a spill file lives on the host, where the container's file
 * methods cannot read it, so the shared move (`contexts/shared/spill-move.ts`) streams it into the
 * container through an engine exec reading its stdin, as the container's user.
 * @module
 */
import type { MovedSpill } from '../../contract/types.js';
import { moveHostSpill } from '../shared/spill-move.js';
import { collectExec } from './collect-exec.js';
import { STATE_DIR } from './container-spec.js';
import type { EngineClient } from './engine-client.js';
import type { HandleState } from './handle-state.js';

/**
 * Move the handle's spill file `spillPath` into its container (`/tmp/.berth/<label>-<random>.out`,
 * mode 0600). The spill is claimed first, so it moves once; a failed copy gives it back.
 */
export function moveSpillIntoContainer(
  client: EngineClient,
  state: HandleState,
  spillPath: string,
  label: string,
): Promise<MovedSpill> {
  return moveHostSpill(
    { handleId: state.handle.id, dir: state.spillDir, spills: state.spills },
    {
      stateDir: STATE_DIR,
      box: 'container',
      needsByteCount: false,
      run: (argv, stdin, what) =>
        collectExec(client, state.containerId, argv, {
          ...(stdin === undefined ? {} : { stdin }),
          maxStdoutBytes: 1024,
          what,
        }),
    },
    spillPath,
    label,
  );
}
