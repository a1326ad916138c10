import { describe, expect, it } from 'vitest';
import type { ExecResult, StreamFacts } from '../../src/contract/types.js';
import { shellJoin, shellQuote } from '../../src/subprocess/shell-quote.js';
import { execStatusLine, exitStatusLine, splitBudget } from '../../src/tools/command-output.js';
import { binaryReason, imageTypeFromName, sniffImageType } from '../../src/tools/file-kind.js';
import { formatBytes, formatCount, formatDuration } from '../../src/tools/human-units.js';
import { sliceLog, wholeSequenceEnd } from '../../src/tools/task-log.js';

describe('formatCount', () => {
  it('groups thousands exactly as en-US does', () => {
    for (const n of [0, 5, 999, 1000, 12_345, 999_999, 1_000_000, -1234, 7_558_908, 2 ** 53 - 1]) {
      expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
    }
  });
});

describe('sliceLog', () => {
  const bytes = Buffer.from('ab€cd', 'utf8'); // € is 3 bytes: offsets 2..4

  it('reads from an offset and returns the next offset', () => {
    expect(sliceLog(bytes, 0, 100)).toEqual({ text: 'ab€cd', startOffset: 0, nextOffset: 7, totalBytes: 7 });
    expect(sliceLog(bytes, 5, 100).text).toBe('cd');
  });

  it('never ends inside a UTF-8 sequence, so the next call continues exactly', () => {
    const first = sliceLog(bytes, 0, 3);
    expect(first).toMatchObject({ text: 'ab', nextOffset: 2 });
    const second = sliceLog(bytes, first.nextOffset, 3);
    expect(second).toMatchObject({ text: '€', nextOffset: 5 });
  });

  it('with wholeLines, stops after the last newline unless at the end of the log', () => {
    const log = Buffer.from('ab\ncd\nef', 'utf8');
    expect(sliceLog(log, 0, 7, true)).toMatchObject({ text: 'ab\ncd\n', nextOffset: 6 });
    expect(sliceLog(log, 0, 2, true)).toMatchObject({ text: 'ab', nextOffset: 2 });
    expect(sliceLog(log, 6, 100, true)).toMatchObject({ text: 'ef', nextOffset: 8 });
  });

  it('moves an offset inside a sequence to the next sequence start', () => {
    expect(sliceLog(bytes, 3, 100)).toMatchObject({ text: 'cd', startOffset: 5 });
  });

  it('keeps a complete 4-byte sequence at the end', () => {
    const emoji = Buffer.from('a😀', 'utf8');
    expect(wholeSequenceEnd(emoji, 0, 5)).toBe(5);
    expect(wholeSequenceEnd(emoji, 0, 4)).toBe(1);
  });
});

describe('file kinds', () => {
  it('sniffs image signatures', () => {
    expect(sniffImageType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe(
      'image/png',
    );
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('GIF89a...'))).toBe('image/gif');
    expect(sniffImageType(Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '))).toBe('image/webp');
    expect(sniffImageType(Buffer.from('hello'))).toBeNull();
    expect(imageTypeFromName('/a/B.JPG')).toBe('image/jpeg');
    expect(imageTypeFromName('/a.png/readme')).toBeNull();
  });

  it('detects NUL bytes and invalid UTF-8, but not a sequence cut by the sniff window', () => {
    expect(binaryReason(Buffer.from('abc\u0000d'))).toBe('it contains a NUL byte at offset 3');
    expect(binaryReason(Buffer.from([0x61, 0xff, 0x62]))).toBe('it is not valid UTF-8 text');
    expect(binaryReason(Buffer.from('héllo'))).toBeNull();
    const cutAtWindow = Buffer.concat([Buffer.alloc(8191, 0x61), Buffer.from('€'), Buffer.from('z')]);
    expect(binaryReason(cutAtWindow)).toBeNull();
  });
});

describe('command output', () => {
  const facts: StreamFacts = { bytesTotal: 0, truncated: false, omittedBytes: 0, spillPath: null };
  const base: ExecResult = {
    exitCode: 0,
    signal: null,
    stdout: '',
    stderr: '',
    timedOut: false,
    aborted: false,
    durationMs: 1500,
    stdoutFacts: facts,
    stderrFacts: facts,
  };

  it('splits the budget: everything when it fits, stderr at most what it needs and at least a third', () => {
    expect(splitBudget(10, 10, 100)).toEqual([100, 100]);
    expect(splitBudget(1000, 10, 100)).toEqual([90, 10]);
    expect(splitBudget(1000, 1000, 99)).toEqual([66, 33]);
    expect(splitBudget(10, 1000, 100)).toEqual([10, 90]);
  });

  it('states exit code, signal, timeout and cancellation', () => {
    expect(execStatusLine(base, 1000)).toBe('[Exit code 0 · 1.5 s]');
    expect(execStatusLine({ ...base, exitCode: null, signal: 'SIGKILL' }, 1000)).toBe(
      '[Killed by signal SIGKILL after 1.5 s.]',
    );
    expect(execStatusLine({ ...base, exitCode: null, timedOut: true }, 1000)).toContain(
      '[Timed out: the command was killed after 1.0 s (timeout_ms=1000).',
    );
    expect(execStatusLine({ ...base, exitCode: null, aborted: true }, 1000)).toBe(
      '[Cancelled: the command was killed after 1.5 s.]',
    );
    expect(
      exitStatusLine({
        id: 't',
        exitCode: null,
        signal: 'SIGTERM',
        durationMs: 61_000,
        killed: true,
        logTruncated: false,
      }),
    ).toBe('[Killed by SIGTERM after 1 min 1 s.]');
  });
});

describe('units and quoting', () => {
  it('formats bytes and durations', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(300 * 1024 * 1024)).toBe('300 MiB');
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(120_000)).toBe('2 min');
  });

  it('quotes for sh', () => {
    expect(shellQuote('plain/path.ts')).toBe('plain/path.ts');
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellJoin(['rg', '-e', 'a b', ''])).toBe("rg -e 'a b' ''");
  });
});
