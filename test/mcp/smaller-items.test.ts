import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMarker } from '../support/process-markers.js';
import { type BerthMcp, startBerthMcp, type ToolCall, textOf } from './support/berth-mcp-client.js';

describe('the smaller rough edges of the tools (berth mcp, SDK client)', () => {
  let mcp: BerthMcp;
  beforeAll(async () => {
    mcp = await startBerthMcp();
  });
  afterAll(() => mcp?.close());

  it('arguments that are not an object are an isError result, not a JSON-RPC error', async () => {
    for (const args of [null, 'ls', ['ls'], 42]) {
      const result = (await mcp.client.request(
        { method: 'tools/call', params: { name: 'bash', arguments: args as never } },
        CallToolResultSchema,
      )) as ToolCall;
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(result)).toMatch(/bash/);
    }
    const ok = (await mcp.client.request(
      { method: 'tools/call', params: { name: 'task_list', arguments: null as never } },
      CallToolResultSchema,
    )) as ToolCall;
    expect(ok.isError, textOf(ok)).toBeFalsy();
  });

  it('a tool without arguments says so instead of an empty list', async () => {
    const result = await mcp.call('task_list', { all: true });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('this tool takes no arguments: call it with {}');
    expect(textOf(result)).not.toMatch(/known arguments: \n/);
  });

  it('examples show task ids as they look, and a finished task reads well', async () => {
    const bad = await mcp.call('task_output', { task: 'x' });
    expect(textOf(bad)).toMatch(/"task_id":"bg-[0-9a-f]+"/);
    const { tools } = await mcp.client.listTools();
    expect(JSON.stringify(tools)).not.toContain('task-1');
    const marker = newMarker();
    const started = textOf(
      await mcp.call('bash', { command: `sleep 30 # ${marker}`, run_in_background: true }),
    );
    const id = /task (bg-\S+) /.exec(started)?.[1];
    await mcp.call('task_kill', { task_id: id });
    const again = textOf(await mcp.call('task_kill', { task_id: id }));
    expect(again).toMatch(/has already ended \(killed after [\d.]+ m?s/);
  });

  it('messages name the tools and arguments, not library methods', async () => {
    const workdir = await mcp.call('bash', { command: 'pwd', workdir: 'no-such-dir' });
    expect(workdir.isError).toBe(true);
    expect(textOf(workdir)).toMatch(/^workdir "no-such-dir" \(.*no-such-dir\) does not exist/);
    expect(textOf(workdir)).not.toMatch(/\bcwd\b/);
    const dir = await mcp.call('write_file', { path: '.', content: 'x' });
    expect(dir.isError).toBe(true);
    expect(textOf(dir)).toMatch(/is a directory, not a file/);
    expect(textOf(dir)).not.toMatch(/listFiles|writeFile/);
  });

  it('glob names a missing directory instead of answering that nothing matches', async () => {
    const result = await mcp.call('glob', { pattern: '*.txt', path: 'missing-dir' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^No such directory: .*missing-dir\./);
    expect(textOf(await mcp.call('glob', { pattern: '*.nothing' }))).toMatch(/^No files match/);
  });

  it('Latin-1 text is decoded and says so', async () => {
    writeFileSync(join(mcp.root, 'latin1.txt'), Buffer.from('caf\xe9 cr\xe8me\n', 'latin1'));
    const result = await mcp.call('read_file', { path: 'latin1.txt' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result)).toContain('café crème');
    expect(textOf(result)).toMatch(/is not UTF-8: it was decoded as Latin-1/);
    writeFileSync(join(mcp.root, 'binary.bin'), Buffer.from([0x89, 0x00, 0x01, 0xff, 0x02]));
    expect((await mcp.call('read_file', { path: 'binary.bin' })).isError).toBe(true);
  });

  it('colour codes are stripped and \\r redraws collapse to the final state', async () => {
    for (const extra of [{ timeout_ms: 10_000 }, {}]) {
      const result = textOf(
        await mcp.call('bash', {
          command: String.raw`printf '\033[31mred\033[0m plain\n  1%%\r 50%%\r100%%\ndone\n'`,
          ...extra,
        }),
      );
      expect(result).toMatch(/^red plain\n100%\ndone\n\[Terminal escape sequences/);
      expect(result).not.toContain('\x1b');
    }
  });

  it('the bash description says how stdout and stderr are ordered', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.find((t) => t.name === 'bash')?.description).toMatch(/stdout and stderr come interleaved/);
    const both = textOf(await mcp.call('bash', { command: 'echo one; echo two >&2; echo three' }));
    expect(both).toMatch(/^one\ntwo\nthree\n/);
  });

  it("ripgrep's advice about flags the tool cannot take is not shown", async () => {
    const result = await mcp.call('grep', { pattern: '(a)\\1', output_mode: 'content' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).not.toMatch(/--pcre2|--multiline|-U\b/);
  });
});
