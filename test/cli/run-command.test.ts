import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMarker, pidsWithMarker, waitForNoMarker } from '../support/process-markers.js';
import { berth, MAIN } from './berth-binary.js';

let root: string;
let outside: string;
beforeAll(() => {
  expect(existsSync(MAIN), 'run `npm run build` first (npm test does)').toBe(true);
  root = realpathSync(mkdtempSync(join(tmpdir(), 'berth-cli-run-')));
  writeFileSync(join(root, 'hello.txt'), 'hello from the root\n');
  // Outside both writable roots of the default sandbox (the root and the temp directory).
  mkdirSync('/var/tmp', { recursive: true });
  outside = realpathSync(mkdtempSync('/var/tmp/berth-cli-outside-'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('berth run', () => {
  it('passes the exit code through', async () => {
    expect((await berth(['run', '--root', root, '--', 'sh', '-c', 'exit 7'])).code).toBe(7);
    expect((await berth(['run', '--root', root, '--', 'true'])).code).toBe(0);
  });

  it('streams stdout and stderr to their own streams, in the root', async () => {
    const result = await berth(['run', '--root', root, 'cat hello.txt; echo to-stderr >&2']);
    expect(result.stdout).toBe('hello from the root\n');
    expect(result.stderr).toContain('to-stderr\n');
    expect(result.code).toBe(0);
  });

  it('quotes several words as one command with those arguments', async () => {
    const result = await berth(['run', '--root', root, '--', 'printf', '%s|', 'a b', '$HOME', "it's"]);
    expect(result.stdout).toBe("a b|$HOME|it's|");
  });

  it('--json prints the ExecResult', async () => {
    const result = await berth([
      'run',
      '--json',
      '--root',
      root,
      '--',
      'sh',
      '-c',
      'echo out; echo err >&2; exit 3',
    ]);
    expect(result.code).toBe(3);
    const parsed = JSON.parse(result.stdout);
    expect(parsed).toMatchObject({
      exitCode: 3,
      signal: null,
      stdout: 'out\n',
      stderr: 'err\n',
      timedOut: false,
      aborted: false,
      stdoutFacts: { bytesTotal: 4, truncated: false, omittedBytes: 0, spillPath: null },
    });
    expect(typeof parsed.durationMs).toBe('number');
  });

  it('--timeout kills the command tree and exits 124, like timeout(1)', async () => {
    const result = await berth([
      'run',
      '--root',
      root,
      '--timeout',
      '300ms',
      '--',
      'sh',
      '-c',
      'sleep 30 & sleep 30',
    ]);
    expect(result.code).toBe(124);
    expect(result.stderr).toContain('timed out after 300ms');
    expect(result.durationMs).toBeLessThan(20_000);
    const json = await berth(['run', '--json', '--root', root, '--timeout', '200ms', '--', 'sleep', '30']);
    expect(json.code).toBe(124);
    // Under bubblewrap the death by signal may surface as exit code 143 instead of a signal; timedOut is the fact.
    expect(JSON.parse(json.stdout)).toMatchObject({ timedOut: true });
  });

  it('SIGTERM or SIGINT to berth ends the whole command tree; exit 143 / 130', async () => {
    for (const [signal, status] of [
      ['SIGTERM', 143],
      ['SIGINT', 130],
    ] as const) {
      const marker = newMarker();
      const child = spawn(
        process.execPath,
        [MAIN, 'run', '--root', root, `sleep 30 & sleep 31; : ${marker}`],
        {
          stdio: 'ignore',
        },
      );
      // berth's own argv carries the marker too: wait for the command's shell.
      const commandPids = () => pidsWithMarker(marker).filter((pid) => pid !== child.pid);
      const deadline = Date.now() + 30_000; // a loaded machine can take seconds to start berth
      while (commandPids().length === 0 && Date.now() < deadline) await sleep(50);
      expect(commandPids().length).toBeGreaterThan(0);
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill(signal);
      expect(await exited).toBe(status);
      expect(await waitForNoMarker(marker, 10_000)).toEqual([]);
    }
  });

  it('--max-output bounds the --json result to head + tail, with the whole stream spilled', async () => {
    const result = await berth([
      'run',
      '--json',
      '--max-output',
      '1k',
      '--root',
      root,
      '--',
      'seq',
      '1',
      '20000',
    ]);
    const parsed = JSON.parse(result.stdout);
    expect(parsed.stdoutFacts.bytesTotal).toBe(108_894);
    expect(parsed.stdoutFacts.truncated).toBe(true);
    expect(parsed.stdoutFacts.omittedBytes).toBeGreaterThan(100_000);
    expect(parsed.stdout.startsWith('1\n2\n3\n')).toBe(true);
    expect(parsed.stdout.endsWith('19999\n20000\n')).toBe(true);
    expect(Buffer.byteLength(parsed.stdout)).toBeLessThan(2048);
    // The spill outlives berth (the context's own copy went with it) and holds the whole stream.
    const spill = parsed.stdoutFacts.spillPath as string;
    expect(readFileSync(spill, 'utf8')).toBe(
      `${Array.from({ length: 20000 }, (_, i) => i + 1).join('\n')}\n`,
    );
    expect(statSync(spill).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(spill)).mode & 0o777).toBe(0o700);
    rmSync(dirname(spill), { recursive: true });
    const bad = await berth(['run', '--json', '--max-output', '10 parsecs', '--', 'true']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--max-output: "10 parsecs" is not a size/);
  });

  it('--stdin hands stdin to the command', async () => {
    const result = await berth(['run', '--root', root, '--stdin', '--', 'tr', 'a-z', 'A-Z'], {
      input: 'shout\n',
    });
    expect(result.stdout).toBe('SHOUT\n');
  });

  it('runs sandboxed by default: writes outside the root and the temp directory fail', async () => {
    const target = join(outside, 'sandboxed.txt');
    const result = await berth(['run', '--root', root, '--', 'touch', target]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/Read-only file system|Permission denied/);
    expect(existsSync(target)).toBe(false);
    const inside = await berth(['run', '--root', root, '--', 'touch', join(root, 'made-inside.txt')]);
    expect(inside.code).toBe(0);
    expect(existsSync(join(root, 'made-inside.txt'))).toBe(true);
  });

  it('--no-sandbox runs unconfined', async () => {
    const target = join(outside, 'unsandboxed.txt');
    const result = await berth(['run', '--no-sandbox', '--root', root, '--', 'touch', target]);
    expect(result.code).toBe(0);
    expect(existsSync(target)).toBe(true);
  });

  it('where the sandbox does not work: warns and runs unsandboxed, or fails closed with --sandbox', async () => {
    // bubblewrap is looked up on PATH; without it the sandbox cannot work.
    const env = { PATH: '/nonexistent-berth-path' };
    const target = join(outside, 'fallback.txt');
    const fallback = await berth(['run', '--root', root, '--', '/usr/bin/touch', target], { env });
    expect(fallback.stderr).toMatch(
      /warning: the OS sandbox does not work here .*running commands UNSANDBOXED/,
    );
    expect(fallback.code).toBe(0);
    expect(existsSync(target)).toBe(true);

    const refused = join(outside, 'refused.txt');
    const closed = await berth(['run', '--sandbox', '--root', root, '--', '/usr/bin/touch', refused], {
      env,
    });
    expect(closed.code).toBe(1);
    expect(closed.stderr).toMatch(
      /--sandbox was given, which needs the OS sandbox, but it does not work here.*\[E_SANDBOX_UNAVAILABLE\]/,
    );
    expect(existsSync(refused)).toBe(false);

    // Only the sandbox can deny the network: asking for that explicitly also fails closed.
    const noNet = await berth(['run', '--network', 'deny', '--root', root, '--', '/usr/bin/touch', refused], {
      env,
    });
    expect(noNet.code).toBe(1);
    expect(noNet.stderr).toMatch(
      /--network deny was given, which needs the OS sandbox, but it does not work here.*\[E_SANDBOX_UNAVAILABLE\]/,
    );
    expect(existsSync(refused)).toBe(false);
  });

  it('--network deny with --no-sandbox is a contradiction, refused before anything runs', async () => {
    const marker = join(outside, 'no-sandbox-deny.txt');
    const result = await berth([
      'run',
      '--no-sandbox',
      '--network',
      'deny',
      '--root',
      root,
      '--',
      'touch',
      marker,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--network: deny needs the OS sandbox (or --context docker), and --no-sandbox turns it off; drop one of the two',
    );
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses bad usage with exit 2 and a message naming the problem', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['run', '--frobnicate', '--', 'true'],
        /--frobnicate: unknown flag for berth run; run `berth run --help`/,
      ],
      [['run', '--timeout', '30', '--', 'true'], /--timeout: "30" has no unit/],
      [['run', '--timeout', 'soon', '--', 'true'], /--timeout: "soon" is not a duration/],
      [['run', '--timeout'], /--timeout: needs a value \(DURATION\)/],
      [['run'], /CMD: is missing/],
      [
        ['run', '--context', 'vm', '--', 'true'],
        /--context: must be process, docker, kubernetes, e2b, daytona or virtual, got "vm"/,
      ],
      [
        ['run', '--root', '/nonexistent-berth-root', '--', 'true'],
        /--root: "\/nonexistent-berth-root" does not exist/,
      ],
      [['run', '--context', 'docker', '--', 'true'], /--image: the docker context needs an image/],
      [['run', '--image', 'x', '--', 'true'], /--image: applies to the docker and kubernetes contexts only/],
      [['run', '--network', 'maybe', '--', 'true'], /--network: must be allow or deny/],
      [['mcp'], /--root: the current directory is \/, which would make the whole filesystem the workspace/],
      [
        ['run', '--context', 'docker', '--image', 'x', '--sandbox', '--', 'true'],
        /--sandbox: applies to the process context only/,
      ],
    ];
    for (const [args, message] of cases) {
      const result = await berth(args, { cwd: '/' });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stdout).toBe('');
    }
  });
});

describe('berth run --context docker', () => {
  it('runs in a container with the root mounted at /workspace and passes the exit code', async () => {
    const result = await berth([
      'run',
      '--context',
      'docker',
      '--image',
      'berth-test:busybox',
      '--root',
      root,
      '--',
      'sh',
      '-c',
      'pwd; cat hello.txt; exit 4',
    ]);
    expect(result.stderr).not.toContain('starting a container'); // no spinner without a TTY
    expect(result.stdout).toBe('/workspace\nhello from the root\n');
    expect(result.code).toBe(4);
  });

  it('has no network unless --network allow', async () => {
    const base = ['run', '--context', 'docker', '--image', 'berth-test:busybox', '--root', root];
    const denied = await berth([...base, '--', 'ls', '/sys/class/net']);
    expect(denied.stdout.split(/\s+/).filter(Boolean)).toEqual(['lo']);
    const allowed = await berth([...base, '--network', 'allow', '--', 'ls', '/sys/class/net']);
    expect(allowed.stdout.split(/\s+/).filter(Boolean)).toContain('eth0');
  });

  it('says clearly when the image is not present', async () => {
    const result = await berth([
      'run',
      '--context',
      'docker',
      '--image',
      'berth-no-such-image:404',
      '--',
      'true',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/berth-no-such-image:404.*not present.*\[E_DOCKER_IMAGE_NOT_FOUND\]/);
  });
});
