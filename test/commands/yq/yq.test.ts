/**
 * yq against real jq on the JSON-equivalent of each YAML input (there is no Go yq here to be an
 * oracle): the same expression, `yq -o json` versus `jq` over the JSON text, byte for byte; YAML
 * output is compared by what it parses back to. The YAML-specific behaviour (document separators,
 * `-i`, flags, errors) is asserted directly.
 */
import { spawn } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { runStandalone } from '../../../src/commands/standalone.js';
import { yqCommand } from '../../../src/commands/yq/yq-command.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';

const DOC = `# settings
name: berth
version: 4
enabled: true
nothing: null
ratio: 0.5
big: 123456789012345678901
tags: [a, b, c]
servers:
  - host: one.example
    port: 80
  - host: two.example
    port: 8080
    tls: {cert: x.pem}
nested:
  deep:
    list:
      - 1
      - [2, 3]
  quoted: "123"
  multi: |
    line one
    line two
`;

/** Debian's jq 1.6 rounds integers past 2^53 (jq 1.7 and yq keep them), so its oracle input has none. */
const DOC_FOR_JQ = DOC.replace('big: 123456789012345678901', 'big: 12345678901');

const MULTI = 'a: 1\nb: [x]\n---\na: 2\nb: [y, z]\n---\na: 3\n';
const ANCHORS = 'base: &b {x: 1, y: 2}\nd:\n  <<: *b\n  y: 3\nlist: [*b, *b]\n';

async function run(argv: string[], files: Record<string, string> = {}, stdin?: string) {
  const fs = createMemoryFilesystem();
  await fs.mkdir('/w', { recursive: true });
  for (const [name, text] of Object.entries(files))
    await fs.writeFile(`/w/${name}`, new TextEncoder().encode(text));
  const r = await runStandalone(yqCommand.run, {
    argv,
    fs,
    cwd: '/w',
    env: { LC_ALL: 'C.UTF-8' },
    stdin: stdin === undefined ? undefined : new TextEncoder().encode(stdin),
  });
  const td = new TextDecoder();
  return { status: r.status, stdout: td.decode(r.stdout), stderr: td.decode(r.stderr), fs };
}

function jq(args: string[], input: string): Promise<{ status: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('jq', args, { env: { LC_ALL: 'C.UTF-8', PATH: '/usr/bin:/bin' } });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ status: code ?? -1, stdout }));
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

/** The JSON text of every document of `yaml`, one per line, as jq's input (big integers kept). */
function jsonOf(yaml: string): string {
  return parseAllDocuments(yaml, { merge: true, intAsBigInt: true })
    .map((d) =>
      JSON.stringify(d.toJS(), (_, v) => (typeof v === 'bigint' ? `\u0000big${v}` : v)).replace(
        /"\\u0000big(-?\d+)"/g,
        '$1',
      ),
    )
    .join('\n');
}

const EXPRESSIONS: readonly string[] = [
  '.',
  '.name',
  '.servers[0].host',
  '.servers[] | .port',
  '.servers | map(select(.port > 100)) | .[].host',
  '.tags | length',
  '.nested.deep.list[1][0]',
  '.nested | keys',
  '.version = 5',
  '.servers[].port |= . + 1',
  '.tags += ["d"]',
  'del(.servers)',
  '. * {"nested": {"deep": {"extra": true}}}',
  'to_entries | map(.key) | join(",")',
  '[.. | numbers] | add',
  '.big',
  '.nested.quoted | type',
  '.nested.multi',
  '.missing',
  '.servers | map(has("tls"))',
  'with_entries(select(.value | type == "boolean"))',
  '[paths | join(".")?] | length',
];

