/**
 * The fake keeps the SDK's own behaviours that berth must absorb; these checks keep the fake
 * honest, so the context's tests against it mean something.
 */
import { CommandExitError, TimeoutError } from 'e2b';
import { afterAll, describe, expect, it } from 'vitest';
import { FakeE2BService } from './fake-e2b.js';

const service = new FakeE2BService({ defaultTimeoutMs: 500 });
afterAll(() => service.shutdown());

describe('the fake e2b SDK', () => {
  it('commands.run throws the real CommandExitError on a non-zero exit, with the output', async () => {
    const sandbox = await service.sdk.Sandbox.create('base', { apiKey: service.apiKey });
    const error = await sandbox.commands.run('echo o; echo e >&2; exit 4').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CommandExitError);
    expect(error).toMatchObject({ exitCode: 4, stdout: 'o\n', stderr: 'e\n' });
  });

  it("a command without timeoutMs is cut at the default timeout with the SDK's TimeoutError", async () => {
    const sandbox = await service.sdk.Sandbox.create('base', { apiKey: service.apiKey });
    await expect(sandbox.commands.run('sleep 3')).rejects.toBeInstanceOf(TimeoutError);
    await expect(sandbox.commands.run('sleep 1', { timeoutMs: 0 })).resolves.toMatchObject({ exitCode: 0 });
  });

  it('kill ends one pid, not its tree (a child survives, as with envd)', async () => {
    const sandbox = await service.sdk.Sandbox.create('base', { apiKey: service.apiKey });
    const handle = await sandbox.commands.run('sleep 30 & echo $! > /tmp/child; wait', {
      background: true,
      timeoutMs: 0,
    });
    await expect
      .poll(async () => (await sandbox.commands.run('cat /tmp/child 2>/dev/null || true')).stdout)
      .not.toBe('');
    await handle.kill();
    const alive = await sandbox.commands.run('kill -0 "$(cat /tmp/child)" && echo alive || echo gone');
    expect(alive.stdout).toBe('alive\n');
    await sandbox.kill();
  });

  it('per-chunk decoding splits a code point written in two parts (the quirk berth must not trust)', async () => {
    const perChunk = new FakeE2BService({ decoding: 'per-chunk' });
    try {
      const sandbox = await perChunk.sdk.Sandbox.create('base', { apiKey: perChunk.apiKey });
      const chunks: string[] = [];
      await sandbox.commands.run("printf '\\360\\237'; sleep 0.3; printf '\\230\\200'", {
        onStdout: (text) => {
          chunks.push(text);
        },
      });
      expect(chunks.join('')).toContain('\uFFFD');
    } finally {
      perChunk.shutdown();
    }
  });
});
