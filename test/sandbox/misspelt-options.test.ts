// Every options object of the sandbox refuses a key it does not know, naming the key meant: a
// misspelt `hiddenPath` used to leave the secret it was meant to hide readable by every command.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProcessContext } from '../../src/contexts/process/index.js';
import {
  assertWritable,
  confineCommand,
  createSandboxPolicy,
  generateSandboxExecProfile,
  InvalidArgumentError,
  probeSandbox,
  type SandboxPolicy,
} from '../../src/sandbox/index.js';
import { runConfined } from './run-confined.js';

let base: string;
let secretDir: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'berth-sbx-misspelt-')));
  secretDir = join(base, 'secrets');
  mkdirSync(secretDir);
  writeFileSync(join(secretDir, 'token'), 'SECRET-TOKEN');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

async function refusal(call: () => unknown): Promise<InvalidArgumentError> {
  try {
    await call();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return error as InvalidArgumentError;
  }
  throw new Error('the call was accepted');
}

async function expectUnknown(call: () => unknown, field: string, meant: string): Promise<void> {
  const error = await refusal(call);
  expect(error.field).toBe(field);
  expect(error.message).toContain(`did you mean ${JSON.stringify(meant)}?`);
}

const policy = (): SandboxPolicy =>
  createSandboxPolicy({ writableRoots: [base], home: join(base, 'h'), env: {} });

describe('misspelt sandbox options', () => {
  it('createSandboxPolicy refuses hiddenPath, readOnlyPath, unixSocket, network typos', async () => {
    await expectUnknown(
      () => createSandboxPolicy({ writableRoots: [base], hiddenPath: [secretDir] } as never),
      'options.hiddenPath',
      'hiddenPaths',
    );
    await expectUnknown(
      () => createSandboxPolicy({ writableRoots: [base], readOnlyPath: ['Makefile'] } as never),
      'options.readOnlyPath',
      'readOnlyPaths',
    );
    await expectUnknown(
      () => createSandboxPolicy({ writableRoots: [base], unixSocket: 'allow' } as never),
      'options.unixSocket',
      'unixSockets',
    );
    await expectUnknown(
      () => createSandboxPolicy({ writableRoots: [base], writeableRoots: [base] } as never),
      'options.writeableRoots',
      'writableRoots',
    );
  });

  it('the key meant does hide the secret from a real sandboxed command', async () => {
    const hidden = createSandboxPolicy({
      writableRoots: [base],
      hiddenPaths: [secretDir],
      home: join(base, 'h'),
      env: {},
    });
    const result = await runConfined(
      hidden,
      ['/bin/sh', '-c', `cat ${secretDir}/token; ls -A ${secretDir}`],
      {
        cwd: base,
      },
    );
    expect(result.stdout).not.toContain('SECRET-TOKEN');
  });

  it('a hand-built policy with a misspelt key is refused by every entry point', async () => {
    const handBuilt = { ...policy(), hiddenPath: [secretDir] } as unknown as SandboxPolicy;
    await expectUnknown(
      () => confineCommand(handBuilt, ['true'], { cwd: base }),
      'policy.hiddenPath',
      'hiddenPaths',
    );
    await expectUnknown(() => assertWritable(handBuilt, join(base, 'x')), 'policy.hiddenPath', 'hiddenPaths');
    await expectUnknown(() => generateSandboxExecProfile(handBuilt), 'policy.hiddenPath', 'hiddenPaths');
    await expectUnknown(
      () => createProcessContext({ sandbox: handBuilt }),
      'policy.hiddenPath',
      'hiddenPaths',
    );
  });

  it('confineCommand, probeSandbox and generateSandboxExecProfile refuse unknown option keys', async () => {
    await expectUnknown(
      () => confineCommand(policy(), ['true'], { cwd: base, terminl: true } as never),
      'options.terminl',
      'terminal',
    );
    await expectUnknown(() => probeSandbox({ timeout: 1000 } as never), 'options.timeout', 'timeoutMs');
    await expectUnknown(
      () => generateSandboxExecProfile(policy(), { resolveSymlink: false } as never),
      'options.resolveSymlink',
      'resolveSymlinks',
    );
  });

  it('paths with NUL bytes are refused: cwd, home, bwrapPath', async () => {
    expect((await refusal(() => confineCommand(policy(), ['true'], { cwd: `${base}\0x` }))).field).toBe(
      'cwd',
    );
    expect((await refusal(() => createSandboxPolicy({ writableRoots: [base], home: '/h\0x' }))).field).toBe(
      'home',
    );
    expect(
      (await refusal(() => createSandboxPolicy({ writableRoots: [base], bwrapPath: '/usr/bin/bwrap\0x' })))
        .field,
    ).toBe('policy.bwrapPath');
    expect((await refusal(() => probeSandbox({ bwrapPath: '/usr/bin/bwrap\0x' }))).field).toBe('bwrapPath');
  });
});
