// The Docker context's cost: an exec('true') round trip against the same command through a raw
// Engine API exec (create + start + inspect, plain HTTP on a keep-alive socket, the floor any
// client pays) and through the Docker CLI (`docker exec`), interleaved round by round in one run.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createDockerContext } from '../dist/contexts/docker/index.js';
import { interleavedMedians } from './support/interleaved-medians.mjs';

export const title = 'docker: exec round trip vs raw Engine API and docker CLI';

const IMAGE = process.env.BERTH_BENCH_IMAGE ?? 'berth-test:busybox';
const SOCKET = process.env.DOCKER_HOST?.startsWith('unix://')
  ? process.env.DOCKER_HOST.slice('unix://'.length)
  : '/var/run/docker.sock';
const WARMUP = 10;
const ROUNDS = 100;
const COMMAND = ['/bin/sh', '-c', 'true'];

const agent = new http.Agent({ keepAlive: true });

function request(method, path, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { socketPath: SOCKET, method, path, agent, headers: { 'Content-Type': 'application/json' } },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** The floor: the three requests an attached exec needs, nothing else. */
async function rawApiExec(containerId) {
  const created = await request('POST', `/containers/${containerId}/exec`, {
    AttachStdout: true,
    AttachStderr: true,
    Cmd: COMMAND,
  });
  const { Id } = JSON.parse(created.body.toString());
  await request('POST', `/exec/${Id}/start`, { Detach: false, Tty: false });
  const inspected = JSON.parse((await request('GET', `/exec/${Id}/json`)).body.toString());
  if (inspected.ExitCode !== 0) throw new Error(`raw exec exited ${inspected.ExitCode}`);
}

function cliExec(containerId) {
  return new Promise((resolve, reject) => {
    const child = spawn('docker', ['exec', containerId, ...COMMAND], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`docker exec exited ${code}`))));
  });
}

export async function run() {
  const ctx = createDockerContext({ image: IMAGE });
  const h = await ctx.spawn();
  try {
    const containerId = ctx.containerId(h);
    const medians = await interleavedMedians(
      {
        raw: () => rawApiExec(containerId),
        cli: () => cliExec(containerId),
        exec: async () => {
          const result = await ctx.exec(h, 'true');
          if (result.exitCode !== 0) throw new Error(`exec exited ${result.exitCode}`);
        },
      },
      { warmup: WARMUP, rounds: ROUNDS },
    );
    const ratio = medians.exec / medians.raw;
    return [
      {
        name: 'raw Engine API exec (create + start + inspect) median',
        value: `${medians.raw.toFixed(2)} ms`,
      },
      { name: '`docker exec` CLI median', value: `${medians.cli.toFixed(2)} ms` },
      { name: "exec('true') median", value: `${medians.exec.toFixed(2)} ms` },
      { name: 'exec / raw API', value: ratio.toFixed(3), goal: '<= 1.1', met: ratio <= 1.1 },
      { name: 'exec / docker CLI', value: (medians.exec / medians.cli).toFixed(3) },
    ];
  } finally {
    await ctx.close();
    agent.destroy();
  }
}