describe('yq -o json against jq on the JSON-equivalent input', () => {
  for (const expression of EXPRESSIONS)
    test(expression, async () => {
      const [ours, theirs] = await Promise.all([
        run(['yq', '-o', 'json', expression, 'doc.yaml'], { 'doc.yaml': DOC_FOR_JQ }),
        jq([expression], jsonOf(DOC_FOR_JQ)),
      ]);
      expect(ours.stderr).toBe('');
      expect(ours.stdout).toBe(theirs.stdout);
      expect(ours.status).toBe(theirs.status);
    });
  test('every document of a multi-document file, in turn', async () => {
    for (const expression of ['.a', '.b[]', '.b | length', '{"n": .a}']) {
      const ours = await run(['yq', '-o', 'json', '-I', '0', expression, 'm.yaml'], { 'm.yaml': MULTI });
      const theirs = await jq(['-c', expression], jsonOf(MULTI));
      expect(ours.stdout).toBe(theirs.stdout);
    }
  });
  test('anchors, aliases and merge keys are expanded', async () => {
    const ours = await run(['yq', '-o', 'json', '.', 'a.yaml'], { 'a.yaml': ANCHORS });
    expect(ours.stdout).toBe((await jq(['.'], jsonOf(ANCHORS))).stdout);
    expect(JSON.parse(ours.stdout).d).toEqual({ x: 1, y: 3 });
  });
});

describe('yq YAML output parses back to what jq computes', () => {
  // Left out: several results of one document print one after another as one YAML stream, and
  // top-level strings print unquoted.
  const excluded = [
    '.big',
    '.nested.multi',
    '.name',
    '.servers[] | .port',
    '.servers | map(select(.port > 100)) | .[].host',
  ];
  for (const expression of EXPRESSIONS.filter((e) => !excluded.includes(e)))
    test(expression, async () => {
      const [ours, theirs] = await Promise.all([
        run(['yq', expression, 'doc.yaml'], { 'doc.yaml': DOC_FOR_JQ }),
        jq(['-c', expression], jsonOf(DOC_FOR_JQ)),
      ]);
      const back = parseAllDocuments(ours.stdout).map((d) => d.toJS());
      const expected = theirs.stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l));
      expect(back).toEqual(expected);
    });
});

