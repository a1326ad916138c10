/**
 * The one output policy every backend applies to a captured stream: at most `maxOutputBytes` in
 * memory as head + tail, the whole stream spilled to a 0600 file up to `maxSpillBytes`, and text
 * with an explicit omission marker line between head and tail. Live text for `onOutput` comes from
 * a streaming UTF-8 decoder, so a code point split across chunks arrives whole.
 * @module
 */
import { TextDecoder } from 'node:util';
import { OutputCollector } from '../subprocess/output-collector.js';
import type { CollectedOutput, SubprocessCollect } from '../subprocess/types.js';
import type { OutputPolicy, StreamFacts } from './types.js';

/** The settled text and facts of one captured stream. */
export interface CapturedStream {
  /** Whole stream when it fit; otherwise head, an omission marker line, tail. */
  readonly text: string;
  readonly facts: StreamFacts;
}

export interface OutputCaptureOptions {
  /** A private (0700) directory for the spill file. */
  readonly spillDir: string;
  /** `stdout` / `stderr`: names the spill file and the marker. */
  readonly label: string;
  /** Hears decoded text as it arrives. Exceptions it throws are swallowed: a UI must not kill a run. */
  readonly onText?: ((text: string) => void) | undefined;
}

/** The collect spec a policy maps to: half the memory cap is head, the rest tail. */
export function collectSpecFor(policy: OutputPolicy): SubprocessCollect {
  return {
    maxBytes: policy.maxOutputBytes,
    headBytes: Math.floor(policy.maxOutputBytes / 2),
    spill: policy.maxSpillBytes > 0 ? { maxBytes: policy.maxSpillBytes } : undefined,
  };
}

/** One stream under the output policy. Feed it with `write`, settle it with `finish`. */
export class OutputCapture {
  private readonly collector: OutputCollector;
  private readonly decoder: TextDecoder | undefined;
  private readonly onText: ((text: string) => void) | undefined;
  private readonly label: string;
  private readonly policy: OutputPolicy;
  private finished: CapturedStream | undefined;

  /** @throws InvalidArgumentError when the policy is not valid (field `policy.*`). */
  constructor(policy: OutputPolicy, options: OutputCaptureOptions) {
    this.policy = policy;
    this.label = options.label;
    this.collector = new OutputCollector(collectSpecFor(policy), {
      spillDir: options.spillDir,
      label: options.label,
      field: 'policy',
    });
    this.onText = options.onText;
    this.decoder = options.onText ? new TextDecoder('utf-8') : undefined;
  }

  /** Bytes seen so far. */
  get bytesTotal(): number {
    return this.collector.bytesTotal;
  }

  /** Append a chunk (ignored after `finish`). */
  write(chunk: Uint8Array): void {
    if (this.finished || chunk.length === 0) return;
    this.collector.write(chunk);
    if (this.decoder) this.emit(this.decoder.decode(chunk, { stream: true }));
  }

  /**
   * Settle the stream: flush the decoder, close the spill. The spill file is kept only when memory
   * dropped bytes (it is then the only complete copy); otherwise it is removed. Idempotent.
   */
  async finish(): Promise<CapturedStream> {
    if (this.finished) return this.finished;
    if (this.decoder) this.emit(this.decoder.decode());
    await this.collector.end();
    const snapshot = this.collector.snapshot();
    if (!snapshot.truncated) await this.collector.dispose();
    this.finished = settle(snapshot, this.label, this.policy);
    return this.finished;
  }

  /** Drop everything, including the spill file. */
  async discard(): Promise<void> {
    await this.collector.dispose();
  }

  private emit(text: string): void {
    if (text.length === 0 || !this.onText) return;
    try {
      this.onText(text);
    } catch {
      // A listener's bug must not break the capture or the command.
    }
  }
}

/** Build the text (with marker) and facts from a collector snapshot. */
export function settle(snapshot: CollectedOutput, label: string, policy: OutputPolicy): CapturedStream {
  if (!snapshot.truncated) {
    return {
      text: snapshot.text,
      facts: { bytesTotal: snapshot.bytesTotal, truncated: false, omittedBytes: 0, spillPath: null },
    };
  }
  const head = snapshot.head ?? '';
  const tail = snapshot.text;
  // Code-point alignment may trim a few bytes at each cut; count them as omitted too.
  const kept = Buffer.byteLength(head) + Buffer.byteLength(tail);
  const omittedBytes = Math.min(
    snapshot.bytesTotal,
    Math.max(snapshot.omittedBytes, snapshot.bytesTotal - kept),
  );
  const spillPath = snapshot.spillPath ?? null;
  const marker = omissionMarker(label, omittedBytes, snapshot, policy);
  const text = `${head}${head.length === 0 || head.endsWith('\n') ? '' : '\n'}${marker}\n${tail}`;
  return { text, facts: { bytesTotal: snapshot.bytesTotal, truncated: true, omittedBytes, spillPath } };
}

/** The marker line: how much is missing and where the whole stream is (or why it is not kept). */
export function omissionMarker(
  label: string,
  omittedBytes: number,
  snapshot: Pick<CollectedOutput, 'bytesTotal' | 'spillPath' | 'spillDiscardReason'>,
  policy: OutputPolicy,
): string {
  const where = snapshot.spillPath
    ? `the whole ${label} (${snapshot.bytesTotal} bytes) is in ${snapshot.spillPath}`
    : policy.maxSpillBytes === 0
      ? 'the whole stream was not kept (spilling is off: maxSpillBytes=0)'
      : snapshot.spillDiscardReason === 'io-error'
        ? 'the whole stream was not kept (the spill file could not be written)'
        : `the whole stream was not kept (${snapshot.bytesTotal} bytes exceed maxSpillBytes=${policy.maxSpillBytes})`;
  return `[berth: ${omittedBytes} bytes of ${label} omitted here (maxOutputBytes=${policy.maxOutputBytes}); ${where}]`;
}
