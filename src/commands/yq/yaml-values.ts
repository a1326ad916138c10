/**
 * YAML documents as jq values and back, through the `yaml` package (YAML 1.2 core schema, as Go
 * yq v4 reads it): mappings become jq objects in their order (keys as strings), anchors and
 * aliases are expanded (at most {@link MAX_ALIAS_COUNT} alias expansions per document, so a
 * "billion laughs" document fails instead of growing), `<<` merge keys are merged, integers past
 * 2^53 keep their digits. Output is block style, not folded, with scalars quoted only as needed.
 * @module
 */
import { isAlias, isDocument, isNode, parseAllDocuments, stringify, visit } from 'yaml';
import { fromHostValue, HostValueError } from '../jq/host-values.js';
import { BigNum, type Value } from '../jq/value.js';

/** Alias expansions allowed per document (the `yaml` package's guard against exponential growth). */
export const MAX_ALIAS_COUNT = 1000;

/** A document that could not be read, with the YAML parser's message. */
export class YamlInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'YamlInputError';
  }
}

export interface ParsedDocuments {
  readonly values: Value[];
  /** Whether the text holds comments or anchors, which the values cannot carry back out. */
  readonly lossy: boolean;
}

/** Every document of `text`; throws {@link YamlInputError} for the first broken one. */
export function parseYamlDocuments(text: string): ParsedDocuments {
  let docs: ReturnType<typeof parseAllDocuments>;
  try {
    docs = parseAllDocuments(text, { merge: true, intAsBigInt: true, uniqueKeys: false });
  } catch (error) {
    throw new YamlInputError(error instanceof Error ? error.message : String(error));
  }
  const values: Value[] = [];
  let lossy = false;
  for (const doc of docs) {
    const first = doc.errors[0];
    if (first !== undefined) throw new YamlInputError(first.message);
    if (!isDocument(doc)) continue;
    if (doc.commentBefore || doc.comment) lossy = true;
    visit(doc, {
      Node(_, node) {
        if (isAlias(node) || (isNode(node) && (node.anchor || node.commentBefore || node.comment)))
          lossy = true;
      },
      Pair(_, pair) {
        if (isNode(pair.key) && (pair.key.commentBefore || pair.key.comment)) lossy = true;
      },
    });
    let js: unknown;
    try {
      js = doc.toJS({ mapAsMap: true, maxAliasCount: MAX_ALIAS_COUNT });
    } catch (error) {
      throw new YamlInputError(error instanceof Error ? error.message : String(error));
    }
    try {
      values.push(fromHostValue(js));
    } catch (error) {
      if (error instanceof HostValueError) throw new YamlInputError(error.message);
      throw error;
    }
  }
  return { values, lossy };
}

/** A jq value as what `yaml.stringify` takes: objects as `Map`s (keeping their order). */
function toYamlData(v: Value): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof BigNum) return /^-?\d+$/.test(v.literal) ? BigInt(v.literal) : v.value;
  if (Array.isArray(v)) return v.map(toYamlData);
  const out = new Map<string, unknown>();
  for (const [k, x] of v) out.set(k, toYamlData(x));
  return out;
}

/** One output value as YAML text (ending in a newline); a top-level string is printed as it is. */
export function renderYaml(v: Value, indent: number, unwrapScalar: boolean): string {
  if (unwrapScalar && typeof v === 'string') return `${v}\n`;
  return stringify(toYamlData(v), { indent: Math.max(1, indent), lineWidth: 0, minContentWidth: 0 });
}
