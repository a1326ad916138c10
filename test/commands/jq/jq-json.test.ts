/**
 * jq's JSON reader and printer on their own: texts split at every possible chunk boundary parse
 * the same, positions in messages, number printing (jq 1.7's 17 significant digits, literals kept
 * when unchanged), and the printer's layouts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  END,
  JsonSyntaxError,
  JsonValueParser,
  NEED_MORE,
  parseJsonText,
} from '../../../src/commands/jq/json-parse.js';
import { COMPACT, printValue } from '../../../src/commands/jq/json-print.js';
import { formatDouble } from '../../../src/commands/jq/number-text.js';
import type { Value } from '../../../src/commands/jq/value.js';

function parseAll(chunks: readonly string[]): string[] {
  const p = new JsonValueParser();
  const out: string[] = [];
  const drain = (): void => {
    for (;;) {
      const step = p.next();
      if (step === NEED_MORE || step === END) return;
      out.push(printValue(step as Value, COMPACT));
    }
  };
  for (const c of chunks) {
    p.feed(c);
    drain();
  }
  p.end();
  drain();
  return out;
}

function parseError(text: string): string {
  try {
    parseAll([text]);
  } catch (error) {
    if (error instanceof JsonSyntaxError) return error.message;
    throw error;
  }
  throw new Error(`${text} parsed`);
}

describe('the JSON reader', () => {
  const text = '{"a":[1,2.5e3,-0,true,null],"b":"x\\u00e9\\ud83d\\ude00\\n"} [] "s" 12 nan';

  it('reads a stream of texts the same at every chunk boundary', () => {
    const whole = parseAll([text]);
    expect(whole).toEqual(['{"a":[1,2.5E+3,-0,true,null],"b":"xé😀\\n"}', '[]', '"s"', '12', 'null']);
    for (let i = 1; i < text.length; i += 1)
      expect(parseAll([text.slice(0, i), text.slice(i)])).toEqual(whole);
    expect(parseAll([...text])).toEqual(whole);
  });

  it('agrees with JSON.parse on generated values, however they are split', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.array(fc.nat(), { maxLength: 5 }), (value, cuts) => {
        const json = JSON.stringify(value);
        const points = [...new Set(cuts.map((c) => c % (json.length + 1)))].sort((a, b) => a - b);
        const chunks: string[] = [];
        let at = 0;
        for (const p of points) {
          chunks.push(json.slice(at, p));
          at = p;
        }
        chunks.push(json.slice(at));
        const [out] = parseAll(chunks);
        expect(JSON.parse(out as string)).toEqual(JSON.parse(json));
      }),
      { numRuns: 200 },
    );
  });

  it("gives jq's messages with line and column", () => {
    expect(parseError('[1,]')).toBe('Expected another array element at line 1, column 4');
    expect(parseError('{"a":1,}')).toBe('Expected another key-value pair at line 1, column 8');
    expect(parseError('[,1]')).toBe("Expected value before ',' at line 1, column 2");
    expect(parseError('[1\n,\n')).toBe('Unfinished JSON term at EOF at line 3, column 0');
    expect(parseError('"\\x"')).toBe('Invalid escape at line 1, column 4');
    expect(parseError('[1}')).toBe('Objects must consist of key:value pairs at line 1, column 3');
    expect(parseError('{1:2}')).toBe('Object keys must be strings at line 1, column 3');
    expect(parseError('[1 2]')).toBe('Expected separator between values at line 1, column 5');
    expect(parseError('tru')).toBe('Invalid literal at EOF at line 1, column 3');
    expect(parseError('"abc')).toBe('Unfinished string at EOF at line 1, column 4');
    expect(parseError('"a\u0001"')).toBe(
      'Invalid string: control characters from U+0000 through U+001F must be escaped at line 1, column 4',
    );
  });

  it('parses a single huge text in linear time', () => {
    const big = `[${'{"k":"v","n":1},'.repeat(100000)}0]`;
    const started = Date.now();
    const chunks: string[] = [];
    for (let i = 0; i < big.length; i += 65536) chunks.push(big.slice(i, i + 65536));
    expect(parseAll(chunks)[0]?.length).toBe(big.length);
    expect(Date.now() - started).toBeLessThan(10000);
  });

  it('parseJsonText names what it was parsing', () => {
    expect(() => parseJsonText('{')).toThrow(
      "Unfinished JSON term at EOF at line 1, column 1 (while parsing '{')",
    );
  });
});

describe('numbers as jq 1.7 prints them', () => {
  it.each([
    [1, '1'],
    [1.5, '1.5'],
    [0.1 + 0.2, '0.30000000000000004'],
    [1e16, '1e+16'],
    [2 ** 53 + 2, '9007199254740994'],
    [1e17, '1e+17'],
    [123456789012345680000, '123456789012345680000'],
    [1.5e300, '1.5e+300'],
    [1e-5, '1e-05'],
    [0.0001, '0.0001'],
    [-0, '-0'],
    [123456789012, '123456789012'],
    [Number.MAX_VALUE, '1.7976931348623157e+308'],
    [5e-324, '5e-324'],
  ])('%d prints as %s', (d, text) => {
    expect(formatDouble(d)).toBe(text);
  });

  it('keeps a literal as written while it is unchanged and canonicalises it as 1.7.1 does', () => {
    const [out] = parseAll(['[100000000000000000000, 1.000, 1E2, 0.10, 3.00000000000000000001]']);
    expect(out).toBe('[100000000000000000000,1.000,1E+2,0.10,3.00000000000000000001]');
  });
});

describe('the printer', () => {
  const v = parseJsonText('{"b":[1,{"c":null}],"a":"é","e":[],"f":{}}');

  it('indents two spaces by default, tabs or n spaces on request, and sorts with -S', () => {
    const base = { indent: 2, tab: false, sortKeys: false, ascii: false, colors: null };
    expect(printValue(v, base)).toBe(
      '{\n  "b": [\n    1,\n    {\n      "c": null\n    }\n  ],\n  "a": "é",\n  "e": [],\n  "f": {}\n}',
    );
    expect(printValue(v, { ...base, tab: true })).toContain('\n\t"b": [\n\t\t1,');
    expect(printValue(v, { ...base, indent: 0, sortKeys: true, ascii: true })).toBe(
      '{"a":"\\u00e9","b":[1,{"c":null}],"e":[],"f":{}}',
    );
  });
});
