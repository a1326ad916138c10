// The suite's pure rules: option validation, which cases apply, expected-failure bookkeeping,
// the capability/method shape check, and reading a truncated capture back into its parts.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { ExecutionContext } from '../../src/contract/types.js';
import { InvalidArgumentError } from '../../src/errors/index.js';
import {
  BOOLEAN_CAPABILITIES,
  CONFORMANCE_SECTIONS,
  type ConformanceCase,
  type ConformanceOptions,
  capabilityShapeProblems,
  caseApplies,
  checkExpectedFailures,
  conformanceCaseIds,
  ExerciseTracker,
  resolveConformanceOptions,
  runCaseBody,
  StaleExpectedFailureError,
} from '../../src/testing/index.js';
import { decomposeTruncated } from '../../src/testing/truncation-shape.js';
import { createMemoryContext, MEMORY_CAPABILITIES } from './doubles/memory-context.js';

const base: ConformanceOptions = {
  name: 'x',
  createContext: () => createMemoryContext(),
  outputPolicy: { maxOutputBytes: 1024, maxSpillBytes: 0 },
};

function invalidField(options: unknown): string {
  try {
    resolveConformanceOptions(options as ConformanceOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return (error as InvalidArgumentError).field;
  }
  throw new Error('expected an InvalidArgumentError');
}

describe('resolveConformanceOptions', () => {
  it('applies defaults', () => {
    const resolved = resolveConformanceOptions(base);
    expect(resolved.networkHost).toBe('127.0.0.1');
    expect(resolved.caseTimeoutMs).toBe(60_000);
    expect([...resolved.expectedFailures]).toEqual([]);
    expect(resolved.workspaceRoot).toBeUndefined();
  });

  it('names the bad field for every bad input', () => {
    expect(invalidField(null)).toBe('options');
    expect(invalidField({ ...base, name: ' ' })).toBe('name');
    expect(invalidField({ ...base, createContext: 'nope' })).toBe('createContext');
    expect(invalidField({ ...base, disposeContext: 3 })).toBe('disposeContext');
    expect(invalidField({ ...base, outputPolicy: undefined })).toBe('outputPolicy');
    expect(invalidField({ ...base, outputPolicy: { maxOutputBytes: 0, maxSpillBytes: 0 } })).toBe(
      'outputPolicy.maxOutputBytes',
    );
    expect(invalidField({ ...base, outputPolicy: { maxOutputBytes: 1.5, maxSpillBytes: 0 } })).toBe(
      'outputPolicy.maxOutputBytes',
    );
    expect(invalidField({ ...base, outputPolicy: { maxOutputBytes: 64, maxSpillBytes: -1 } })).toBe(
      'outputPolicy.maxSpillBytes',
    );
    expect(invalidField({ ...base, outputPolicy: { maxOutputBytes: 64, maxSpillBytes: 128 } })).toBe(
      'spillLocation',
    );
    expect(invalidField({ ...base, spillLocation: 'disk' })).toBe('spillLocation');
    expect(invalidField({ ...base, workspaceRoot: 'relative/root' })).toBe('workspaceRoot');
    expect(invalidField({ ...base, networkHost: '' })).toBe('networkHost');
    expect(invalidField({ ...base, expectedFailures: 'exec/exit-codes' })).toBe('expectedFailures');
    expect(invalidField({ ...base, caseTimeoutMs: 0 })).toBe('caseTimeoutMs');
    expect(invalidField({ ...base, spawnConfig: 7 })).toBe('spawnConfig');
  });

  it('resolves spawnConfig from a value or a factory, and trims a trailing slash off the root', async () => {
    expect(await resolveConformanceOptions({ ...base, spawnConfig: { cwd: '/a' } }).spawnConfig()).toEqual({
      cwd: '/a',
    });
    expect(
      await resolveConformanceOptions({ ...base, spawnConfig: async () => ({ cwd: '/b' }) }).spawnConfig(),
    ).toEqual({
      cwd: '/b',
    });
    expect(resolveConformanceOptions({ ...base, workspaceRoot: '/w/' }).workspaceRoot).toBe('/w');
    expect(resolveConformanceOptions({ ...base, workspaceRoot: '/' }).workspaceRoot).toBe('/');
  });
});

describe('case planning', () => {
  const resolved = resolveConformanceOptions(base);
  const make = (c: Partial<ConformanceCase>): ConformanceCase => ({
    id: 't/x',
    title: 't',
    needs: [],
    run: async () => {},
    ...c,
  });

  it('a case applies only when its needs are claimed, its absences are not, and its condition holds', () => {
    const caps = { ...MEMORY_CAPABILITIES, shell: true };
    expect(caseApplies(make({ needs: ['shell'] }), caps, resolved)).toBe(true);
    expect(caseApplies(make({ needs: ['shell', 'stream'] }), caps, resolved)).toBe(false);
    expect(caseApplies(make({ needsAbsent: ['stream'] }), caps, resolved)).toBe(true);
    expect(caseApplies(make({ needsAbsent: ['shell'] }), caps, resolved)).toBe(false);
    expect(caseApplies(make({ when: (o) => o.outputPolicy.maxSpillBytes > 0 }), caps, resolved)).toBe(false);
  });

  it('a case needing an optional method applies only to a context that has it', () => {
    const caps = { ...MEMORY_CAPABILITIES, shell: true };
    const ranged = make({ needsMethods: ['readFileRange'] });
    const withRange = { readFileRange: async () => new Uint8Array() } as unknown as ExecutionContext;
    expect(caseApplies(ranged, caps, resolved, withRange)).toBe(true);
    expect(caseApplies(ranged, caps, resolved, {} as ExecutionContext)).toBe(false);
    expect(caseApplies(ranged, caps, resolved)).toBe(false);
  });

  it('every case id is unique and shaped section/name', () => {
    const ids = conformanceCaseIds();
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+\/[a-z0-9-]+$/);
    expect(ids.length).toBeGreaterThan(80);
  });

  it('docs/conformance.md lists every case id, and no id the suite does not define', async () => {
    const doc = await readFile(new URL('../../docs/conformance.md', import.meta.url), 'utf8');
    const documented = new Set([...doc.matchAll(/^\| `([a-z]+\/[a-z0-9-]+)` +\|/gm)].map((m) => m[1]));
    expect([...documented].sort()).toEqual(conformanceCaseIds().sort());
  });

  it('every boolean capability has at least one case exercising it when claimed', () => {
    const all = { ...MEMORY_CAPABILITIES };
    for (const cap of BOOLEAN_CAPABILITIES) (all as Record<string, unknown>)[cap] = true;
    const options = resolveConformanceOptions({
      ...base,
      outputPolicy: { maxOutputBytes: 64, maxSpillBytes: 256 },
      spillLocation: 'host',
    });
    const tracker = new ExerciseTracker(BOOLEAN_CAPABILITIES);
    for (const section of CONFORMANCE_SECTIONS) {
      for (const c of section.cases) {
        if (caseApplies(c, all, options)) tracker.mark(c.exercises ?? [...c.needs, ...(c.needsAbsent ?? [])]);
      }
    }
    expect(tracker.missing()).toEqual([]);
  });

  it('checkExpectedFailures separates unknown ids from ones that do not apply', () => {
    const problems = checkExpectedFailures(
      new Set(['a/1', 'b/2', 'c/3']),
      new Set(['a/1', 'b/2']),
      new Set(['a/1']),
    );
    expect(problems).toEqual({ unknown: ['c/3'], notApplicable: ['b/2'] });
  });

  it('ExerciseTracker reports claimed capabilities not yet exercised', () => {
    const tracker = new ExerciseTracker(['shell', 'stream']);
    expect(tracker.missing()).toEqual(['shell', 'stream']);
    tracker.mark(['stream', 'glob']);
    expect(tracker.missing()).toEqual(['shell']);
  });
});

