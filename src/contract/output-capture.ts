/**
 * The one output policy every backend applies to a captured stream: at most `maxOutputBytes` in
 * memory as head + tail, the whole stream spilled to a 0600 file up to `maxSpillBytes`, and text
 * with an explicit omission marker line between head and tail. Live text for `onOutput` comes from
 * a streaming UTF-8 decoder, so a code point split across chunks arrives whole.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { TextDecoder } from 'node:util';
import { isDiskFull } from '../errors/write-failure.js';
import { validateCollect } from '../subprocess/collect-spec.js';
import { HeadTailBuffer } from '../subprocess/head-tail-buffer.js';
import type { FileIdentity, PrivateDirectory } from '../subprocess/private-dir.js';
import { SpillFile } from '../subprocess/spill-file.js';
import type { CollectedOutput, SubprocessCollect } from '../subprocess/types.js';
import { alignStartForward, completePrefixEnd, decodeUtf8 } from '../subprocess/utf8-boundary.js';
import { callListener } from './call-listener.js';
import type { OutputPolicy, StreamFacts } from './types.js';

/** The settled text and facts of one captured stream. */
export interface CapturedStream {
  /** Whole stream when it fit; otherwise head, an omission marker line, tail. */
  readonly text: string;
  readonly facts: StreamFacts;
}

export interface OutputCaptureOptions {
  /**
   * A private (0700) directory for the spill file: its path, or (better) the held directory, so the
   * file is created through its descriptor and no link planted on the way is followed.
   */
  readonly spillDir: string | PrivateDirectory;
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

/**
 * One stream under the output policy. Feed it with `write`, settle it with `finish`.
 *
 * The same parts as the subprocess layer's `OutputCollector` (a head + tail buffer and a capped
 * spill file), with one difference: the spill file is created only when the stream first outgrows
 * memory. Until then memory holds every byte, so the spill starts complete; a command whose output
 * fits (nearly all of them) costs no file creation at all.
 */
export class OutputCapture {
  private readonly buffer: HeadTailBuffer;
  private readonly decoder: TextDecoder | undefined;
  private readonly onText: ((text: string) => void) | undefined;
  private readonly label: string;
  private readonly spillDir: string | PrivateDirectory;
  private readonly policy: OutputPolicy;
  private spill: SpillFile | undefined;
  private spillFailed = false;
  private spillFailure: 'disk-full' | 'io-error' = 'io-error';
  private finished: CapturedStream | undefined;

  /** @throws InvalidArgumentError when the policy is not valid. */
  constructor(policy: OutputPolicy, options: OutputCaptureOptions) {
    const spec = collectSpecFor(policy);
    validateCollect(spec, 'policy');
    this.policy = policy;
    this.label = options.label;
    this.spillDir = options.spillDir;
    this.buffer = new HeadTailBuffer(spec.maxBytes, spec.headBytes ?? 0);
    this.onText = options.onText;
    // ignoreBOM keeps a leading U+FEFF as text: output is reported, not interpreted.
    this.decoder = options.onText ? new TextDecoder('utf-8', { ignoreBOM: true }) : undefined;
  }

  /** Bytes seen so far. */
  get bytesTotal(): number {
    return this.buffer.bytesTotal;
  }

  /** Append a chunk (ignored after `finish`). */
  write(chunk: Uint8Array): void {
    if (this.finished || chunk.length === 0) return;
    if (this.spill === undefined && !this.spillFailed && this.policy.maxSpillBytes > 0) {
      if (this.buffer.bytesTotal + chunk.length > this.policy.maxOutputBytes) this.startSpill();
    }
    this.buffer.write(chunk);
    this.spill?.write(chunk);
    if (this.decoder) this.emit(this.decoder.decode(chunk, { stream: true }));
  }

