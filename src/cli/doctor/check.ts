/**
 * One doctor finding: what was looked at, what was seen, what to do.
 * @module
 */

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** One finding of `berth doctor`. */
export interface DoctorCheck {
  /** Stable identifier: `node`, `node-pty`, `supervisor`, `sandbox`, `docker`, `gvisor`, `kubernetes` (its permissions: `kubernetes-rbac`). */
  readonly id: string;
  readonly title: string;
  readonly status: CheckStatus;
  /** What was observed, with the values involved. */
  readonly detail: string;
  /** What a person can do about a `fail` or `warn`. */
  readonly fix?: string | undefined;
  /** Finer-grained findings behind this one (the sandbox preflight's own checks). */
  readonly checks?: readonly DoctorCheck[] | undefined;
}

/** The message of anything thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Settle `work` within `ms`, else reject with a message naming `what`. */
export async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms}ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
