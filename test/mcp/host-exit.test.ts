import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { newMarker, pidsWithMarker, waitForNoMarker } from '../support/process-markers.js';

// The host fixture runs the BUILT package (dist/); `npm test` builds before vitest.
const HOST = new URL('../fixtures/mcp/host-exits.mjs', import.meta.url).pathname;
const DIST = new URL('../../dist/mcp/index.js', import.meta.url).pathname;

/** Run the host until it exits; resolves with what it printed and how it ended. */
function runHost(mode: string, marker: string): Promise<{ stdout: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const host = spawn(process.execPath, [HOST, mode, marker, '--ignore-eof'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    host.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    host.stderr.resume();
    host.on('error', reject);
    host.on('close', (code) => resolve({ stdout, code }));
  });
}

describe('an MCP server in the process context when its host exits without closing', () => {
  it('the package is built (dist/mcp/index.js exists)', () => {
    expect(existsSync(DIST), 'run `npm run build` first (npm test does)').toBe(true);
  });

  // The server ignores stdin EOF, so only berth's tree-kill on host exit can end it and its child.
  it.each(['exit', 'throw'])('host ends by %s: no process of the server tree remains', async (mode) => {
    const marker = newMarker();
    const { stdout, code } = await runHost(mode, marker);
    expect(stdout).toMatch(/^ready \d+\n$/);
    expect(code).toBe(mode === 'exit' ? 0 : 1);
    const left = await waitForNoMarker(marker, 3000);
    for (const pid of left) process.kill(pid, 'SIGKILL'); // never leak from a failing test
    expect(left).toEqual([]);
    expect(pidsWithMarker(`${marker}-child`)).toEqual([]);
  });
});
