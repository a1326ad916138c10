import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  confineCommand,
  createSandboxPolicy,
  InvalidArgumentError,
  resolveWritableRoots,
  type SandboxPolicy,
} from '../../src/sandbox/index.js';

let base: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'berth-sbx-policy-')));
  mkdirSync(join(base, 'a'));
  mkdirSync(join(base, 'b'));
  symlinkSync(join(base, 'a'), join(base, 'a-link'));
  writeFileSync(join(base, 'file'), 'x');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function invalid(run: () => unknown): InvalidArgumentError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).code).toBe('E_INVALID_ARGUMENT');
    return error as InvalidArgumentError;
  }
  throw new Error('expected InvalidArgumentError');
}

describe('resolveWritableRoots', () => {
  it('resolves symlinks and drops duplicates, first occurrence first', () => {
    expect(
      resolveWritableRoots([join(base, 'b'), join(base, 'a-link'), join(base, 'a'), `${base}/b/`]),
    ).toEqual([join(base, 'b'), join(base, 'a')]);
  });

  it('accepts an empty list (a fully read-only sandbox)', () => {
    expect(resolveWritableRoots([])).toEqual([]);
  });

  it('names a missing path', () => {
    const error = invalid(() => resolveWritableRoots([join(base, 'a'), join(base, 'missing')]));
    expect(error.field).toBe('writableRoots[1]');
    expect(error.message).toContain(join(base, 'missing'));
    expect(error.message).toContain('ENOENT');
  });

  it('refuses a relative path, a file, a non-string and a non-array', () => {
    expect(invalid(() => resolveWritableRoots(['relative/dir'])).message).toContain('is relative');
    expect(invalid(() => resolveWritableRoots([join(base, 'file')])).message).toContain('is not a directory');
    expect(invalid(() => resolveWritableRoots([42 as unknown as string])).field).toBe('writableRoots[0]');
    expect(invalid(() => resolveWritableRoots('/tmp' as unknown as string[])).field).toBe('writableRoots');
  });
});

describe('createSandboxPolicy', () => {
  it('returns a frozen policy', () => {
    const policy = createSandboxPolicy({ writableRoots: [join(base, 'a-link')], home: base, env: {} });
    expect(Object.isFrozen(policy)).toBe(true);
    expect(Object.isFrozen(policy.hiddenPaths)).toBe(true);
    expect(policy.writableRoots).toEqual([join(base, 'a')]);
  });

  it('can start from empty lists', () => {
    const policy = createSandboxPolicy({
      writableRoots: [],
      network: 'allow',
      defaultHiddenPaths: false,
      defaultReadOnlyPaths: false,
      hiddenPaths: ['/srv/x'],
    });
    expect(policy).toEqual({
      writableRoots: [],
      network: 'allow',
      hiddenPaths: ['/srv/x'],
      readOnlyPaths: [],
      unixSockets: 'deny',
    });
  });

  it('refuses a bad network value', () => {
    const error = invalid(() =>
      createSandboxPolicy({ writableRoots: [], network: 'none' as unknown as 'deny', home: base, env: {} }),
    );
    expect(error.field).toBe('policy.network');
    expect(error.message).toContain('"none"');
  });

  it('refuses relative hidden paths and read-only names that leave their root', () => {
    expect(invalid(() => createSandboxPolicy({ writableRoots: [], hiddenPaths: ['.ssh'] })).field).toBe(
      'hiddenPaths[0]',
    );
    expect(
      invalid(() => createSandboxPolicy({ writableRoots: [], readOnlyPaths: ['/etc/x'] })).message,
    ).toContain('is absolute');
    expect(
      invalid(() => createSandboxPolicy({ writableRoots: [], readOnlyPaths: ['a', '../up'] })).field,
    ).toBe('readOnlyPaths[1]');
    expect(invalid(() => createSandboxPolicy({ writableRoots: [], readOnlyPaths: ['.'] })).field).toBe(
      'readOnlyPaths[0]',
    );
  });

  it('refuses a writable root inside a hidden path, naming both', () => {
    mkdirSync(join(base, '.aws', 'cache'), { recursive: true });
    const error = invalid(() =>
      createSandboxPolicy({ writableRoots: [join(base, '.aws', 'cache')], home: base, env: {} }),
    );
    expect(error.field).toBe('writableRoots[0]');
    expect(error.message).toContain(join(base, '.aws'));
  });

  it('refuses a relative home and a missing options object', () => {
    expect(invalid(() => createSandboxPolicy({ writableRoots: [], home: 'home' })).field).toBe('home');
    expect(invalid(() => createSandboxPolicy(undefined as never)).field).toBe('options');
  });

  it('refuses a relative bwrapPath', () => {
    expect(invalid(() => createSandboxPolicy({ writableRoots: [], bwrapPath: 'bwrap' })).field).toBe(
      'policy.bwrapPath',
    );
  });
});

