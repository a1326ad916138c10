/**
 * A filesystem whose one method answers a turn later (as a call through the thread pool does): the
 * call is made when asked, its answer handed over on the next `setImmediate`. Counts the calls and
 * how many are in flight at once, for the tests of reads started ahead of a walk.
 */
import type { Filesystem } from '../../src/vfs/filesystem.js';

type Method = 'readdir' | 'readRange' | 'lstat';

export interface SlowMethod {
  readonly fs: Filesystem;
  /** The first argument of every call, in call order. */
  readonly calls: string[];
  mostInFlight(): number;
}

/**
 * `inner` with `method` slowed. `answer` may replace the inner call (to make one fail); it is
 * called with the inner method bound and the call's arguments.
 */
export function slowMethod(
  inner: Filesystem,
  method: Method,
  answer: (call: () => Promise<unknown>, path: string) => Promise<unknown> = (call) => call(),
): SlowMethod {
  const calls: string[] = [];
  let inFlight = 0;
  let most = 0;
  const fs = new Proxy(inner, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key === method)
        return (path: string, ...rest: unknown[]) => {
          calls.push(path);
          inFlight += 1;
          most = Math.max(most, inFlight);
          const answered = answer(
            () => (value as (...args: unknown[]) => Promise<unknown>).call(target, path, ...rest),
            path,
          );
          answered.catch(() => undefined); // handed over below; never an unhandled rejection meanwhile
          return new Promise((resolve) => setImmediate(resolve)).then(() => {
            inFlight -= 1;
            return answered;
          });
        };
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { fs, calls, mostInFlight: () => most };
}
