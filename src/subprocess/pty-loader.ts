/**
 * Lazy loading of the optional `node-pty` dependency. Nothing loads it until a terminal is asked
 * for, and its absence is a clear `PtyUnavailableError`, never a silent fallback to pipes.
 * @module
 */
import { PtyUnavailableError } from '../errors/index.js';

/** The part of a node-pty terminal berth uses. */
export interface PtyProcess {
  readonly pid: number;
  onData(listener: (data: string | Uint8Array) => void): { dispose(): void };
  onExit(listener: (event: { exitCode: number; signal?: number }) => void): { dispose(): void };
  write(data: string | Uint8Array): void;
  resize(cols: number, rows: number): void;
}

/** The part of the node-pty module berth uses. */
export interface PtyModule {
  spawn(
    file: string,
    args: string[],
    options: {
      name: string;
      cols: number;
      rows: number;
      cwd: string;
      env: Record<string, string>;
      encoding: null;
    },
  ): PtyProcess;
}

const cache = new Map<string, Promise<PtyModule>>();

/**
 * Load node-pty (or the module named by `specifier`) once.
 * @throws PtyUnavailableError when it is not installed or its native part fails to load.
 */
export function loadPty(specifier = 'node-pty'): Promise<PtyModule> {
  let loading = cache.get(specifier);
  if (!loading) {
    loading = importPty(specifier);
    cache.set(specifier, loading);
    // A failed load may be fixed by installing the package; let the next call try again.
    loading.catch(() => cache.delete(specifier));
  }
  return loading;
}

async function importPty(specifier: string): Promise<PtyModule> {
  let loaded: { spawn?: unknown; default?: { spawn?: unknown } };
  try {
    loaded = await import(specifier);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const detail =
      code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND'
        ? `${specifier} is not installed`
        : `${specifier} failed to load: ${(error as Error).message}`;
    throw new PtyUnavailableError(detail, { cause: error });
  }
  const api = typeof loaded.spawn === 'function' ? loaded : loaded.default;
  if (typeof api?.spawn !== 'function') {
    throw new PtyUnavailableError(`${specifier} loaded but exports no spawn()`);
  }
  return api as PtyModule;
}
