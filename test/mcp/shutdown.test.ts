// `berth mcp` told to stop by the SDK client's own close sequence (stdin closed, 2 s, SIGTERM,
// 2 s, SIGKILL) must end all its work in parallel and exit on its own before the SIGTERM, leaving
// no process, no private directory and no log, even with a background task that ignores TERM and
// a daemon holding its pipe.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { newMarker, pidsWithMarker, waitForMarker, waitForNoMarker } from '../support/process-markers.js';

// `berth mcp` as a separate process, from the BUILT package (`npm test` builds before vitest).
const MAIN = new URL('../../dist/cli/main.js', import.meta.url).pathname;
const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'berth-mcp-shutdown-')));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type ToolCall = { content: { type: string; text: string }[]; isError?: boolean };

describe('berth mcp shutdown under the SDK client', () => {
  it.each([['--no-sandbox'], ['--sandbox']])(
    '%s: exits on its own within the client’s 2 s, leaving nothing',
    async (sandboxFlag) => {
      const root = mkdtempSync(join(scratch, 'root-'));
      // The server's private directory is created under TMPDIR: a fresh one shows what is left.
      const serverTmp = mkdtempSync(join(scratch, 'tmp-'));
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [MAIN, 'mcp', sandboxFlag, '--root', root],
        env: { ...process.env, TMPDIR: serverTmp } as Record<string, string>,
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      const client = new Client({ name: 'berth-shutdown', version: '1.0.0' });
      await client.connect(transport);
      // The SDK keeps the child private; its exit facts are what tell a clean exit from its SIGTERM.
      const server = (transport as unknown as { _process: ChildProcess })._process;
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        server.once('exit', (code, signal) => resolve({ code, signal })),
      );
      const marker = newMarker();
      const stubborn = (await client.callTool({
        name: 'bash',
        arguments: {
          command: `trap '' TERM; echo ready; sleep 1000 # ${marker}-stubborn`,
          run_in_background: true,
        },
      })) as ToolCall;
      expect(stubborn.isError, JSON.stringify(stubborn)).toBeFalsy();
      const holder = (await client.callTool({
        name: 'bash',
        arguments: {
          command: `(setsid sh -c 'sleep 1000 # ${marker}-daemon' &); sleep 1000 # ${marker}-holder`,
          run_in_background: true,
        },
      })) as ToolCall;
      expect(holder.isError, JSON.stringify(holder)).toBeFalsy();
      const started = Date.now();
      while (pidsWithMarker(`${marker}-daemon`).length === 0 && Date.now() - started < 10_000) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect((await waitForMarker(`${marker}-stubborn`)).length).toBeGreaterThan(0);
      expect((await waitForMarker(`${marker}-daemon`)).length).toBeGreaterThan(0);
      // berth's private files live in the per-user base under TMPDIR (berth-<uid>), one directory per context.
      const base = join(serverTmp, `berth-${process.getuid?.()}`);
      const contextDirs = () =>
        existsSync(base) ? readdirSync(base).filter((name) => name.startsWith('berth-process-')) : [];
      expect(contextDirs()).not.toEqual([]);

      await client.close();
      // Exit code 0: it exited by itself after stdin closed. The SDK's SIGTERM would have made it
      // 143, its SIGKILL a signal death.
      expect(await exited, stderr).toEqual({ code: 0, signal: null });
      expect(await waitForNoMarker(marker, 1000)).toEqual([]);
      expect(contextDirs()).toEqual([]);
      expect(readdirSync(serverTmp).filter((name) => name !== `berth-${process.getuid?.()}`)).toEqual([]);
      rmSync(root, { recursive: true, force: true });
      expect(existsSync(serverTmp)).toBe(true);
    },
  );
});
