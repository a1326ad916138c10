/**
 * Declarative argument specs: one description yields the JSON Schema a model sees and the
 * validation that turns a bad call into a message the model can act on (what was wrong, what is
 * expected, an example).
 * @module
 */
import { closestName } from '../contract/validate-options.js';
import type { ToolInputSchema } from './types.js';

interface FieldBase {
  readonly description: string;
  readonly required?: boolean;
}
export interface StringField extends FieldBase {
  readonly type: 'string';
  /** Refuse the empty string (default true for required fields). */
  readonly allowEmpty?: boolean;
}
export interface IntegerField extends FieldBase {
  readonly type: 'integer';
  readonly minimum?: number;
  readonly maximum?: number;
}
export interface BooleanField extends FieldBase {
  readonly type: 'boolean';
}
export interface EnumField extends FieldBase {
  readonly type: 'enum';
  readonly values: readonly string[];
}
/** A list of small objects, each validated against `items` (no nesting beyond one level). */
export interface ObjectsField extends FieldBase {
  readonly type: 'objects';
  readonly items: Readonly<Record<string, ScalarField>>;
  readonly minItems: number;
  readonly maxItems: number;
}
export type ScalarField = StringField | IntegerField | BooleanField | EnumField;
export type FieldSpec = ScalarField | ObjectsField;
export type FieldSpecs = Readonly<Record<string, FieldSpec>>;

type FieldValue<S> = S extends { type: 'string' }
  ? string
  : S extends { type: 'integer' }
    ? number
    : S extends { type: 'boolean' }
      ? boolean
      : S extends { type: 'enum'; values: readonly (infer V)[] }
        ? V
        : S extends { type: 'objects'; items: infer I extends FieldSpecs }
          ? ParsedArguments<I>[]
          : never;

/** The parsed arguments: required fields present, optional ones possibly `undefined`. */
export type ParsedArguments<F extends FieldSpecs> = {
  [K in keyof F as F[K] extends { required: true } ? K : never]: FieldValue<F[K]>;
} & {
  [K in keyof F as F[K] extends { required: true } ? never : K]?: FieldValue<F[K]> | undefined;
};

export type ParseOutcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly message: string };

/** The JSON Schema for a set of fields. */
export function toJsonSchema(fields: FieldSpecs): ToolInputSchema {
  const properties: Record<string, Record<string, unknown>> = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    const property: Record<string, unknown> = {};
    switch (field.type) {
      case 'objects':
        property.type = 'array';
        property.minItems = field.minItems;
        property.maxItems = field.maxItems;
        property.items = toJsonSchema(field.items);
        break;
      case 'string':
        property.type = 'string';
        if (field.allowEmpty !== true && field.required === true) property.minLength = 1;
        break;
      case 'integer':
        property.type = 'integer';
        if (field.minimum !== undefined) property.minimum = field.minimum;
        if (field.maximum !== undefined) property.maximum = field.maximum;
        break;
      case 'boolean':
        property.type = 'boolean';
        break;
      case 'enum':
        property.type = 'string';
        property.enum = [...field.values];
        break;
    }
    property.description = field.description;
    properties[name] = property;
    if (field.required === true) required.push(name);
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/**
 * Validate `raw` against `fields`. `undefined`/`null` arguments count as `{}`; a `null` optional
 * field counts as absent (some clients send `null` for every omitted optional). Unknown keys are
 * errors, with a suggestion when one is close to a real name.
 */
export function parseArguments<F extends FieldSpecs>(
  toolName: string,
  fields: F,
  example: Readonly<Record<string, unknown>>,
  raw: unknown,
): ParseOutcome<ParsedArguments<F>> {
  const problems: string[] = [];
  const value: Record<string, unknown> = {};
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push(`the arguments must be a JSON object, got ${describe(raw)}`);
  } else {
    const given = raw as Record<string, unknown>;
    for (const key of Object.keys(given)) {
      if (!Object.hasOwn(fields, key)) problems.push(unknownKey(key, Object.keys(fields)));
    }
    for (const [name, field] of Object.entries(fields)) {
      const v = given[name];
      if (v === undefined || v === null) {
        if (field.required === true) problems.push(`\`${name}\` is required (${expectation(field)})`);
        continue;
      }
      if (field.type === 'objects') {
        const before = problems.length;
        const items = checkObjects(name, field, v, problems);
        if (problems.length === before) value[name] = items;
        continue;
      }
      const problem = checkField(field, v);
      if (problem === undefined) value[name] = v;
      else problems.push(`\`${name}\` ${problem}`);
    }
  }
  if (problems.length === 0) return { ok: true, value: value as ParsedArguments<F> };
  return { ok: false, message: invalidMessage(toolName, fields, example, problems) };
}