describe('runCaseBody', () => {
  it('passes a passing body and rethrows a failing one', async () => {
    expect(
      await runCaseBody('t/ok', async () => {}, { expectedFailure: false, timeoutMs: 1000 }),
    ).toBeUndefined();
    await expect(
      runCaseBody('t/bad', async () => Promise.reject(new Error('boom')), {
        expectedFailure: false,
        timeoutMs: 1000,
      }),
    ).rejects.toThrow('boom');
  });

  it('returns the error of an expected failure and throws StaleExpectedFailureError when it passes', async () => {
    const outcome = await runCaseBody('t/x', async () => Promise.reject(new Error('known bug')), {
      expectedFailure: true,
      timeoutMs: 1000,
    });
    expect(String(outcome?.expectedError)).toBe('Error: known bug');
    await expect(
      runCaseBody('t/x', async () => {}, { expectedFailure: true, timeoutMs: 1000 }),
    ).rejects.toBeInstanceOf(StaleExpectedFailureError);
  });

  it('fails a body that hangs past the deadline, naming the case', async () => {
    await expect(
      runCaseBody('t/hang', () => new Promise<void>(() => {}), { expectedFailure: false, timeoutMs: 50 }),
    ).rejects.toThrow('t/hang did not finish within 50 ms');
    const outcome = await runCaseBody('t/hang', () => new Promise<void>(() => {}), {
      expectedFailure: true,
      timeoutMs: 50,
    });
    expect(String(outcome?.expectedError)).toContain('did not finish');
  });
});

