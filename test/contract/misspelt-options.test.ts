/**
 * Every options object of every public entry point refuses a key it does not know, naming the
 * key and the option meant. A misspelling that silently weakens security (`readOnlyRootFilesystem`
 * for `readOnlyRootfs`) must fail before anything runs. Paths with NUL bytes are refused too.
 * Docker calls on a live container are in test/contexts/docker/misspelt-options.test.ts.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAiTools } from '../../src/ai/index.js';
import { main } from '../../src/cli/main.js';
import { runMcpCheck } from '../../src/cli/mcp-check.js';
import { planContainer } from '../../src/contexts/docker/container-spec.js';
import { createDockerContext, sweepDockerContainers } from '../../src/contexts/docker/index.js';
import { createProcessContext, type ProcessContext } from '../../src/contexts/process/index.js';
import type { ContextHandle } from '../../src/contract/types.js';
import { closestName } from '../../src/contract/validate-options.js';
import { InvalidArgumentError } from '../../src/errors/index.js';
import { createContextStdioTransport, createMcpServer } from '../../src/mcp/index.js';
import { resolveConformanceOptions } from '../../src/testing/options.js';
import { createGlobTool, createTools } from '../../src/tools/index.js';

/** What the call throws or rejects with (undefined when it succeeds). */
async function thrown(call: () => unknown): Promise<unknown> {
  try {
    await call();
    return undefined;
  } catch (error) {
    return error;
  }
}

/** The call fails (sync or async) with an InvalidArgumentError for `field` suggesting `guess`. */
async function expectUnknown(call: () => unknown, field: string, guess: string | null): Promise<void> {
  await expectInvalid(call, field, 'is not an option of');
  if (guess !== null) expect(String(await thrown(call))).toContain(`did you mean ${JSON.stringify(guess)}?`);
}

async function expectInvalid(call: () => unknown, field: string, text: string): Promise<void> {
  const error = await thrown(call);
  expect(error, `${field} was accepted`).toBeInstanceOf(InvalidArgumentError);
  expect((error as InvalidArgumentError).field).toBe(field);
  expect((error as Error).message).toContain(text);
}

describe('did-you-mean', () => {
  it('finds the option meant, and nothing for a word that is not close', () => {
    const hardening = ['dropAllCapabilities', 'noNewPrivileges', 'readOnlyRootfs'];
    expect(closestName('readOnlyRootFilesystem', hardening)).toBe('readOnlyRootfs');
    expect(closestName('dropAllCaps', hardening)).toBe('dropAllCapabilities');
    expect(closestName('no_new_privileges', hardening)).toBe('noNewPrivileges');
    expect(closestName('imag', ['image', 'host'])).toBe('image');
    expect(closestName('imagee', ['image', 'host'])).toBe('image');
    expect(closestName('timeoutMS', ['timeoutMs', 'signal'])).toBe('timeoutMs');
    expect(closestName('offst', ['offset', 'limit'])).toBe('offset');
    expect(closestName('colour', hardening)).toBeUndefined();
  });
});

