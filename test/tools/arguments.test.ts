import { describe, expect, it } from 'vitest';
import { parseArguments, toJsonSchema } from '../../src/tools/arguments.js';

const fields = {
  path: { type: 'string', required: true, description: 'file' },
  offset: { type: 'integer', minimum: 1, description: 'line' },
  all: { type: 'boolean', description: 'flag' },
  mode: { type: 'enum', values: ['a', 'b'], description: 'mode' },
  text: { type: 'string', required: true, allowEmpty: true, description: 'content' },
} as const;
const example = { path: 'x.ts', text: '' };

function fail(raw: unknown): string {
  const outcome = parseArguments('demo', fields, example, raw);
  if (outcome.ok) throw new Error('expected a failure');
  return outcome.message;
}

describe('toJsonSchema', () => {
  it('describes each field with types, bounds, enums and required names', () => {
    const schema = toJsonSchema(fields);
    expect(schema).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string', minLength: 1, description: 'file' },
        offset: { type: 'integer', minimum: 1, description: 'line' },
        all: { type: 'boolean', description: 'flag' },
        mode: { type: 'string', enum: ['a', 'b'], description: 'mode' },
        text: { type: 'string', description: 'content' },
      },
      required: ['path', 'text'],
      additionalProperties: false,
    });
  });

  it('omits `required` when nothing is required', () => {
    expect(toJsonSchema({})).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });
});

describe('parseArguments', () => {
  it('accepts valid arguments and treats null optionals as absent', () => {
    const outcome = parseArguments('demo', fields, example, { path: 'a', text: '', offset: 3, mode: null });
    expect(outcome).toEqual({ ok: true, value: { path: 'a', text: '', offset: 3 } });
  });

  it('treats undefined arguments as {} and reports the missing required fields with the example', () => {
    const message = fail(undefined);
    expect(message).toContain('Invalid arguments for demo:');
    expect(message).toContain('- `path` is required (a non-empty string)');
    expect(message).toContain('- `text` is required (a string)');
    expect(message).toContain('Example: {"path":"x.ts","text":""}');
    expect(message).toContain('offset: an integer >= 1');
  });

  it('refuses non-object arguments', () => {
    expect(fail('hello')).toContain('the arguments must be a JSON object, got the string "hello"');
    expect(fail([1])).toContain('got an array');
  });

  it('names each wrong type with the value it got', () => {
    const message = fail({ path: 5, text: 'x', offset: 1.5, all: 'yes', mode: 'c' });
    expect(message).toContain('`path` must be a string, got the number 5');
    expect(message).toContain('`offset` must be an integer >= 1, got the number 1.5');
    expect(message).toContain('`all` must be true or false, got the string "yes"');
    expect(message).toContain('`mode` must be one of "a", "b", got the string "c"');
  });

  it('enforces bounds, emptiness and NUL characters', () => {
    expect(fail({ path: 'a', text: '', offset: 0 })).toContain('`offset` must be an integer >= 1, got 0');
    expect(fail({ path: '', text: '' })).toContain('`path` must not be empty');
    expect(fail({ path: 'a\u0000b', text: '' })).toContain('`path` must not contain a NUL character');
  });

  it('rejects unknown keys and suggests the closest real name', () => {
    expect(fail({ path: 'a', text: '', offst: 2 })).toContain(
      'unknown argument `offst`; did you mean `offset`?',
    );
    expect(fail({ file_path: 'a', text: '' })).toContain(
      'unknown argument `file_path`; did you mean `path`?',
    );
    expect(fail({ path: 'a', text: '', zzzzzz: 1 })).toContain(
      'unknown argument `zzzzzz`; known arguments: path, offset, all, mode, text',
    );
  });
});
