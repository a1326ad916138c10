/**
 * What the E2B context does beyond the shared suite, against the fake SDK: typed errors for each
 * way the service fails, the SDK's quirks absorbed (CommandExitError, default timeouts, strings
 * split per chunk), the bound on what the SDK holds in host memory, reconnect, options.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createE2BContext, type E2BContext } from '../../../src/contexts/e2b/index.js';
import { isBerthError } from '../../../src/errors/index.js';
import { FakeE2BService } from './fake-e2b.js';

const services: FakeE2BService[] = [];
const contexts: E2BContext[] = [];

function setUp(options: ConstructorParameters<typeof FakeE2BService>[0] = {}, extra = {}) {
  const service = new FakeE2BService(options);
  services.push(service);
  const context = createE2BContext({ sdk: service.sdk, apiKey: service.apiKey, killGraceMs: 1000, ...extra });
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

describe('e2b context: typed errors', () => {
  it('a wrong API key is RemoteAuthError saying how to set one, and no sandbox is made', async () => {
    const service = new FakeE2BService();
    services.push(service);
    const context = createE2BContext({ sdk: service.sdk, apiKey: 'e2b_wrong' });
    const error = await rejection(context.spawn());
    expect(isBerthError(error, 'E_REMOTE_AUTH'), String(error)).toBe(true);
    expect((error as Error).message).toMatch(/E2B refused the credentials .*E2B_API_KEY/);
    expect(service.sandboxes.size).toBe(0);
  });

  it('a missing API key (none given, none in the environment) is RemoteAuthError', async () => {
    const service = new FakeE2BService();
    services.push(service);
    const saved = process.env.E2B_API_KEY;
    delete process.env.E2B_API_KEY;
    try {
      const error = await rejection(createE2BContext({ sdk: service.sdk }).spawn());
      expect(isBerthError(error, 'E_REMOTE_AUTH'), String(error)).toBe(true);
    } finally {
      if (saved !== undefined) process.env.E2B_API_KEY = saved;
    }
  });

  it('the concurrency limit is RemoteQuotaError telling to destroy handles or wait', async () => {
    const { context } = setUp({ maxSandboxes: 1 });
    const first = await context.spawn();
    const error = await rejection(context.spawn());
    expect(isBerthError(error, 'E_REMOTE_QUOTA'), String(error)).toBe(true);
    expect((error as Error).message).toMatch(/destroy handles you no longer need/);
    await context.destroy(first);
    await context.destroy(await context.spawn());
  });

  it("a sandbox killed behind berth's back is SandboxGoneError naming it, for exec and files", async () => {
    const { service, context } = setUp();
    const handle = await context.spawn();
    const id = context.sandboxId(handle);
    service.killBehindBack(id);
    for (const call of [
      context.exec(handle, 'true'),
      context.readFile(handle, 'x'),
      context.writeFile(handle, 'x', 'y'),
    ]) {
      const error = await rejection(call);
      expect(isBerthError(error, 'E_SANDBOX_GONE'), String(error)).toBe(true);
      expect((error as Error).message).toContain(id);
      expect((error as Error).message).toMatch(/spawn a new one/);
    }
    await context.destroy(handle);
  });

  it('an unreachable service is RemoteNetworkError', async () => {
    const { service, context } = setUp();
    service.offline = true;
    const error = await rejection(context.spawn());
    expect(isBerthError(error, 'E_REMOTE_NETWORK'), String(error)).toBe(true);
    expect((error as Error).message).toMatch(/could not be reached/);
  });

  it('reconnect to an unknown sandbox id is SandboxGoneError', async () => {
    const { context } = setUp();
    const error = await rejection(context.reconnect('no-such-sandbox'));
    expect(isBerthError(error, 'E_SANDBOX_GONE'), String(error)).toBe(true);
  });
});

describe('e2b context: the SDK quirks', () => {
  it('a non-zero exit (the SDK throws CommandExitError) is a result', async () => {
    const { context } = setUp();
    const handle = await context.spawn();
    const result = await context.exec(handle, 'echo out; echo err >&2; exit 3');
    expect(result).toMatchObject({ exitCode: 3, stdout: 'out\n', stderr: 'err\n' });
  });

  it('output is byte-exact even when the SDK decodes each chunk on its own (older 2.x)', async () => {
    const { context } = setUp({ decoding: 'per-chunk' });
    const handle = await context.spawn();
    const heard: string[] = [];
    const result = await context.exec(handle, "printf '\\360\\237'; sleep 0.3; printf '\\230\\200\\377'", {
      onOutput: (chunk) => heard.push(chunk.text),
    });
    expect(result.stdoutFacts.bytesTotal).toBe(5);
    expect(result.stdout).toBe('\u{1F600}\uFFFD');
    expect(heard.join('')).toBe('\u{1F600}\uFFFD');
  });

  it("the SDK's default timeout (60 s; 1 s here) ends neither a long exec, a stream, a task nor a terminal", async () => {
    const { context } = setUp({ defaultTimeoutMs: 1000 });
    const handle = await context.spawn();
    const exec = context.exec(handle, 'sleep 2; echo done', { timeoutMs: 10_000 });
    const stream = await context.execStream!(handle, 'sleep 2; echo streamed');
    const chunks: Buffer[] = [];
    stream.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    const task = await context.execBackground!(handle, 'sleep 2; echo task');
    const terminal = await context.openTerminal!(handle, { cols: 80, rows: 24 });
    expect((await exec).stdout).toBe('done\n');
    expect(await stream.exited).toBe(0);
    expect(Buffer.concat(chunks).toString()).toBe('streamed\n');
    expect((await context.waitBackground!(handle, task.id))?.exitCode).toBe(0);
    let seen = '';
    terminal.onData((chunk) => {
      seen += Buffer.from(chunk).toString();
    });
    terminal.write('echo still-$((40+2))\r');
    await expect.poll(() => seen, { timeout: 10_000 }).toContain('still-42');
    await terminal.kill();
  });

  it('what the SDK holds in host memory is bounded by the output policy, not by the output', async () => {
    const { service, context } = setUp({}, { maxOutputBytes: 64 * 1024, maxSpillBytes: 1024 * 1024 });
    const handle = await context.spawn();
    const result = await context.exec(handle, 'head -c 20000000 /dev/zero | tr "\\0" a');
    expect(result.stdoutFacts).toMatchObject({ bytesTotal: 20_000_000, truncated: true, spillPath: null });
    // Head and tail in base64 plus control lines: far below the 20 MB the command printed.
    expect(service.largestOutput).toBeLessThan(200 * 1024);
  });
});

describe('e2b context: handles, reconnect, options', () => {
  it('reconnect by id or by a journaled handle gives the same handle, and commands run there', async () => {
    const { context } = setUp();
    const handle = await context.spawn();
    await context.writeFile(handle, 'note', 'kept');
    const journaled = JSON.parse(JSON.stringify(handle));
    const other = createE2BContext({ sdk: services.at(-1)!.sdk, apiKey: services.at(-1)!.apiKey });
    contexts.push(other);
    const back = await other.reconnect(journaled);
    expect(back).toEqual(handle);
    expect((await other.exec(back, 'cat note')).stdout).toBe('kept');
    expect(await other.reconnect(context.sandboxId(handle))).toEqual(back);
  });

  it('an unknown option is refused with a did-you-mean, before anything is loaded', () => {
    expect(() => createE2BContext({ templat: 'base' } as never)).toThrow(
      /options\.templat.*did you mean "template"/,
    );
    expect(() => createE2BContext({ sandboxTimeoutMs: -1 })).toThrow(/sandboxTimeoutMs/);
    expect(() => createE2BContext({ envs: { A: 1 } as never })).toThrow(/envs\.A/);
  });

  it('spawn refuses options of other backends, naming them', async () => {
    const { context } = setUp();
    await expect(context.spawn({ image: 'node:20' } as never)).rejects.toThrow(
      /config\.image.*its options are: cwd, env/,
    );
  });

  it('credential-shaped variables of the sandbox are removed from commands unless passed explicitly', async () => {
    const service = new FakeE2BService();
    services.push(service);
    const context = createE2BContext({
      sdk: service.sdk,
      apiKey: service.apiKey,
      envs: { SERVICE_TOKEN: 'secret-1', PLAIN: 'visible' },
    });
    contexts.push(context);
    const handle = await context.spawn();
    expect((await context.exec(handle, 'echo "[$SERVICE_TOKEN][$PLAIN]"')).stdout).toBe('[][visible]\n');
    expect(
      (await context.exec(handle, 'echo "[$SERVICE_TOKEN]"', { env: { SERVICE_TOKEN: 'mine' } })).stdout,
    ).toBe('[mine]\n');
  });
});
