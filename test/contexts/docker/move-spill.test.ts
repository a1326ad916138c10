/**
 * `moveSpill`: a spill file the Docker context wrote on the host is streamed into the container,
 * read back there through the file methods, and gone from the host.
 */
import { existsSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ContextHandle } from '../../../src/contract/types.js';
import { createToolSession, createTools } from '../../../src/tools/index.js';
import type { BerthTool } from '../../../src/tools/types.js';
import { describeDocker, testContext } from './docker-engine.js';

const policy = { maxOutputBytes: 4096, maxSpillBytes: 1 << 20 };
/** `seq 1 50000 | wc -c`. */
const SEQ_BYTES = 288_894;
const seqText = () => `${Array.from({ length: 50_000 }, (_, i) => i + 1).join('\n')}\n`;

describeDocker('docker moveSpill', () => {
  const context = testContext(policy);
  let handle: ContextHandle;
  let asNobody: ContextHandle;
  beforeAll(async () => {
    [handle, asNobody] = await Promise.all([
      context.spawn({ cwd: '/workspace', hardening: 'recommended' }),
      context.spawn({ user: '65534:65534' }),
    ]);
  });
  afterAll(() => context.close());

  for (const who of ['the image user (archive API)', 'a configured user (files through execs)'] as const) {
    it(`streams the whole spill into the container for ${who} and removes the host copy`, async () => {
      const h = who.startsWith('the image') ? handle : asNobody;
      const result = await context.exec(h, 'seq 1 50000; seq 1 3 >&2');
      const spill = result.stdoutFacts.spillPath!;
      expect(spill, 'the host spill').toEqual(expect.any(String));
      expect(existsSync(spill)).toBe(true);
      const moved = await context.moveSpill!(h, spill, 'stdout');
      expect(moved).toEqual({
        path: expect.stringMatching(/^\/tmp\/\.berth\/stdout-[0-9a-f]{12}\.out$/),
        bytes: SEQ_BYTES,
        lineBreaks: 50_000,
      });
      expect(existsSync(spill), 'the host copy is removed').toBe(false);
      expect(await context.fileSize!(h, moved.path)).toBe(SEQ_BYTES);
      expect(await context.readFile(h, moved.path)).toBe(seqText());
      const mode = await context.exec(h, `stat -c '%a %u' ${moved.path}; id -u`);
      const [perm, owner, uid] = mode.stdout.split(/\s+/);
      expect(perm).toBe('600');
      expect(owner).toBe(uid);
      // Once moved, it is no longer a spill on the host: a second move is refused.
      await expect(context.moveSpill!(h, spill, 'stdout')).rejects.toMatchObject({
        code: 'E_INVALID_ARGUMENT',
      });
    });
  }

  it('refuses a path that is not a spill of this handle, and one of another handle', async () => {
    await expect(context.moveSpill!(handle, '/etc/passwd', 'stdout')).rejects.toMatchObject({
      code: 'E_INVALID_ARGUMENT',
      message: expect.stringMatching(/not a spill file of handle/),
    });
    const result = await context.exec(asNobody, 'seq 1 50000');
    const spill = result.stdoutFacts.spillPath!;
    await expect(context.moveSpill!(handle, spill, 'stdout')).rejects.toMatchObject({
      code: 'E_INVALID_ARGUMENT',
    });
    expect(existsSync(spill), 'a refused move leaves the spill').toBe(true);
  });

  it('a failed copy leaves the host spill in place, and the error says why', async () => {
    const h = await context.spawn({});
    try {
      const spill = (await context.exec(h, 'seq 1 50000')).stdoutFacts.spillPath!;
      // The state directory replaced by a file: nothing can be created in it, not even by root.
      await context.exec(h, 'rm -rf /tmp/.berth && : > /tmp/.berth');
      await expect(context.moveSpill!(h, spill, 'stdout')).rejects.toMatchObject({
        code: 'E_IO',
        message: expect.stringMatching(
          /^writing \/tmp\/\.berth\/stdout-\S+ in the container failed \(exit 4: .*(directory|can.t create)/,
        ),
      });
      expect(existsSync(spill), 'the host spill stays').toBe(true);
      // Through the tools, the result says the copy could not be made, why, and how to rerun.
      const bash = createTools({ context, handle: h }).find((tool) => tool.name === 'bash') as BerthTool;
      const shown = (await bash.execute({ command: 'seq 1 50000', timeout_ms: 30_000 })).content
        .map((c) => (c.type === 'text' ? c.text : ''))
        .join('\n');
      expect(shown).toMatch(
        /\[The context cut stdout to its start and end \(.+? omitted\)\. The context's full copy of stdout \(282 KiB\) could not be moved where the file tools can read it \(writing \S+ in the container failed \(exit 4: .+\)\); rerun with the output redirected to a file/,
      );
      // Given back: once the directory is there again, the same spill moves.
      await context.exec(h, 'rm /tmp/.berth && mkdir -m 1777 /tmp/.berth');
      expect((await context.moveSpill!(h, spill, 'stdout')).bytes).toBe(SEQ_BYTES);
    } finally {
      await context.destroy(h);
    }
  });

  it('bash names the moved file when the context cut the output and the budget did not', async () => {
    const tools = new Map(
      createTools({ context, handle, session: createToolSession() }).map((tool) => [tool.name, tool]),
    );
    const call = (name: string, args: unknown) =>
      (tools.get(name) as BerthTool)
        .execute(args)
        .then((r) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n'));
    const shown = await call('bash', { command: 'seq 1 50000' });
    const note =
      /\[The context cut stdout to its start and end \(.+? omitted\); full stdout \(282 KiB\): (\/tmp\/\.berth\/\S+)\]/.exec(
        shown,
      );
    expect(note, shown).not.toBeNull();
    const path = note![1]!;
    // The context's own marker in the text names the moved file too, never the host's.
    expect(shown).toMatch(new RegExp(`\\[berth: \\d+ bytes of stdout omitted here .*is in ${path}\\]`));
    expect(shown).not.toMatch(/berth-docker-/);
    expect(await call('read_file', { path, offset: 25_000, limit: 1 })).toMatch(/^ {1}25000\t25000\n/);
    expect(await call('grep', { pattern: '^49999$', path, output_mode: 'count' })).toBe(
      `1 matching line in 1 file:\n${path}:1`,
    );
  });

  it('destroy leaves no spill directory of the handle on the host', async () => {
    const h = await context.spawn({});
    const spill = (await context.exec(h, 'seq 1 50000')).stdoutFacts.spillPath!;
    const dir = spill.slice(0, spill.lastIndexOf('/'));
    await context.moveSpill!(h, spill, 'stdout');
    expect(readdirSync(dir)).toEqual([]);
    await context.destroy(h);
    expect(existsSync(dir)).toBe(false);
  });
});
