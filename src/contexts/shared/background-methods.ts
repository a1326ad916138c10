/**
 * The contract's background-task methods that only check the handle and ask the context's
 * `BackgroundRegistry` (list, kill, wait, reassign), written once for every backend. A context
 * class extends this, says how it checks a handle, and implements `execBackground` itself.
 * @module
 */
import { BackgroundRegistry, type OwnerCallbacks } from '../../contract/background-registry.js';
import type {
  BackgroundExit,
  BackgroundTaskInfo,
  BackgroundWriteOptions,
  ContextHandle,
  WaitOptions,
} from '../../contract/types.js';

/**
 * `listBackground`, `killBackground`, `waitBackground`, `reassignBackground` and `writeBackground`
 * over a registry. `writeBackground` writes to the stdin the backend handed the registry; a backend
 * that never hands one (it does not claim `backgroundStdin`) answers every write as `not-piped`.
 */
export abstract class BackgroundMethods {
  /** Every background task of the context, by owning handle. */
  protected readonly registry: BackgroundRegistry;

  constructor(registry: BackgroundRegistry = new BackgroundRegistry('bg-')) {
    this.registry = registry;
  }

  /**
   * Throw unless `handle` is live in this context.
   * @param field - the argument's name in the error (`handle`, `from`, `to`).
   */
  protected abstract assertLive(handle: unknown, field: string): void;

  async listBackground(handle: ContextHandle): Promise<BackgroundTaskInfo[]> {
    this.assertLive(handle, 'handle');
    return this.registry.list(handle.id);
  }

  async killBackground(handle: ContextHandle, id: string): Promise<BackgroundExit | null> {
    this.assertLive(handle, 'handle');
    return this.registry.kill(handle.id, id);
  }

  async waitBackground(
    handle: ContextHandle,
    id: string,
    options?: WaitOptions,
  ): Promise<BackgroundExit | null> {
    this.assertLive(handle, 'handle');
    return this.registry.wait(handle.id, id, options);
  }

  writeBackground(
    handle: ContextHandle,
    id: string,
    data: string | Uint8Array,
    options?: BackgroundWriteOptions,
  ): Promise<void> {
    // Not async: the checks and the queueing happen in this call, so concurrent writes keep order
    // and a refusal still arrives as a rejected promise.
    try {
      this.assertLive(handle, 'handle');
      return this.registry.write(handle.id, id, data, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async reassignBackground(
    from: ContextHandle,
    to: ContextHandle,
    callbacks?: OwnerCallbacks,
  ): Promise<BackgroundTaskInfo[]> {
    this.assertLive(from, 'from');
    this.assertLive(to, 'to');
    return this.registry.reassign(from.id, to.id, callbacks);
  }
}
