/**
 * Every tool answers every bad argument with an error result a model can act on, and no input at
 * all makes `execute` throw.
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors/index.js';
import { createTools, TOOL_NAMES } from '../../src/tools/index.js';
import { openWorkspace, text, type Workspace } from './process-fixture.js';

let w: Workspace;
beforeAll(async () => {
  w = await openWorkspace();
});
afterAll(async () => {
  await w.dispose();
});

describe('tool definitions', () => {
  it('createTools returns every tool once, each with a description and an object schema', () => {
    expect([...w.tools.keys()]).toEqual([...TOOL_NAMES]);
    for (const tool of w.tools.values()) {
      expect(tool.description.length).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.inputSchema.additionalProperties).toBe(false);
      for (const [name, property] of Object.entries(tool.inputSchema.properties)) {
        expect(typeof property.description, `${tool.name}.${name}`).toBe('string');
      }
      expect(JSON.parse(JSON.stringify(tool.inputSchema))).toEqual(tool.inputSchema);
    }
  });

  it('createTools refuses a bad option with InvalidArgumentError naming it', () => {
    expect(() => createTools({ context: w.context, handle: w.handle, outputBudgetChars: 0 })).toThrow(
      InvalidArgumentError,
    );
    expect(() => createTools({ context: w.context, handle: w.handle, files: { maxFileBytes: 1.5 } })).toThrow(
      'files.maxFileBytes: must be a positive integer, got 1.5',
    );
  });
});

const cases: [tool: string, args: unknown, fragments: string[]][] = [
  ['bash', {}, ['`command` is required (a non-empty string)', 'Example: {"command":"npm test"']],
  ['bash', { command: 42 }, ['`command` must be a string, got the number 42']],
  ['bash', { command: '' }, ['`command` must not be empty']],
  ['bash', { command: 'ls', timeout_ms: -5 }, ['`timeout_ms` must be an integer from 1 to 600000, got -5']],
  [
    'bash',
    { command: 'ls', timeout_ms: '100' },
    ['`timeout_ms` must be an integer from 1 to 600000, got the string "100"'],
  ],
  ['bash', { command: 'ls', timeout: 100 }, ['unknown argument `timeout`; did you mean `timeout_ms`?']],
  ['bash', { command: 'ls', run_in_background: 'yes' }, ['`run_in_background` must be true or false']],
  ['bash', { command: 'ls', yield_ms: 10_000_000 }, ['`yield_ms` must be an integer from 0 to 600000']],
  [
    'bash',
    { command: 'ls', run_in_background: true, yield_ms: 100 },
    ['Give either run_in_background', 'not both'],
  ],
  [
    'bash',
    { command: 'ls', yield_ms: 100, timeout_ms: 100 },
    ['timeout_ms applies to foreground commands only'],
  ],
  ['bash', 'ls -la', ['the arguments must be a JSON object, got the string "ls -la"']],
  ['task_output', {}, ['`task_id` is required']],
  ['task_output', { task_id: 'x', offset: -1 }, ['`offset` must be an integer >= 0, got -1']],
  [
    'task_output',
    { task_id: 'x', yield_time_ms: 30_001 },
    ['`yield_time_ms` must be an integer from 0 to 30000, got 30001'],
  ],
  ['task_write', { task_id: 'x', text: 'y\n' }, ['unknown argument `text`']],
  ['task_write', { task_id: 'x', close: 'yes' }, ['`close` must be']],
  ['task_write', { task_id: 'x' }, ["Give the input to send, close: true to end the task's input, or both"]],
  [
    'bash',
    { command: 'cat', open_stdin: true, timeout_ms: 100 },
    ['open_stdin runs the command as a background task'],
  ],
  ['task_wait', { task_id: 'x', timeout_ms: 0 }, ['`timeout_ms` must be an integer from 1 to 600000, got 0']],
  ['task_kill', { id: 'x' }, ['unknown argument `id`', '`task_id` is required']],
  ['task_list', { all: true }, ['unknown argument `all`; this tool takes no arguments: call it with {}']],
  ['read_file', {}, ['`path` is required']],
  ['read_file', { file_path: 'a' }, ['unknown argument `file_path`; did you mean `path`?']],
  ['read_file', { path: 'a', offset: 0 }, ['`offset` must be an integer >= 1, got 0']],
  [
    'read_file',
    { path: 'a', limit: 2.5 },
    ['`limit` must be an integer from 1 to 100000, got the number 2.5'],
  ],
  ['read_file', { path: ['a'] }, ['`path` must be a string, got an array']],
  ['read_file', { path: 'a\u0000b' }, ['`path` must not contain a NUL character']],
  ['write_file', { path: 'a' }, ['`content` is required (a string)']],
  ['write_file', { path: 'a', content: { text: 'x' } }, ['`content` must be a string, got an object']],
  ['edit_file', { path: 'a', old_string: 'x' }, ['`new_string` is required']],
  [
    'edit_file',
    { path: 'a', old_string: 'x', new_string: 'y', replace_all: 1 },
    ['`replace_all` must be true or false, got the number 1'],
  ],
  ['glob', { pattern: '' }, ['`pattern` must not be empty']],
  [
    'grep',
    { pattern: 'x', output_mode: 'lines' },
    ['`output_mode` must be one of "files_with_matches", "content", "count", got the string "lines"'],
  ],
  ['grep', { pattern: 'x', context_lines: 99 }, ['`context_lines` must be an integer from 0 to 50, got 99']],
  ['grep', { pattern: 'x', head_limit: 0 }, ['`head_limit` must be an integer from 1 to 10000, got 0']],
  // The page size was called max_results before; the refusal lists the argument's name now.
  ['grep', { pattern: 'x', max_results: 5 }, ['unknown argument `max_results`', 'head_limit']],
  ['grep', { regex: 'x' }, ['unknown argument `regex`', '`pattern` is required']],
  ['grep', { pattern: 'a\nb' }, ['pattern contains a line break']],
  ['list_dir', { path: 7 }, ['`path` must be a string, got the number 7']],
  ['apply_patch', {}, ['`patch` is required']],
  ['apply_patch', { diff: 'x' }, ['unknown argument `diff`', '`patch` is required']],
  ['apply_patch', { patch: 'not a patch' }, ['patch line 1: the patch must start with "*** Begin Patch"']],
  [
    'multi_edit',
    { path: 'a', edits: [] },
    ['`edits` must be a list of 1 to 100 objects {old_string, new_string, replace_all}, got 0 items'],
  ],
  [
    'multi_edit',
    { path: 'a', edits: 'x' },
    ['`edits` must be a list of 1 to 100 objects', 'got the string "x"'],
  ],
  [
    'multi_edit',
    { path: 'a', edits: [{ old: 'x', new_string: 'y' }, 7] },
    [
      '`edits[0]`: unknown argument `old`',
      '`edits[0].old_string` is required',
      '`edits[1]` must be an object, got the number 7',
    ],
  ],
];

describe('bad arguments', () => {
  for (const [tool, args, fragments] of cases) {
    it(`${tool} ${JSON.stringify(args)}`, async () => {
      const result = await w.call(tool, args);
      expect(result.isError).toBe(true);
      for (const fragment of fragments) expect(text(result)).toContain(fragment);
    });
  }

  it('every tool has a bad-argument case above', () => {
    expect(new Set(cases.map(([tool]) => tool))).toEqual(new Set(TOOL_NAMES));
  });
});

describe('no input makes execute throw', () => {
  const values: unknown[] = [
    undefined,
    null,
    0,
    -1,
    1e308,
    Number.NaN,
    '',
    'x',
    '../../../../etc/passwd',
    '\u0000',
    true,
    [],
    {},
    { toString: 1 },
    '*'.repeat(2000),
    '['.repeat(50),
    '/',
  ];
  it('random argument objects across all tools resolve to a result; writes outside the root are refused', async () => {
    // Contained: a fuzzed write_file/edit_file path like ../../etc/passwd must be refused, not obeyed.
    const jailed = await openWorkspace({ contained: true });
    const outside = join(jailed.dir, '..', `${basename(jailed.dir)}-outside.txt`);
    writeFileSync(outside, 'untouched\n');
    const before = fingerprint('/etc/passwd');
    try {
      await fuzz(jailed, `../${basename(outside)}`);
      expect(fingerprint('/etc/passwd')).toEqual(before);
      expect(readFileSync(outside, 'utf8')).toBe('untouched\n');
    } finally {
      rmSync(outside, { force: true });
      await jailed.dispose();
    }
  });

  function fingerprint(path: string): { sha256: string; mtimeMs: number } {
    return {
      sha256: createHash('sha256').update(readFileSync(path)).digest('hex'),
      mtimeMs: statSync(path).mtimeMs,
    };
  }

  async function fuzz(w: Workspace, outsideSibling: string): Promise<void> {
    const escapes = new Set(['../../../../etc/passwd', outsideSibling]);
    const pool = [...values, outsideSibling];
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let refusals = 0;
    for (const tool of w.tools.values()) {
      const names = [...Object.keys(tool.inputSchema.properties), 'bogus'];
      for (let i = 0; i < 25; i++) {
        const args: Record<string, unknown> = {};
        for (const name of names) if (random() < 0.6) args[name] = pool[Math.floor(random() * pool.length)];
        // Keep the fuzz from starting real long-running work.
        if (tool.name === 'bash') args.command = typeof args.command === 'string' ? 'true' : args.command;
        if ('timeout_ms' in args && typeof args.timeout_ms === 'number') args.timeout_ms = 1000;
        if ('yield_ms' in args && typeof args.yield_ms === 'number') args.yield_ms = 0;
        const result = await tool.execute(args);
        expect(Array.isArray(result.content), `${tool.name} ${JSON.stringify(args)}`).toBe(true);
        expect(result.content.length).toBeGreaterThan(0);
        if ((tool.name === 'write_file' || tool.name === 'edit_file') && escapes.has(args.path as string)) {
          expect(result.isError, `${tool.name} ${JSON.stringify(args)} must be refused`).toBe(true);
          refusals += 1;
        }
      }
      for (const raw of values) await expect(tool.execute(raw)).resolves.toHaveProperty('content');
    }
    // The fuzz must actually have tried escaping writes, or the checks above prove nothing.
    expect(refusals).toBeGreaterThan(0);
    for (const name of ['write_file', 'edit_file']) {
      const tool = w.tools.get(name);
      for (const path of escapes) {
        const args =
          name === 'write_file'
            ? { path, content: 'x' }
            : { path, old_string: 'untouched', new_string: 'owned' };
        const result = await tool?.execute(args);
        expect(result?.isError, `${name} ${path}`).toBe(true);
        expect(text(result as never)).toMatch(/outside the workspace root/);
      }
    }
  }
});
