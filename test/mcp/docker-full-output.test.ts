/**
 * `berth mcp --context docker`, driven by the SDK client: every cut `bash` result names a file
 * inside the container that `read_file` and `grep` open, also for output over the Docker context's
 * capture (1 MiB per stream), which the context spills on the host.
 */
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { wellKnownPrivateBase } from '../../src/subprocess/private-dir.js';
import { describeDocker, TEST_IMAGE } from '../contexts/docker/docker-engine.js';
import { type BerthMcp, startBerthMcp, textOf } from './support/berth-mcp-client.js';

const outputDirs = () => readdirSync(tmpdir()).filter((name) => name.startsWith('berth-output-'));

/** `seq 1 300000 | wc -c`: 1.9 MB, over the context's 1 MiB capture. */
const SEQ_BYTES = 1_988_895;
const SEQ_LINES = 300_000;

describeDocker('every cut result names a file read_file and grep open (berth mcp --context docker)', () => {
  let mcp: BerthMcp;
  let dirsBefore: string[];
  beforeAll(async () => {
    dirsBefore = outputDirs();
    mcp = await startBerthMcp(['--context', 'docker', '--image', TEST_IMAGE]);
  }, 60_000);
  afterAll(() => mcp?.close());

  const fullPath = (text: string) =>
    /(?:Full \w+ \([^)]+\)(?: saved to)?:? )(\/\S+?);? read it/.exec(text)?.[1];
  const markerOf = (text: string) => text.split('\n').find((line) => line.startsWith('[… ')) ?? '';
  /** The shown text before and after the marker (the tail without the status line). */
  const shownEnds = (text: string, name: 'stdout' | 'stderr') => {
    const body = name === 'stderr' ? text.slice(text.indexOf('[stderr]\n') + '[stderr]\n'.length) : text;
    const at = body.indexOf('[… ');
    return {
      head: body.slice(0, at),
      tail: `${body.slice(body.indexOf('\n', at) + 1, body.lastIndexOf('\n[Exit'))}\n`,
    };
  };

  for (const name of ['stdout', 'stderr'] as const) {
    it(`${name} over the capture (foreground): the marker names the whole ${name} in the container, counts exact`, async () => {
      const command = name === 'stdout' ? 'seq 1 300000' : 'seq 1 300000 >&2';
      const result = await mcp.call('bash', { command, timeout_ms: 60_000 });
      const text = textOf(result);
      expect(result.isError, text).toBeFalsy();
      const marker = markerOf(text);
      expect(marker, text.slice(0, 2000)).not.toMatch(/out of reach|outside what|rerun/);
      const path = fullPath(marker);
      // Inside the container (berth's state directory there), not the host spill.
      expect(path, marker).toMatch(/^\/tmp\/\.berth\/\S+\.out$/);
      // Exact bytes and lines: the whole stream minus what is shown.
      const { head, tail } = shownEnds(text, name);
      const match = new RegExp(`\\(([\\d,]+) bytes, ([\\d,]+) lines\\) of ${name} omitted here`).exec(marker);
      expect(match, marker).not.toBeNull();
      const count = (value: string | undefined) => Number(value?.replaceAll(',', ''));
      expect(count(match?.[1])).toBe(SEQ_BYTES - Buffer.byteLength(head) - Buffer.byteLength(tail));
      expect(count(match?.[2])).toBe(
        SEQ_LINES - (head.split('\n').length - 1) - (tail.split('\n').length - 1),
      );
      expect(marker).toContain(`Full ${name} (1.9 MiB)`);

      const middle = await mcp.call('read_file', { path, offset: 150_000, limit: 2 });
      expect(middle.isError, textOf(middle)).toBeFalsy();
      expect(textOf(middle)).toMatch(/^150000\t150000\n150001\t150001/);
      const last = await mcp.call('read_file', { path, offset: 299_999, limit: 5 });
      expect(textOf(last)).toMatch(
        /^299999\t299999\n300000\t300000\n\n\[Showing lines 299,?999–300,?000 of 300,000/,
      );
      const grep = await mcp.call('grep', { pattern: '^123456$', path, output_mode: 'content' });
      expect(textOf(grep)).toBe(`1 matching line in 1 file:\n${path}:123456:123456`);
    }, 120_000);
  }

  it('the default path (through the task log) names the log in the container', async () => {
    const text = textOf(await mcp.call('bash', { command: 'seq 1 300000' }));
    const path = /Full output \([^)]+\): (\/\S+)/.exec(text)?.[1];
    expect(path, text.slice(0, 2000)).toBeDefined();
    const grep = await mcp.call('grep', { pattern: '^234567$', path, output_mode: 'count' });
    expect(textOf(grep)).toBe(`1 matching line in 1 file:\n${path}:1`);
  }, 120_000);

  it('output under the capture is saved in the container and read back', async () => {
    const text = textOf(await mcp.call('bash', { command: 'seq 1 9000', timeout_ms: 30_000 }));
    const path = fullPath(text);
    expect(path, text).toBeDefined();
    expect(textOf(await mcp.call('read_file', { path, offset: 9000, limit: 1 }))).toMatch(
      /^ {2}9000\t9000\n/,
    );
  }, 60_000);

  it('leaves no berth-output directories in the host temp directory, nor a spill directory', async () => {
    const pid = (mcp.client.transport as StdioClientTransport).pid;
    expect(pid).toEqual(expect.any(Number));
    // The context's host spill directory is made on the first spill, named after its process.
    const spillDirs = () =>
      readdirSync(wellKnownPrivateBase()).filter((name) => name.startsWith(`berth-docker-${pid}.`));
    expect(spillDirs()).toHaveLength(1);
    await mcp.close();
    expect(outputDirs().filter((name) => !dirsBefore.includes(name))).toEqual([]);
    // The server removes it as it shuts down, which may end just after the client let go.
    const deadline = Date.now() + 15_000;
    while (spillDirs().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(spillDirs()).toEqual([]);
  });
});
