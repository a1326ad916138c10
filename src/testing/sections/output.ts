/**
 * The one output policy: at most `maxOutputBytes` of each stream in memory as head + marker +
 * tail, cuts on code point boundaries, the whole stream spilled up to `maxSpillBytes`.
 * @module
 */
import { readFile, stat } from 'node:fs/promises';
import { expect } from 'vitest';
import type { ExecResult, StreamFacts } from '../../contract/types.js';
import {
  euroCommand,
  euroText,
  firstDifference,
  numberedBytes,
  numberedBytesCommand,
} from '../byte-patterns.js';
import type { CaseScope, ConformanceSection } from '../case.js';
import { decomposeTruncated } from '../truncation-shape.js';
import { SOON_MS } from '../wait-until.js';

const utf8 = new TextEncoder();
/** Room an omission marker may take beyond the cap. */
const MARKER_ALLOWANCE_BYTES = 1024;
const LONG_MS = SOON_MS * 3;

/** Reads a spill file from wherever the options say spill files live. */
async function readSpill(scope: CaseScope, path: string): Promise<Uint8Array> {
  if (scope.fx.options.spillLocation === 'host') return new Uint8Array(await readFile(path));
  const { context, handle } = scope;
  if (context.readFileBytes) return context.readFileBytes(handle, path);
  return utf8.encode(await context.readFile(handle, path));
}

/** Asserts the truncated shape of `text` against `original`, and returns the marker. */
function expectTruncatedShape(
  label: string,
  text: string,
  facts: StreamFacts,
  original: Uint8Array,
  max: number,
): string {
  expect(facts.truncated, `${label}: truncated`).toBe(true);
  expect(facts.bytesTotal, `${label}: bytesTotal`).toBe(original.length);
  expect(facts.omittedBytes, `${label}: omittedBytes`).toBeGreaterThan(0);
  expect(text, `${label}: a cut split a code point`).not.toContain('\ufffd');
  const captured = utf8.encode(text);
  const parts = decomposeTruncated(captured, original, facts.omittedBytes);
  expect(
    parts,
    `${label}: the text is not <head of the stream> <marker> <tail of the stream> with head + tail + omittedBytes = bytesTotal`,
  ).not.toBeNull();
  if (!parts) return '';
  expect(parts.headBytes, `${label}: a head is kept`).toBeGreaterThan(0);
  expect(parts.tailBytes, `${label}: a tail is kept`).toBeGreaterThan(0);
  expect(
    parts.headBytes + parts.tailBytes,
    `${label}: head + tail exceed maxOutputBytes`,
  ).toBeLessThanOrEqual(max);
  expect(captured.length, `${label}: text size`).toBeLessThanOrEqual(max + MARKER_ALLOWANCE_BYTES);
  expect(parts.marker, `${label}: the omission marker states how many bytes were omitted`).toContain(
    String(facts.omittedBytes),
  );
  return parts.marker;
}

async function expectSpill(
  scope: CaseScope,
  label: string,
  facts: StreamFacts,
  original: Uint8Array,
): Promise<void> {
  expect(facts.spillPath, `${label}: spillPath (the stream is within maxSpillBytes)`).toEqual(
    expect.any(String),
  );
  const path = facts.spillPath as string;
  const content = await readSpill(scope, path);
  expect(content.length, `${label}: spill size`).toBe(original.length);
  expect(firstDifference(content, original), `${label}: first byte where the spill differs`).toBe(-1);
  if (scope.fx.options.spillLocation === 'host') {
    const mode = (await stat(path)).mode & 0o777;
    expect(mode.toString(8), `${label}: spill file mode`).toBe('600');
  }
}

function exact(result: ExecResult): void {
  expect(result.exitCode, `exit code (stderr: ${result.stderr.slice(0, 500)})`).toBe(0);
  expect(result.timedOut).toBe(false);
}

