// The MCP layer's cost, each against a baseline measured in the same run, interleaved round by round:
// - createContextStdioTransport over the process context vs the SDK's own StdioClientTransport, both
//   driving the same fixture server (built with the SDK) on this machine: a small echo round trip,
//   and a 4 MiB echo (4 MiB each way through the framer);
// - a tool call through `berth mcp` (SDK client -> bash `true`) vs the same context's exec('true').
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createProcessContext } from '../dist/contexts/process/index.js';
import { createContextStdioTransport } from '../dist/mcp/index.js';
import { createSandboxPolicy, probeSandbox } from '../dist/sandbox/index.js';

export const title = 'mcp: context stdio transport vs the SDK stdio transport; berth mcp tool call vs exec';

const FIXTURE = fileURLToPath(new URL('../test/fixtures/mcp/echo-server.mjs', import.meta.url));
const MAIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const MiB = 1024 * 1024;
const BIG_TEXT = 'x'.repeat(4 * MiB);

const signed = (value) => `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

/**
 * Interleave baseline and candidate round by round (alternating which goes first), in blocks: each block gives a ratio of medians,
 * the reported ratio is the median block's, so a burst of load elsewhere spoils one block only.
 */
async function interleaved(baseline, candidate, { warmup, blocks, rounds }) {
  for (let i = 0; i < warmup; i++) {
    await baseline();
    await candidate();
  }
  const ratios = [];
  const baseAll = [];
  const candAll = [];
  for (let block = 0; block < blocks; block++) {
    const base = [];
    const cand = [];
    for (let i = 0; i < rounds; i++) {
      // Alternate which goes first, so neither always runs right after the other.
      const pair = [
        [baseline, base],
        [candidate, cand],
      ];
      for (const [fn, times] of i % 2 === 0 ? pair : pair.reverse()) {
        const start = process.hrtime.bigint();
        await fn();
        times.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
    }
    ratios.push(median(cand) / median(base));
    baseAll.push(...base);
    candAll.push(...cand);
  }
  return { baseline: median(baseAll), candidate: median(candAll), ratio: median(ratios) };
}

async function connect(transport) {
  const client = new Client({ name: 'berth-bench', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

function echo(client, text) {
  return async () => {
    const result = await client.callTool({ name: 'echo', arguments: { text } });
    if (result.content[0].text.length !== text.length) throw new Error('echo returned a different text');
  };
}

/** `berth mcp ARGS` (SDK client -> bash `true`) against `context.exec(handle, 'true')`. */
async function toolCallVsExec(context, handle, root, args) {
  const server = await connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'mcp', ...args, '--root', root],
      stderr: 'pipe',
    }),
  );
  try {
    return await interleaved(
      async () => {
        const result = await context.exec(handle, 'true');
        if (result.exitCode !== 0) throw new Error('exec failed');
      },
      async () => {
        const result = await server.callTool({ name: 'bash', arguments: { command: 'true' } });
        if (result.isError) throw new Error(result.content[0].text);
      },
      { warmup: 20, blocks: 10, rounds: 20 },
    );
  } finally {
    await server.close();
  }
}

export async function run() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'berth-bench-mcp-')));
  const context = createProcessContext({ workspaceRoot: root });
  const handle = await context.spawn({ cwd: root });
  try {
    // 1. A tool call through `berth mcp` vs the context's own exec. First, while this process is
    // small: a fork's cost grows with the parent's memory, and the 4 MiB echoes below grow it.
    const tool = await toolCallVsExec(context, handle, root, ['--no-sandbox']);
    const sandbox = await probeSandbox();
    let sandboxed;
    if (sandbox.available) {
      const confined = createProcessContext({
        workspaceRoot: root,
        sandbox: createSandboxPolicy({ writableRoots: [root, realpathSync(tmpdir())], network: 'deny' }),
      });
      const confinedHandle = await confined.spawn({ cwd: root });
      try {
        sandboxed = await toolCallVsExec(confined, confinedHandle, root, ['--sandbox']);
      } finally {
        await confined.destroy(confinedHandle);
      }
    }

    // 2. Transports: the same server, started two ways.
    const sdk = await connect(
      new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: 'pipe' }),
    );
    const berth = await connect(
      createContextStdioTransport(context, handle, { command: process.execPath, args: [FIXTURE] }),
    );
    const small = await interleaved(echo(sdk, 'hello'), echo(berth, 'hello'), {
      warmup: 100,
      blocks: 10,
      rounds: 200,
    });
    const big = await interleaved(echo(sdk, BIG_TEXT), echo(berth, BIG_TEXT), {
      warmup: 3,
      blocks: 5,
      rounds: 8,
    });
    await sdk.close();
    await berth.close();

    const ms = (value) => `${value.toFixed(2)} ms`;
    return [
      { name: 'echo round trip: SDK StdioClientTransport median', value: ms(small.baseline) },
      {
        name: 'echo round trip: createContextStdioTransport (process context) median',
        value: ms(small.candidate),
      },
      {
        name: 'echo round trip: context transport / SDK transport',
        value: small.ratio.toFixed(3),
        goal: '<= 1.15',
        met: small.ratio <= 1.15,
      },
      { name: '4 MiB echo: SDK StdioClientTransport median', value: ms(big.baseline) },
      { name: '4 MiB echo: createContextStdioTransport median', value: ms(big.candidate) },
      {
        name: '4 MiB echo: context transport / SDK transport',
        value: big.ratio.toFixed(3),
        goal: '<= 1.25',
        met: big.ratio <= 1.25,
      },
      { name: "context.exec('true') median (unsandboxed)", value: ms(tool.baseline) },
      { name: "berth mcp: SDK client -> bash tool 'true' median (unsandboxed)", value: ms(tool.candidate) },
      {
        name: 'berth mcp tool call overhead over exec (unsandboxed)',
        value: `${signed(tool.candidate - tool.baseline)} ms (x${tool.ratio.toFixed(2)})`,
      },
      sandboxed
        ? {
            name: 'the same in the sandbox: exec / berth mcp --sandbox bash tool medians',
            value: `${ms(sandboxed.baseline)} / ${ms(sandboxed.candidate)}: ${signed(sandboxed.candidate - sandboxed.baseline)} ms (x${sandboxed.ratio.toFixed(2)})`,
          }
        : {
            name: 'the same in the sandbox',
            value: `not measured: ${sandbox.reason ?? 'the sandbox does not work here'}`,
          },
    ];
  } finally {
    await context.destroy(handle);
    await context.close?.();
    rmSync(root, { recursive: true, force: true });
  }
}
