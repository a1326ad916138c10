import { readFileSync } from 'node:fs';
import { afterEach } from 'vitest';
import {
  createProcessContext,
  type ProcessContext,
  type ProcessContextOptions,
} from '../../../src/contexts/process/index.js';

/** True while `pid` is a live (non-zombie) process. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Poll until `check` holds or `timeoutMs` passes; returns the last result. */
export async function eventually(check: () => boolean, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

const contexts: ProcessContext[] = [];

/** A context closed after the test. */
export function makeContext(options?: ProcessContextOptions): ProcessContext {
  const context = createProcessContext(options);
  contexts.push(context);
  return context;
}

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