describe('createSandboxPolicy: Unix sockets and NUL bytes', () => {
  it('defaults unixSockets to deny, resolves a list, and refuses anything else', () => {
    expect(createSandboxPolicy({ writableRoots: [base] }).unixSockets).toBe('deny');
    expect(createSandboxPolicy({ writableRoots: [base], unixSockets: 'allow' }).unixSockets).toBe('allow');
    const listed = createSandboxPolicy({
      writableRoots: [base],
      home: '/home/ada',
      env: {},
      unixSockets: ['/run/postgresql/', '~/.cache/x.sock', '/run/postgresql'],
    });
    expect(listed.unixSockets).toEqual(['/run/postgresql', '/home/ada/.cache/x.sock']);
    expect(
      invalid(() => createSandboxPolicy({ writableRoots: [base], unixSockets: 'none' as 'deny' })).field,
    ).toBe('unixSockets');
    expect(
      invalid(() => createSandboxPolicy({ writableRoots: [base], unixSockets: ['run/x.sock'] })).field,
    ).toBe('unixSockets[0]');
  });

  it('refuses an allowed socket inside a hidden path, naming both', () => {
    const error = invalid(() =>
      createSandboxPolicy({ writableRoots: [base], env: {}, unixSockets: ['/run/docker.sock'] }),
    );
    expect(error.field).toBe('unixSockets[0]');
    expect(error.message).toContain('"/run/docker.sock"');
  });

  it('refuses NUL bytes in every path', () => {
    for (const [options, field] of [
      [{ writableRoots: [`${base}\0x`] }, 'writableRoots[0]'],
      [{ writableRoots: [base], hiddenPaths: ['/a\0b'] }, 'hiddenPaths[0]'],
      [{ writableRoots: [base], readOnlyPaths: ['.a\0b'] }, 'readOnlyPaths[0]'],
      [{ writableRoots: [base], unixSockets: ['/a\0b'] }, 'unixSockets[0]'],
    ] as const) {
      const error = invalid(() => createSandboxPolicy(options));
      expect(error.field).toBe(field);
      expect(error.message).toMatch(/NUL byte/);
    }
    const handBuilt: SandboxPolicy = {
      writableRoots: [base],
      network: 'deny',
      hiddenPaths: ['/a\0b'],
      readOnlyPaths: [],
    };
    expect(invalid(() => confineCommand(handBuilt, ['true'], { cwd: base })).field).toBe(
      'policy.hiddenPaths[0]',
    );
  });
});

describe('confineCommand input checks', () => {
  const policy: SandboxPolicy = { writableRoots: [], network: 'deny', hiddenPaths: [], readOnlyPaths: [] };

  it('refuses an empty argv, a NUL byte, a relative cwd', () => {
    expect(invalid(() => confineCommand(policy, [], { cwd: '/' })).field).toBe('argv');
    expect(invalid(() => confineCommand(policy, ['echo', 'a\0b'], { cwd: '/' })).field).toBe('argv[1]');
    expect(invalid(() => confineCommand(policy, [''], { cwd: '/' })).field).toBe('argv[0]');
    expect(invalid(() => confineCommand(policy, ['true'], { cwd: 'here' })).field).toBe('cwd');
  });

  it('refuses a hand-built policy with a relative root or a missing list', () => {
    expect(
      invalid(() => confineCommand({ ...policy, writableRoots: ['rel'] }, ['true'], { cwd: '/' })).field,
    ).toBe('policy.writableRoots[0]');
    expect(
      invalid(() => confineCommand({ ...policy, readOnlyPaths: undefined } as never, ['true'], { cwd: '/' }))
        .field,
    ).toBe('policy.readOnlyPaths');
    expect(invalid(() => confineCommand(null as never, ['true'], { cwd: '/' })).field).toBe('policy');
  });
});