  /**
   * Settle the stream: flush the decoder, close the spill file (kept: it is the only complete copy
   * once memory dropped bytes; the owner removes it with its private directory). Idempotent.
   */
  async finish(): Promise<CapturedStream> {
    if (this.finished) return this.finished;
    if (this.decoder) this.emit(this.decoder.decode());
    this.spill?.close();
    this.finished = settle(this.snapshot(), this.label, this.policy);
    return this.finished;
  }

  /**
   * The identity of the spill file while it is intact and was made in a held private directory:
   * what a context needs to read it back (and nothing else) later.
   */
  get spillIdentity(): FileIdentity | undefined {
    return this.spill?.intact ? this.spill.identity : undefined;
  }

  /** Drop everything, including the spill file. */
  async discard(): Promise<void> {
    this.spill?.remove();
    this.finished ??= {
      text: '',
      facts: { bytesTotal: 0, truncated: false, omittedBytes: 0, spillPath: null },
    };
  }

  private startSpill(): void {
    const name = `${this.label.replace(/[^A-Za-z0-9_-]/g, '_')}-${randomBytes(6).toString('hex')}.out`;
    const dir = this.spillDir;
    try {
      this.spill = new SpillFile(
        typeof dir === 'string' ? join(dir, name) : { dir, name },
        this.policy.maxSpillBytes,
      );
    } catch (error) {
      this.spillFailed = true;
      if (isDiskFull(error)) this.spillFailure = 'disk-full';
      return;
    }
    // Nothing was dropped yet: memory holds the stream from byte 0.
    this.spill.write(this.buffer.readFrom(0).bytes);
  }

  private snapshot(): Pick<
    CollectedOutput,
    'text' | 'head' | 'truncated' | 'bytesTotal' | 'omittedBytes' | 'spillPath' | 'spillDiscardReason'
  > {
    const buffer = this.buffer;
    const spillPath = this.spill?.intact ? this.spill.path : undefined;
    const spillDiscardReason = this.spillFailed ? this.spillFailure : this.spill?.discarded;
    if (!buffer.truncated) {
      return {
        text: decodeUtf8(buffer.readFrom(0).bytes),
        head: undefined,
        truncated: false,
        bytesTotal: buffer.bytesTotal,
        omittedBytes: 0,
        spillPath,
        spillDiscardReason,
      };
    }
    const tail = buffer.tailCopy();
    const head = buffer.headCopy();
    return {
      text: decodeUtf8(tail.subarray(Math.min(alignStartForward(tail, 0), tail.length))),
      head: decodeUtf8(head.subarray(0, completePrefixEnd(head))),
      truncated: true,
      bytesTotal: buffer.bytesTotal,
      omittedBytes: buffer.omittedBytes,
      spillPath,
      spillDiscardReason,
    };
  }

  private emit(text: string): void {
    if (text.length > 0) callListener(this.onText, text);
  }
}

/** Build the text (with marker) and facts from a collector snapshot. */
export function settle(
  snapshot: Pick<
    CollectedOutput,
    'text' | 'head' | 'truncated' | 'bytesTotal' | 'omittedBytes' | 'spillPath' | 'spillDiscardReason'
  >,
  label: string,
  policy: OutputPolicy,
): CapturedStream {
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
  const reason = snapshot.spillDiscardReason;
  const failure = reason === 'disk-full' || reason === 'io-error' ? { spillFailure: reason } : {};
  return {
    text,
    facts: { bytesTotal: snapshot.bytesTotal, truncated: true, omittedBytes, spillPath, ...failure },
  };
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
      : snapshot.spillDiscardReason === 'disk-full'
        ? 'the whole stream was not kept (the disk is full where spill files are written: the head and tail here are all that was kept)'
        : snapshot.spillDiscardReason === 'io-error'
          ? 'the whole stream was not kept (the spill file could not be written)'
          : `the whole stream was not kept (${snapshot.bytesTotal} bytes exceed maxSpillBytes=${policy.maxSpillBytes})`;
  return `[berth: ${omittedBytes} bytes of ${label} omitted here (maxOutputBytes=${policy.maxOutputBytes}); ${where}]`;
}
