/**
 * jq modules: `import`, `include`, data imports, `-L`, search metadata, `modulemeta`, and the
 * errors, over a memory filesystem; a few programs are compared with the real jq on disk.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jqCommand } from '../../../src/commands/jq/index.js';
import { runStandalone } from '../../../src/commands/standalone.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

/** The module files, relative to the library directory `lib`. */
const LIB: Record<string, string> = {
  'a.jq': 'module {name: "a", v: 1};\nimport "b/b" as bb;\ndef f: "a.f";\ndef g(x): [x, bb::h];\n',
  'b/b.jq': 'def h: "b.h";\n',
  'c/jq/main.jq': 'def c: "c";\n',
  'd.json': '1\n[2]\n',
  'nest.jq': 'import "data" as $cfg {search: "./sub"};\ninclude "a";\ndef n: [f, $cfg::cfg[0].k];\n',
  'inc.jq': 'include "a";\ndef n: [f, g(0)];\n',
  'sub/data.json': '{"k": "v"}\n',
  'bad.jq': 'def broken: (;\n',
  'cy1.jq': 'import "cy2" as c; def x: 1;\n',
  'cy2.jq': 'import "cy1" as c; def y: 1;\n',
  'main.jq': 'def f: 1;\n.\n',
};

async function jq(argv: readonly string[], home = '/home/u') {
  const fs = createMemoryFilesystem();
  for (const [name, text] of Object.entries(LIB)) {
    const path = `/work/lib/${name}`;
    await fs.mkdir(path.slice(0, path.lastIndexOf('/')), { recursive: true });
    await fs.writeFile(path, enc.encode(text));
  }
  await fs.mkdir(`${home}/.jq`, { recursive: true });
  await fs.writeFile(`${home}/.jq/homemod.jq`, enc.encode('def hm: "home";\n'));
  const r = await runStandalone(jqCommand.run, {
    argv: ['jq', ...argv],
    fs,
    cwd: '/work',
    stdin: new Uint8Array(),
    env: { HOME: home, PATH: '/bin' },
  });
  return { status: r.status, stdout: dec.decode(r.stdout), stderr: dec.decode(r.stderr) };
}

