/**
 * An `ExecResult` stream from what the sandbox reported: the whole stream when it fit in memory,
 * else its head and tail. The same text and facts `OutputCapture` produces locally (`settle`):
 * cuts never split a code point, the omission marker names the spill file inside the sandbox.
 * @module
 */
import { type CapturedStream, settle } from '../../contract/output-capture.js';
import type { OutputPolicy } from '../../contract/types.js';
import { alignStartForward, completePrefixEnd, decodeUtf8 } from '../../subprocess/utf8-boundary.js';

/** What the exec script reported about one stream. */
export interface ReportedStream {
  readonly label: 'stdout' | 'stderr';
  readonly bytesTotal: number;
  /** The whole stream (when it fit). */
  readonly all?: Uint8Array | undefined;
  readonly head?: Uint8Array | undefined;
  readonly tail?: Uint8Array | undefined;
  /** Path of the spill file inside the sandbox, or undefined. */
  readonly spillPath?: string | undefined;
}

export function capturedStream(report: ReportedStream, policy: OutputPolicy): CapturedStream {
  if (report.all !== undefined || report.bytesTotal <= policy.maxOutputBytes) {
    const all = (report.all ?? new Uint8Array(0)).subarray(0, report.bytesTotal);
    return settle(
      {
        text: decodeUtf8(all),
        head: undefined,
        truncated: false,
        bytesTotal: all.length,
        omittedBytes: 0,
        spillPath: undefined,
        spillDiscardReason: undefined,
      },
      report.label,
      policy,
    );
  }
  const head = report.head ?? new Uint8Array(0);
  const tail = report.tail ?? new Uint8Array(0);
  const discard =
    report.spillPath !== undefined
      ? undefined
      : policy.maxSpillBytes > 0 && report.bytesTotal > policy.maxSpillBytes
        ? ('cap-exceeded' as const)
        : undefined;
  return settle(
    {
      text: decodeUtf8(tail.subarray(Math.min(alignStartForward(tail, 0), tail.length))),
      head: decodeUtf8(head.subarray(0, completePrefixEnd(head))),
      truncated: true,
      bytesTotal: report.bytesTotal,
      omittedBytes: Math.max(0, report.bytesTotal - head.length - tail.length),
      spillPath: report.spillPath,
      spillDiscardReason: discard,
    },
    report.label,
    policy,
  );
}