describe('capabilityShapeProblems', () => {
  it('is empty for a consistent context', () => {
    const context = createMemoryContext();
    for (const cap of BOOLEAN_CAPABILITIES) expect(capabilityShapeProblems(context, cap)).toEqual([]);
  });

  it('names a missing method of a claimed capability and a present method of a disclaimed one', () => {
    const context = createMemoryContext({ capabilities: { background: true } });
    expect(capabilityShapeProblems(context, 'background').map((p) => `${p.method}:${p.problem}`)).toEqual([
      'execBackground:missing',
      'listBackground:missing',
      'killBackground:missing',
      'waitBackground:missing',
      'reassignBackground:missing',
    ]);
    const extra = createMemoryContext({ getMappedPort: async () => null });
    expect(capabilityShapeProblems(extra, 'ports')).toEqual([
      { capability: 'ports', method: 'getMappedPort', problem: 'present' },
    ]);
    const noFs = createMemoryContext({ capabilities: { filesystem: false } }) as ExecutionContext;
    expect(capabilityShapeProblems(noFs, 'filesystem').map((p) => p.method)).toEqual([
      'fileSize',
      'readFileBytes',
    ]);
  });
});

describe('decomposeTruncated', () => {
  const enc = new TextEncoder();
  const original = enc.encode('0123456789abcdefghij');

  it('finds head, marker and tail that account for every byte', () => {
    const parts = decomposeTruncated(enc.encode('0123[...12 omitted...]ghij'), original, 12);
    expect(parts).toEqual({ headBytes: 4, tailBytes: 4, marker: '[...12 omitted...]' });
  });

  it('finds a split even when the marker starts with the byte the stream would continue with', () => {
    // The marker "4x" begins like the omitted bytes ("45..."), so the longest common prefix overshoots.
    const parts = decomposeTruncated(enc.encode('01234xghij'), original, 12);
    expect(parts).not.toBeNull();
    expect((parts?.headBytes ?? 0) + (parts?.tailBytes ?? 0)).toBe(8);
    expect(parts?.marker.length).toBeGreaterThan(0);
  });

  it('rejects captures whose counts do not add up, or that have no marker', () => {
    expect(decomposeTruncated(enc.encode('0123[m]ghij'), original, 11)).toBeNull();
    expect(decomposeTruncated(enc.encode('01234ghij'), original, 11)).toBeNull();
    expect(decomposeTruncated(enc.encode('0123[m]ghiX'), original, 12)).toBeNull();
  });
});
