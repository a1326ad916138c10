/**
 * What the Daytona context does beyond the shared suite, against the fake SDK: typed errors for
 * each way the service fails, seconds where the SDK takes seconds, separate streams although
 * `executeCommand` merges them, and the fake's own fidelity.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createDaytonaContext, type DaytonaContext } from '../../../src/contexts/daytona/index.js';
import { isBerthError } from '../../../src/errors/index.js';
import { FakeDaytonaService } from './fake-daytona.js';

const services: FakeDaytonaService[] = [];
const contexts: DaytonaContext[] = [];

function setUp(options: ConstructorParameters<typeof FakeDaytonaService>[0] = {}, extra = {}) {
  const service = new FakeDaytonaService(options);
  services.push(service);
  const context = createDaytonaContext({
    sdk: service.sdk,
    apiKey: service.apiKey,
    killGraceMs: 1000,
    ...extra,
  });
  contexts.push(context);
  return { service, context };
}

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  for (const service of services) service.shutdown();
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('daytona context: typed errors', () => {
  it('a wrong API key is RemoteAuthError naming DAYTONA_API_KEY', async () => {
    const service = new FakeDaytonaService();
    services.push(service);
    const error = await rejection(createDaytonaContext({ sdk: service.sdk, apiKey: 'dtn_wrong' }).spawn());
    expect(isBerthError(error, 'E_REMOTE_AUTH'), String(error)).toBe(true);
    expect((error as Error).message).toMatch(/DAYTONA_API_KEY/);
  });

  it('the quota is RemoteQuotaError', async () => {
    const { context } = setUp({ maxSandboxes: 1 });
    const first = await context.spawn();
    const error = await rejection(context.spawn());
    expect(isBerthError(error, 'E_REMOTE_QUOTA'), String(error)).toBe(true);
    await context.destroy(first);
  });

  it("a sandbox deleted behind berth's back is SandboxGoneError, and destroy still settles", async () => {
    const { service, context } = setUp();
    const handle = await context.spawn();
    const id = context.sandboxId(handle);
    service.killBehindBack(id);
    const error = await rejection(context.exec(handle, 'true'));
    expect(isBerthError(error, 'E_SANDBOX_GONE'), String(error)).toBe(true);
    expect((error as Error).message).toContain(id);
    await context.destroy(handle);
  });

  it('an unreachable service is RemoteNetworkError', async () => {
    const { service, context } = setUp();
    service.offline = true;
    const error = await rejection(context.spawn());
    expect(isBerthError(error, 'E_REMOTE_NETWORK'), String(error)).toBe(true);
  });
});

describe('daytona context: the SDK quirks', () => {
  it("timeouts go to the SDK in seconds (create, and a command with berth's slack)", async () => {
    const { service, context } = setUp({}, { createTimeoutMs: 90_500 });
    const handle = await context.spawn();
    expect(service.createTimeouts).toEqual([91]);
    await context.exec(handle, 'true', { timeoutMs: 2_000 });
    // berth's own deadline (2 s) plus grace (1 s) and slack (30 s), rounded up to seconds.
    expect(service.executeTimeouts.at(-1)).toBe(33);
  });

  it('stdout and stderr stay apart although executeCommand merges them', async () => {
    const { context } = setUp();
    const handle = await context.spawn();
    const result = await context.exec(handle, 'echo out; echo err >&2; echo out2; exit 7');
    expect(result).toMatchObject({ exitCode: 7, stdout: 'out\nout2\n', stderr: 'err\n' });
  });

  it('the fake runs executeCommand without a shell and merges its output (as the daemon does)', async () => {
    const service = new FakeDaytonaService();
    services.push(service);
    const sandbox = await new service.sdk.Daytona({ apiKey: service.apiKey }).create();
    const plain = await sandbox.process.executeCommand('echo $HOME; ls /nonexistent-path');
    expect(plain.result).toBe('$HOME ; ls /nonexistent-path\n');
    const merged = await sandbox.process.executeCommand("/bin/sh -c 'echo o; echo e >&2'");
    expect(merged.result).toBe('o\ne\n');
    await sandbox.delete();
  });
});
