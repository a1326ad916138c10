/**
 * berth/ai: the AI SDK accepts berth's tools and drives real tool calls through them. The language
 * model is the SDK's own MockLanguageModelV3 (no network); the tools run against a real process
 * context.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAiTools, toAiTool, toModelOutput } from '../../src/ai/index.js';
import { TOOL_NAMES } from '../../src/tools/index.js';
import { openWorkspace, type Workspace } from '../tools/process-fixture.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

function toolCall(id: string, toolName: string, input: unknown): GenerateResult {
  return {
    content: [{ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    usage,
    warnings: [],
  };
}

function finalText(text: string): GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage,
    warnings: [],
  };
}

let w: Workspace;
beforeAll(async () => {
  w = await openWorkspace();
});
afterAll(async () => {
  await w.dispose();
});

describe('createAiTools', () => {
  it('offers every berth tool with its JSON Schema', async () => {
    const tools = createAiTools({ context: w.context, handle: w.handle });
    expect(Object.keys(tools)).toEqual([...TOOL_NAMES]);
    const model = new MockLanguageModelV3({ doGenerate: finalText('nothing to do') });
    await generateText({ model, tools, prompt: 'hi' });
    const offered = model.doGenerateCalls[0]!.tools!;
    expect(offered.map((t) => t.name)).toEqual([...TOOL_NAMES]);
    const bash = offered.find((t) => t.name === 'bash')!;
    expect(bash.type).toBe('function');
    if (bash.type === 'function') {
      expect(bash.inputSchema).toEqual(w.tools.get('bash')!.inputSchema);
      expect(bash.description).toBe(w.tools.get('bash')!.description);
    }
  });

  it('a model drives write_file, bash and edit_file through the SDK, and sees their results', async () => {
    const tools = createAiTools({ context: w.context, handle: w.handle });
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCall('c1', 'write_file', { path: 'hello.txt', content: 'hello world\n' }),
        toolCall('c2', 'edit_file', { path: 'hello.txt', old_string: 'world', new_string: 'berth' }),
        toolCall('c3', 'bash', { command: 'cat hello.txt; exit 4' }),
        finalText('done'),
      ],
    });
    const result = await generateText({ model, tools, prompt: 'write a file', stopWhen: stepCountIs(10) });
    expect(result.text).toBe('done');
    expect(readFileSync(`${w.dir}/hello.txt`, 'utf8')).toBe('hello berth\n');
    expect(result.steps).toHaveLength(4);
    // What the model was sent back after the bash call, as the SDK built it with toModelOutput.
    const lastPrompt = JSON.stringify(model.doGenerateCalls[3]!.prompt);
    expect(lastPrompt).toContain(`Created ${w.dir}/hello.txt`);
    expect(lastPrompt).toMatch(/hello berth\\n\[Exit code 4 · /);
  });

  it('a bad call reaches the model as an error it can act on, not an SDK exception', async () => {
    const tools = createAiTools({ context: w.context, handle: w.handle });
    const model = new MockLanguageModelV3({
      doGenerate: [toolCall('c1', 'read_file', { file_path: 'x', offset: 'ten' }), finalText('fixed')],
    });
    const result = await generateText({ model, tools, prompt: 'read', stopWhen: stepCountIs(5) });
    expect(result.text).toBe('fixed');
    const followUp = JSON.stringify(model.doGenerateCalls[1]!.prompt);
    expect(followUp).toContain('error-text');
    expect(followUp).toContain('unknown argument `file_path`; did you mean `path`?');
    expect(followUp).toContain('`offset` must be an integer >= 1');
  });

  it('an image result becomes image-data content for the model', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    writeFileSync(`${w.dir}/pic.png`, png);
    const tool = toAiTool(w.tools.get('read_file')!);
    const output = await tool.execute!({ path: 'pic.png' }, { toolCallId: 'c', messages: [] });
    expect(toModelOutput(output as Parameters<typeof toModelOutput>[0])).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: `Image ${w.dir}/pic.png (image/png, 16 B):` },
        { type: 'image-data', data: png.toString('base64'), mediaType: 'image/png' },
      ],
    });
  });

  it("passes the SDK's abort signal to the tool, which kills the command", async () => {
    const tool = toAiTool(w.tools.get('bash')!);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const output = await tool.execute!(
      { command: 'sleep 20' },
      { toolCallId: 'c', messages: [], abortSignal: controller.signal },
    );
    expect(toModelOutput(output as Parameters<typeof toModelOutput>[0])).toMatchObject({
      type: 'error-text',
      value: expect.stringContaining('[Cancelled: the command was killed after'),
    });
  });
});
