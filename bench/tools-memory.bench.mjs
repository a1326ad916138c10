import { runJsonProbe } from './support/json-probe.mjs';

export const title = 'tools: host memory reading large task logs';

const MiB = 1024 * 1024;
const DIST = (path) => JSON.stringify(new URL(`../dist/${path}`, import.meta.url).href);

const PROBE = (mode, bytes) => `
import { readFileSync, writeFileSync } from 'node:fs';
const { createProcessContext } = await import(${DIST('contexts/process/index.js')});
const { createTools } = await import(${DIST('tools/index.js')});
// The default log cap (64 MiB): the line is cut there, and that is what a whole read loads.
const real = createProcessContext();
// Without ranges: the same context with readFileRange hidden, as the tools read logs before.
const context = ${JSON.stringify(mode)} === 'whole'
  ? new Proxy(real, { get: (target, key) => (key === 'readFileRange' ? undefined : Reflect.get(target, key)) })
  : real;
const handle = await real.spawn();
const tools = createTools({ context, handle });
const tool = (name) => tools.find((t) => t.name === name);
const status = (key) => Number(new RegExp(key + ':\\\\s+(\\\\d+)').exec(readFileSync('/proc/self/status', 'latin1'))[1]) * 1024;
await real.exec(handle, 'true');
globalThis.gc?.();
writeFileSync('/proc/self/clear_refs', '5');
const before = status('VmRSS');
const command = ${JSON.stringify(mode)} === 'flood-exec'
  ? null
  : "head -c ${bytes} /dev/zero | tr '\\\\0' a";
let ok = true;
if (command === null) {
  const result = await real.exec(handle, 'head -c ${bytes} /dev/zero', { timeoutMs: 600000 });
  ok = result.exitCode === 0;
} else {
  const started = await tool('bash').execute({ command, run_in_background: true });
  const id = /bg-[0-9a-f]+/.exec(JSON.stringify(started))[0];
  const waited = await tool('task_wait').execute({ task_id: id, timeout_ms: 600000 });
  const read = await tool('task_output').execute({ task_id: id, offset: 0 });
  ok = !waited.isError && !read.isError;
}
const peak = status('VmHWM');
await real.close();
console.log(JSON.stringify({ growth: peak - before, ok }));
`;

function probe(mode, bytes) {
  return runJsonProbe(PROBE(mode, bytes));
}

const mib = (probed) => `${(probed.growth / MiB).toFixed(1)} MiB${probed.ok ? '' : ' (a tool call failed)'}`;

export async function run() {
  const line = 500 * 1000 * 1000;
  const ranged = await probe('ranged', line);
  const whole = await probe('whole', line);
  const flood = 2 * 1024 * MiB;
  const floodTools = await probe('flood-tools', flood);
  const floodExec = await probe('flood-exec', flood);
  return [
    { name: 'task_output on a 500 MB single-line log, without ranged reads (before)', value: mib(whole) },
    {
      name: 'task_output on a 500 MB single-line log, with readFileRange',
      value: mib(ranged),
      goal: '<= +64 MiB (a page of the log, not the log)',
      met: ranged.ok && ranged.growth <= 64 * MiB,
    },
    {
      name: "a background task's 2 GiB flood, read with task_wait and task_output",
      value: mib(floodTools),
      goal: 'within +16 MiB of an exec of the same flood',
      met: floodTools.ok && floodTools.growth <= floodExec.growth + 16 * MiB,
    },
    { name: 'an exec of the same 2 GiB flood', value: mib(floodExec) },
  ];
}