/** The error text for arguments that parsed but break a rule only the tool knows. */
export function invalidMessage(
  toolName: string,
  fields: FieldSpecs,
  example: Readonly<Record<string, unknown>>,
  problems: readonly string[],
): string {
  const expected = Object.entries(fields)
    .map(([name, field]) => `  ${name}${field.required === true ? ' (required)' : ''}: ${expectation(field)}`)
    .join('\n');
  return [
    `Invalid arguments for ${toolName}:`,
    ...problems.map((p) => `- ${p}`),
    'Expected arguments:',
    expected,
    `Example: ${JSON.stringify(example)}`,
  ].join('\n');
}

/** Each element of a list of objects, with its problems named by index (`edits[2].old_string`). */
function checkObjects(name: string, field: ObjectsField, v: unknown, problems: string[]): unknown[] {
  if (!Array.isArray(v)) {
    problems.push(`\`${name}\` must be ${expectation(field)}, got ${describe(v)}`);
    return [];
  }
  if (v.length < field.minItems || v.length > field.maxItems) {
    problems.push(
      `\`${name}\` must be ${expectation(field)}, got ${v.length} item${v.length === 1 ? '' : 's'}`,
    );
    return [];
  }
  const out: unknown[] = [];
  for (const [index, item] of v.entries()) {
    const at = `${name}[${index}]`;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      problems.push(`\`${at}\` must be an object, got ${describe(item)}`);
      continue;
    }
    const given = item as Record<string, unknown>;
    for (const key of Object.keys(given))
      if (!Object.hasOwn(field.items, key))
        problems.push(`\`${at}\`: ${unknownKey(key, Object.keys(field.items))}`);
    const parsed: Record<string, unknown> = {};
    for (const [key, spec] of Object.entries(field.items)) {
      const value = given[key];
      if (value === undefined || value === null) {
        if (spec.required === true) problems.push(`\`${at}.${key}\` is required (${expectation(spec)})`);
        continue;
      }
      const problem = checkField(spec, value);
      if (problem === undefined) parsed[key] = value;
      else problems.push(`\`${at}.${key}\` ${problem}`);
    }
    out.push(parsed);
  }
  return out;
}

function checkField(field: ScalarField, v: unknown): string | undefined {
  switch (field.type) {
    case 'string':
      if (typeof v !== 'string') return `must be a string, got ${describe(v)}`;
      if (v.length === 0 && field.allowEmpty !== true && field.required === true) return 'must not be empty';
      if (v.includes('\u0000')) return 'must not contain a NUL character';
      return undefined;
    case 'integer':
      if (typeof v !== 'number' || !Number.isInteger(v))
        return `must be ${expectation(field)}, got ${describe(v)}`;
      if (field.minimum !== undefined && v < field.minimum) return `must be ${expectation(field)}, got ${v}`;
      if (field.maximum !== undefined && v > field.maximum) return `must be ${expectation(field)}, got ${v}`;
      return undefined;
    case 'boolean':
      return typeof v === 'boolean' ? undefined : `must be true or false, got ${describe(v)}`;
    case 'enum':
      return typeof v === 'string' && field.values.includes(v)
        ? undefined
        : `must be one of ${field.values.map((x) => JSON.stringify(x)).join(', ')}, got ${describe(v)}`;
  }
}

function expectation(field: FieldSpec): string {
  switch (field.type) {
    case 'string':
      return field.allowEmpty === true || field.required !== true ? 'a string' : 'a non-empty string';
    case 'integer': {
      const { minimum: min, maximum: max } = field;
      if (min !== undefined && max !== undefined) return `an integer from ${min} to ${max}`;
      if (min !== undefined) return `an integer >= ${min}`;
      if (max !== undefined) return `an integer <= ${max}`;
      return 'an integer';
    }
    case 'boolean':
      return 'true or false';
    case 'enum':
      return `one of ${field.values.map((x) => JSON.stringify(x)).join(', ')}`;
    case 'objects':
      return `a list of ${field.minItems} to ${field.maxItems} objects {${Object.keys(field.items).join(', ')}}`;
  }
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') {
    const shown = v.length > 40 ? `${v.slice(0, 40)}…` : v;
    return `the string ${JSON.stringify(shown)}`;
  }
  if (typeof v === 'number') return `the number ${v}`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

function unknownKey(key: string, known: readonly string[]): string {
  const guess = closestName(key, known);
  const hint =
    known.length === 0
      ? '; this tool takes no arguments: call it with {}'
      : guess === undefined
        ? `; known arguments: ${known.join(', ')}`
        : `; did you mean \`${guess}\`?`;
  return `unknown argument \`${key}\`${hint}`;
}