describe('jq modules', () => {
  it('imports a module as a name, with its own imports', async () => {
    expect(await jq(['-nc', '-L', 'lib', 'import "a" as a; a::f, a::g(3)'])).toMatchObject({
      status: 0,
      stdout: '"a.f"\n[3,"b.h"]\n',
    });
  });

  it('keeps imported names behind their prefix and a module private to its importer', async () => {
    const r = await jq(['-n', '-L', 'lib', 'import "a" as a; a::h']);
    expect(r.status).toBe(3);
    expect(r.stderr).toContain('a::h/0 is not defined');
    expect((await jq(['-n', '-Llib', 'import "a" as a; f'])).stderr).toContain('f/0 is not defined');
  });

  it('includes definitions unprefixed; the program may shadow them', async () => {
    expect(await jq(['-nc', '--library-path', 'lib', 'include "a"; f, g(1)'])).toMatchObject({
      stdout: '"a.f"\n[1,"b.h"]\n',
    });
    expect((await jq(['-nc', '-L', 'lib', 'include "a"; def f: "mine"; f'])).stdout).toBe('"mine"\n');
  });

  it('imports data as $name::name and $name', async () => {
    expect((await jq(['-nc', '-L', 'lib', 'import "d" as $d; $d::d, $d'])).stdout).toBe('[1,[2]]\n[1,[2]]\n');
  });

  it('finds a/b/b.jq and a/jq/main.jq, and searches the home library by default', async () => {
    expect((await jq(['-nr', '-L', 'lib', 'import "b" as b; import "c" as c; b::h, c::c'])).stdout).toBe(
      'b.h\nc\n',
    );
    expect((await jq(['-nr', 'import "homemod" as m; m::hm'])).stdout).toBe('home\n');
    expect((await jq(['-nr', 'import "lib/b" as b; b::h'])).stdout).toBe('b.h\n');
  });

  it('resolves search metadata against the importing file', async () => {
    expect((await jq(['-nc', '-L', 'lib', 'import "nest" as n; n::n'])).stdout).toBe('["a.f","v"]\n');
    expect((await jq(['-nr', 'import "b" as b {search: "./lib/b"}; b::h'])).stdout).toBe('b.h\n');
    // A search list replaces the default one.
    expect((await jq(['-n', '-L', 'lib', 'import "a" as a {search: "/nowhere"}; 1'])).status).toBe(3);
  });

  it('answers modulemeta and get_search_list', async () => {
    expect((await jq(['-nc', '-L', 'lib', '"a" | modulemeta'])).stdout).toBe(
      '{"name":"a","v":1,"deps":[{"as":"bb","is_data":false,"relpath":"b/b"}],"defs":["f/0","g/1"]}\n',
    );
    expect((await jq(['-nc', '-L', 'lib', '"nest" | modulemeta | .deps'])).stdout).toBe(
      '[{"search":"./sub","as":"cfg","is_data":true,"relpath":"data"},{"is_data":false,"relpath":"a"}]\n',
    );
    const missing = await jq(['-n', '-L', 'lib', '"nope" | modulemeta']);
    expect(missing).toMatchObject({
      status: 5,
      stderr: 'jq: error (at <unknown>): module not found: nope\n',
    });
    expect((await jq(['-nc', '-L', 'lib', '-L', '/x', 'get_search_list'])).stdout).toBe(
      '["/work/lib","/x"]\n',
    );
    expect((await jq(['-nc', 'get_search_list, get_jq_origin, get_prog_origin'])).stdout).toBe(
      '["~/.jq","$ORIGIN/../lib/jq","$ORIGIN/../lib"]\n"/usr/bin"\n"/work"\n',
    );
  });

  it('reports a missing module, a syntax error in a module and an import cycle', async () => {
    expect(await jq(['-n', '-L', 'lib', 'import "nope" as n; 1'])).toMatchObject({
      status: 3,
      stdout: '',
      stderr: 'jq: error: module not found: nope\n\njq: 1 compile error\n',
    });
    const bad = await jq(['-n', '-L', 'lib', 'import "bad" as b; 1']);
    expect(bad.status).toBe(3);
    expect(bad.stderr).toMatch(/^jq: error: syntax error, .* at \/work\/lib\/bad\.jq, line 1, column 14:\n/);
    expect(await jq(['-n', '-L', 'lib', 'import "cy1" as c; 1'])).toMatchObject({
      status: 3,
      stderr: 'jq: error: circular import of /work/lib/cy1.jq\n\njq: 1 compile error\n',
    });
    expect((await jq(['-n', '-L', 'lib', 'import "main" as m; 1'])).stderr).toContain(
      'library should only have function definitions',
    );
    expect((await jq(['-n', '-L', 'lib', 'import "b/b/c" as m; 1'])).stderr).toContain(
      'module names must not have equal consecutive components: b/b/c',
    );
  });
});

const haveJq = spawnSync('jq', ['--version'], { encoding: 'utf8' }).status === 0;

describe.skipIf(!haveJq)('jq modules against the real jq', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jq-modules-'));
  for (const [name, text] of Object.entries(LIB)) {
    mkdirSync(dirname(join(dir, 'lib', name)), { recursive: true });
    writeFileSync(join(dir, 'lib', name), text);
  }
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const programs = [
    'import "a" as a; a::f, a::g(3)',
    'include "a"; f, g(1)',
    'import "d" as $d; $d::d, $d',
    'import "b" as b; import "c" as c; b::h, c::c',
    'import "inc" as i; i::n',
    'import "data" as $cfg {search: "./lib/sub"}; $cfg',
    '"a" | modulemeta | del(.defs)',
    'import "nope" as n; 1',
    'import "cy1" as c; 1',
  ];
  for (const program of programs) {
    it(`agrees on ${program}`, async () => {
      const real = spawnSync('jq', ['-nc', '-L', 'lib', program], { cwd: dir, encoding: 'utf8' });
      const ours = await jq(['-nc', '-L', 'lib', program]);
      expect(ours.stdout).toBe(real.stdout);
      expect(ours.status).toBe(real.status);
      expect(ours.stderr).toBe(real.stderr.replaceAll(`${dir}/`, '/work/'));
    });
  }
});