describe('yq', () => {
  test('scalars print unwrapped; block style; documents separated by ---', async () => {
    expect((await run(['yq', '.name', 'doc.yaml'], { 'doc.yaml': DOC })).stdout).toBe('berth\n');
    expect((await run(['yq', '.nested.multi', 'doc.yaml'], { 'doc.yaml': DOC })).stdout).toBe(
      'line one\nline two\n\n',
    );
    expect((await run(['yq', '.servers[1]', 'doc.yaml'], { 'doc.yaml': DOC })).stdout).toBe(
      'host: two.example\nport: 8080\ntls:\n  cert: x.pem\n',
    );
    expect((await run(['yq', '.nested.deep', 'doc.yaml'], { 'doc.yaml': DOC })).stdout).toBe(
      'list:\n  - 1\n  - - 2\n    - 3\n',
    );
    expect((await run(['yq', '.a', 'm.yaml'], { 'm.yaml': MULTI })).stdout).toBe('1\n---\n2\n---\n3\n');
    expect((await run(['yq', '-N', '.a', 'm.yaml'], { 'm.yaml': MULTI })).stdout).toBe('1\n2\n3\n');
    expect((await run(['yq', '.b[]', 'm.yaml'], { 'm.yaml': MULTI })).stdout).toBe('x\n---\ny\nz\n');
    expect((await run(['yq', '.big', 'doc.yaml'], { 'doc.yaml': DOC })).stdout).toBe(
      '123456789012345678901\n',
    );
    expect((await run(['yq', '.nested.quoted', '-r=false', 'doc.yaml'], { 'doc.yaml': DOC })).stdout).toBe(
      '"123"\n',
    );
  });
  test('a file alone means ".", standard input without files, "eval" and "e" accepted', async () => {
    const alone = await run(['yq', 'm.yaml'], { 'm.yaml': 'a:   1\nb: [x,   y]\n' });
    expect(alone.stdout).toBe('a: 1\nb:\n  - x\n  - y\n');
    expect((await run(['yq', '.a'], {}, 'a: from stdin\n')).stdout).toBe('from stdin\n');
    expect((await run(['yq', 'eval', '.a', '-'], {}, 'a: 7\n')).stdout).toBe('7\n');
    expect((await run(['yq', 'e', '-P', '.'], {}, '{a: [1]}\n')).stdout).toBe('a:\n  - 1\n');
  });
  test('-n evaluates once over null; -p json reads JSON', async () => {
    expect((await run(['yq', '-n', '{"a": [1, {"b": null}]}'])).stdout).toBe('a:\n  - 1\n  - b: null\n');
    expect((await run(['yq', '-p', 'json', '.a[1]'], {}, '{"a": [1, 2]}')).stdout).toBe('2\n');
    expect((await run(['yq', '-p=j', '-o=j', '-I=0', '.'], {}, '{"a": [1, 2]}')).stdout).toBe(
      '{"a":[1,2]}\n',
    );
  });
  test('-i rewrites the first file with the results', async () => {
    const r = await run(['yq', '-i', '.a.c = 1 | .a.d = "x"', 'f.yaml'], { 'f.yaml': 'a:\n  b: 2\n' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(new TextDecoder().decode(await r.fs.readFile('/w/f.yaml'))).toBe('a:\n  b: 2\n  c: 1\n  d: x\n');
    const multi = await run(['yq', '-i', '.a += 10', 'm.yaml'], { 'm.yaml': MULTI });
    expect(new TextDecoder().decode(await multi.fs.readFile('/w/m.yaml'))).toBe(
      'a: 11\nb:\n  - x\n---\na: 12\nb:\n  - y\n  - z\n---\na: 13\n',
    );
  });
  test('-i refuses a file whose comments or anchors it would drop, and leaves it alone', async () => {
    for (const text of ['a: 1 # why\n', '# head\na: 1\n', ANCHORS]) {
      const r = await run(['yq', '-i', '.a = 2', 'f.yaml'], { 'f.yaml': text });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/holds comments or anchors.*-i would drop them/);
      expect(new TextDecoder().decode(await r.fs.readFile('/w/f.yaml'))).toBe(text);
    }
    expect((await run(['yq', '-i', '.a'])).stderr).toMatch(/at least one file/);
  });
  test('-e: status 1 for null, false or no output', async () => {
    expect((await run(['yq', '-e', '.a'], {}, 'a: 1\n')).status).toBe(0);
    expect((await run(['yq', '-e', '.b'], {}, 'a: 1\n')).status).toBe(1);
    expect((await run(['yq', '-e', '.a'], {}, 'a: false\n')).status).toBe(1);
    expect((await run(['yq', '-e', 'empty'], {}, 'a: 1\n')).status).toBe(1);
  });
  test('bad input gets a clear error and status 1', async () => {
    const flag = await run(['yq', '--outpt-format', 'json']);
    expect(flag.status).toBe(1);
    expect(flag.stderr).toMatch(/unrecognized option '--outpt-format'.*did you mean --output-format\?/);
    expect((await run(['yq', '-o', 'xml', '.'])).stderr).toMatch(
      /unknown output format 'xml'.*yaml \(y\) and json/,
    );
    const syntax = await run(['yq', '.[', 'f.yaml'], { 'f.yaml': 'a: 1\n' });
    expect(syntax.status).toBe(1);
    expect(syntax.stderr).toMatch(/^Error: /);
    const missing = await run(['yq', '.a', 'nonexist.yaml']);
    expect(missing).toMatchObject({
      status: 1,
      stderr: 'Error: open nonexist.yaml: no such file or directory\n',
    });
    const broken = await run(['yq', '.', 'b.yaml'], { 'b.yaml': 'a: [1, 2\nb: }\n' });
    expect(broken.status).toBe(1);
    expect(broken.stderr).toMatch(/^Error: bad file 'b\.yaml': /);
    const runtime = await run(['yq', '.a + 1'], {}, 'a: x\n');
    expect(runtime).toMatchObject({
      status: 1,
      stderr: 'Error: string ("x") and number (1) cannot be added\n',
    });
    expect((await run(['yq', 'ea', '.'])).stderr).toMatch(/eval-all is not supported/);
    expect((await run(['yq', '-C', '.'])).stderr).toMatch(/no colours/);
  });
  test('an alias bomb fails instead of growing', async () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i += 1)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    const r = await run(['yq', '.a11 | length', 'bomb.yaml'], { 'bomb.yaml': `${lines.join('\n')}\n` });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^Error: bad file 'bomb\.yaml': .*alias/i);
  });
  test('a document nested past the limit fails with an error, not a crash', async () => {
    const deep = `${'['.repeat(20000)}${']'.repeat(20000)}\n`;
    const r = await run(['yq', '.', 'deep.yaml'], { 'deep.yaml': deep });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^Error: bad file 'deep\.yaml': /);
  });
});