describe('the process context', () => {
  let dir: string;
  let context: ProcessContext;
  let handle: ContextHandle;
  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'berth-options-')));
    context = createProcessContext({ workspaceRoot: dir, killGraceMs: 500 });
    handle = await context.spawn();
  });
  afterAll(async () => {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('createProcessContext and its output policy', async () => {
    await expectUnknown(
      () => createProcessContext({ workspaceRot: dir } as never),
      'options.workspaceRot',
      'workspaceRoot',
    );
    await expectUnknown(
      () => createProcessContext({ output: { maxOutputByte: 10 } } as never),
      'options.output.maxOutputByte',
      'maxOutputBytes',
    );
    await expectInvalid(
      () => createProcessContext({ workspaceRoot: '/a\0b' }),
      'options.workspaceRoot',
      'NUL',
    );
  });

  it('spawn', async () => {
    await expectUnknown(() => context.spawn({ cwdd: dir } as never), 'config.cwdd', 'cwd');
    await expectInvalid(() => context.spawn({ cwd: 'a\0b' }), 'config.cwd', 'NUL');
  });

  it('exec, execBackground, execStream, waitBackground, reassignBackground', async () => {
    await expectUnknown(
      () => context.exec(handle, 'true', { timeoutMS: 5 } as never),
      'options.timeoutMS',
      'timeoutMs',
    );
    await expectUnknown(
      () => context.execBackground(handle, 'true', { onexit: () => {} } as never),
      'options.onexit',
      'onExit',
    );
    await expectUnknown(
      () => context.execStream(handle, 'true', { sginal: undefined } as never),
      'options.sginal',
      'signal',
    );
    const task = await context.execBackground(handle, 'true');
    await expectUnknown(
      () => context.waitBackground(handle, task.id, { timeout: 100 } as never),
      'options.timeout',
      'timeoutMs',
    );
    await expectUnknown(
      () => context.reassignBackground(handle, handle, { onExt: () => {} } as never),
      'callbacks.onExt',
      'onExit',
    );
    await expectInvalid(() => context.exec(handle, 'true', { cwd: 'a\0b' }), 'options.cwd', 'path');
  });

  it('openTerminal', async () => {
    if (context.openTerminal === undefined) return expect(context.capabilities.terminal).toBe(false);
    await expectUnknown(
      () => context.openTerminal!(handle, { cols: 80, rows: 24, shel: ['/bin/sh'] } as never),
      'options.shel',
      'shell',
    );
  });

  it('the tools, the AI SDK tools, and a tool call', async () => {
    await expectUnknown(
      () => createTools({ context, handle, outputBudgetChar: 10 } as never),
      'options.outputBudgetChar',
      'outputBudgetChars',
    );
    await expectUnknown(
      () => createTools({ context, handle, files: { maxFileByte: 1 } } as never),
      'options.files.maxFileByte',
      'maxFileBytes',
    );
    await expectUnknown(
      () => createGlobTool({ context, handle, ripgrp: 'never' } as never),
      'options.ripgrp',
      'ripgrep',
    );
    await expectUnknown(
      () => createAiTools({ context, handle, sesion: undefined } as never),
      'options.sesion',
      'session',
    );
    await expectInvalid(
      () => createTools({ context, handle, outputDir: '/tmp/a\0b' }),
      'options.outputDir',
      'NUL',
    );
    const [bash] = createTools({ context, handle });
    const result = await bash!.execute({ command: 'true' }, { sginal: undefined } as never);
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining('did you mean "signal"?') });
  });

  it('the MCP server, its HTTP endpoint, its stdio connection, and the context stdio transport', async () => {
    await expectUnknown(
      () => createMcpServer({ context, handle, instruction: 'x' } as never),
      'options.instruction',
      'instructions',
    );
    const server = createMcpServer({ context, handle });
    await expectUnknown(
      () => server.listenHttp({ maxSession: 2 } as never),
      'options.maxSession',
      'maxSessions',
    );
    await expectUnknown(
      () => server.connectStdio({ stdn: new PassThrough() } as never),
      'streams.stdn',
      'stdin',
    );
    await expectUnknown(
      () => createContextStdioTransport(context, handle, { command: 'cat', arg: [] } as never),
      'options.arg',
      'args',
    );
  });
});

describe('the docker context, before the engine is asked anything', () => {
  it('createDockerContext and sweepDockerContainers', async () => {
    await expectUnknown(() => createDockerContext({ imag: 'x' } as never), 'options.imag', 'image');
    await expectUnknown(() => sweepDockerContainers({ image: 'x' } as never), 'options.image', null);
    await expectInvalid(() => createDockerContext({ socketPath: '/a\0b' }), 'socketPath', 'NUL');
  });

  it('spawn, with nested hardening, resources, ports and mounts', async () => {
    const context = createDockerContext({ image: 'berth-test:busybox' });
    try {
      await expectUnknown(() => context.spawn({ imagee: 'x' } as never), 'config.imagee', 'image');
      await expectUnknown(
        () => context.spawn({ hardening: { readOnlyRootFilesystem: true, dropAllCaps: true } } as never),
        'hardening.readOnlyRootFilesystem',
        'readOnlyRootfs',
      );
      await expectUnknown(
        () => context.spawn({ hardening: { dropAllCaps: true } } as never),
        'hardening.dropAllCaps',
        'dropAllCapabilities',
      );
      await expectUnknown(
        () => context.spawn({ resources: { memory: 1 } } as never),
        'resources.memory',
        'memoryBytes',
      );
      await expectUnknown(
        () => context.spawn({ ports: [{ container: 80, hostPort: 8080 }] } as never),
        'ports[0].hostPort',
        'host',
      );
      await expectUnknown(
        () => context.spawn({ mounts: [{ source: '/a', target: '/b', readonly: true }] } as never),
        'mounts[0].readonly',
        'readOnly',
      );
      await expectInvalid(() => planContainer({ cwd: '/a\0b' }, 'h', 'img'), 'cwd', 'NUL');
      await expectInvalid(
        () => planContainer({ mounts: [{ source: '/a\0b', target: '/b' }] }, 'h', 'img'),
        'mounts[0].source',
        'NUL',
      );
    } finally {
      await context.close();
    }
  });
});

describe('the CLI and the conformance suite', () => {
  it('runMcpCheck, main, and runConformanceSuite', async () => {
    await expectUnknown(
      () => runMcpCheck({ command: 'true', args: [], cwd: '/', env: {}, stepTimeout: 1 } as never),
      'options.stepTimeout',
      'stepTimeoutMs',
    );
    await expectUnknown(() => main(['--version'], { stdot: process.stdout } as never), 'io.stdot', 'stdout');
    await expectUnknown(
      () =>
        resolveConformanceOptions({
          name: 'x',
          createContext: () => createProcessContext(),
          outputPolicy: { maxOutputBytes: 10, maxSpillBytes: 0 },
          expectedFailure: [],
        } as never),
      'options.expectedFailure',
      'expectedFailures',
    );
  });
});