export const outputSection: ConformanceSection = {
  name: 'output',
  cases: [
    {
      id: 'output/at-cap',
      title: 'exactly maxOutputBytes of output is kept whole, not truncated',
      needs: ['shell'],
      run: async ({ fx }) => {
        const max = fx.options.outputPolicy.maxOutputBytes;
        const result = await fx.exec(numberedBytesCommand(max), { timeoutMs: LONG_MS });
        exact(result);
        expect(result.stdoutFacts.truncated).toBe(false);
        expect(result.stdoutFacts.omittedBytes).toBe(0);
        expect(result.stdoutFacts.bytesTotal).toBe(max);
        expect(
          result.stdout === new TextDecoder().decode(numberedBytes(max)),
          'stdout equals the stream',
        ).toBe(true);
      },
    },
    {
      id: 'output/over-cap',
      title: 'one byte over maxOutputBytes truncates; three times over keeps head, marker and tail',
      needs: ['shell'],
      run: async ({ fx }) => {
        const max = fx.options.outputPolicy.maxOutputBytes;
        const justOver = await fx.exec(numberedBytesCommand(max + 1), { timeoutMs: LONG_MS });
        exact(justOver);
        expectTruncatedShape(
          'max + 1 bytes',
          justOver.stdout,
          justOver.stdoutFacts,
          numberedBytes(max + 1),
          max,
        );
        const length = max * 3 + 7;
        const big = await fx.exec(numberedBytesCommand(length), { timeoutMs: LONG_MS });
        exact(big);
        expectTruncatedShape('3 × max bytes', big.stdout, big.stdoutFacts, numberedBytes(length), max);
        expect(big.stderrFacts.truncated).toBe(false);
      },
    },
    {
      id: 'output/utf8-cuts',
      title: 'truncation never splits a multibyte code point, whatever the alignment',
      needs: ['shell'],
      run: async ({ fx }) => {
        const max = fx.options.outputPolicy.maxOutputBytes;
        const count = Math.ceil((max * 2) / 3) + 11;
        for (const prefix of [0, 1, 2]) {
          const result = await fx.exec(euroCommand(prefix, count), { timeoutMs: LONG_MS });
          exact(result);
          const original = utf8.encode(euroText(prefix, count));
          expectTruncatedShape(
            `€ stream after ${prefix} ASCII bytes`,
            result.stdout,
            result.stdoutFacts,
            original,
            max,
          );
        }
      },
    },
    {
      id: 'output/stderr-independent',
      title: 'stderr has its own cap: a flood on stderr leaves stdout whole',
      needs: ['shell'],
      run: async (scope) => {
        const { fx } = scope;
        const max = fx.options.outputPolicy.maxOutputBytes;
        const length = max * 2 + 3;
        const result = await fx.exec(`echo small; ${numberedBytesCommand(length, 'stderr')}`, {
          timeoutMs: LONG_MS,
        });
        exact(result);
        expect(result.stdout).toBe('small\n');
        expect(result.stdoutFacts.truncated).toBe(false);
        expectTruncatedShape('stderr', result.stderr, result.stderrFacts, numberedBytes(length), max);
        if (fx.options.outputPolicy.maxSpillBytes >= length) {
          await expectSpill(scope, 'stderr', result.stderrFacts, numberedBytes(length));
        }
      },
    },
    {
      id: 'output/spill-whole-stream',
      title: 'a truncated stream within maxSpillBytes is spilled whole (0600 when on the host)',
      needs: ['shell'],
      when: (o) => o.outputPolicy.maxSpillBytes > o.outputPolicy.maxOutputBytes,
      run: async (scope) => {
        const { fx } = scope;
        const { maxOutputBytes, maxSpillBytes } = fx.options.outputPolicy;
        for (const length of [maxOutputBytes + 1, maxSpillBytes]) {
          const result = await fx.exec(numberedBytesCommand(length), { timeoutMs: LONG_MS });
          exact(result);
          expect(result.stdoutFacts.truncated).toBe(true);
          await expectSpill(scope, `${length}-byte stdout`, result.stdoutFacts, numberedBytes(length));
        }
      },
    },
    {
      id: 'output/spill-over-cap',
      title: 'a stream larger than maxSpillBytes reports no spill, and its facts stay exact',
      needs: ['shell'],
      when: (o) => o.outputPolicy.maxSpillBytes > 0,
      run: async ({ fx }) => {
        const { maxOutputBytes, maxSpillBytes } = fx.options.outputPolicy;
        const length = Math.max(maxSpillBytes, maxOutputBytes) + 1;
        const result = await fx.exec(numberedBytesCommand(length), { timeoutMs: LONG_MS });
        exact(result);
        expect(
          result.stdoutFacts.spillPath,
          'an incomplete spill must not be offered as the whole stream',
        ).toBeNull();
        expectTruncatedShape(
          'over the spill cap',
          result.stdout,
          result.stdoutFacts,
          numberedBytes(length),
          maxOutputBytes,
        );
      },
    },
    {
      id: 'output/spill-disabled',
      title: 'with maxSpillBytes 0 nothing is spilled',
      needs: ['shell'],
      when: (o) => o.outputPolicy.maxSpillBytes === 0,
      run: async ({ fx }) => {
        const max = fx.options.outputPolicy.maxOutputBytes;
        const result = await fx.exec(numberedBytesCommand(max * 2), { timeoutMs: LONG_MS });
        exact(result);
        expect(result.stdoutFacts.truncated).toBe(true);
        expect(result.stdoutFacts.spillPath).toBeNull();
      },
    },
    {
      id: 'output/spill-removed-on-destroy',
      title: "destroy removes the handle's spill files",
      needs: ['shell'],
      when: (o) => o.outputPolicy.maxSpillBytes > o.outputPolicy.maxOutputBytes,
      run: async ({ fx }) => {
        const handle = await fx.spawn();
        const max = fx.options.outputPolicy.maxOutputBytes;
        const result = await fx.exec(numberedBytesCommand(max + 1), { timeoutMs: LONG_MS }, handle);
        exact(result);
        const path = result.stdoutFacts.spillPath;
        expect(path, 'spillPath').toEqual(expect.any(String));
        await fx.context.destroy(handle);
        if (fx.options.spillLocation === 'host') {
          await expect(stat(path as string), `spill file ${path} survived destroy`).rejects.toMatchObject({
            code: 'ENOENT',
          });
        } else {
          expect(await fx.exists(path as string), `spill file ${path} survived destroy`).toBe(false);
        }
      },
    },
  ],
};
