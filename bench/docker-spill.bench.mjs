import { runJsonProbe } from './support/json-probe.mjs';

export const title = 'docker: spill moved into the container for the tools';

const MiB = 1024 * 1024;
const IMAGE = process.env.BERTH_BENCH_IMAGE ?? 'berth-test:busybox';
const BYTES = 60 * MiB;
const DIST = (path) => JSON.stringify(new URL(`../dist/${path}`, import.meta.url).href);

const PROBE = (mode) => `
import { readFileSync, writeFileSync } from 'node:fs';
const { createDockerContext } = await import(${DIST('contexts/docker/index.js')});
const { createTools } = await import(${DIST('tools/index.js')});
const context = createDockerContext({ image: ${JSON.stringify(IMAGE)} });
const handle = await context.spawn({ hardening: 'recommended' });
const tools = createTools({ context, handle });
const tool = (name) => tools.find((t) => t.name === name);
const status = (key) => Number(new RegExp(key + ':\\\\s+(\\\\d+)').exec(readFileSync('/proc/self/status', 'latin1'))[1]) * 1024;
const command = 'yes 0123456789abcdef | head -c ${BYTES}';
await context.exec(handle, 'true');
globalThis.gc?.();
writeFileSync('/proc/self/clear_refs', '5');
const before = status('VmRSS');
const started = performance.now();
let ok;
let ms;
if (${JSON.stringify(mode)} === 'exec') {
  const result = await context.exec(handle, command, { timeoutMs: 600000 });
  ok = result.exitCode === 0 && result.stdoutFacts.spillPath !== null;
  ms = performance.now() - started;
} else {
  const shown = await tool('bash').execute({ command, timeout_ms: 600000 });
  ms = performance.now() - started;
  const path = /Full stdout \\([^)]+\\): (\\/\\S+);/.exec(shown.content[0].text)?.[1];
  const lines = ${BYTES / 17};
  const read = path && await tool('read_file').execute({ path, offset: Math.floor(lines), limit: 5 });
  ok = !shown.isError && read !== undefined && !read.isError && read.content[0].text.includes('0123456789abcdef');
}
const peak = status('VmHWM');
await context.close();
console.log(JSON.stringify({ growth: peak - before, ms, ok }));
`;

function probe(mode) {
  return runJsonProbe(PROBE(mode));
}

const mib = (probed) => `${(probed.growth / MiB).toFixed(1)} MiB${probed.ok ? '' : ' (a call failed)'}`;

export async function run() {
  const exec = await probe('exec');
  const tools = await probe('tools');
  return [
    { name: 'exec of 60 MiB stdout (spilled on the host)', value: `${mib(exec)}, ${exec.ms.toFixed(0)} ms` },
    {
      name: 'bash of the same 60 MiB (exec + moveSpill into the container; memory with read_file of its end)',
      value: `${mib(tools)}, ${tools.ms.toFixed(0)} ms (${(tools.ms / exec.ms).toFixed(2)}× the exec)`,
      goal: 'host memory within +16 MiB of the exec alone (the spill is streamed, never held)',
      met: exec.ok && tools.ok && tools.growth <= exec.growth + 16 * MiB,
    },
  ];
}
