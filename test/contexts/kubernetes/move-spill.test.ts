/**
 * `moveSpill`: a spill file the Kubernetes context wrote on the host is streamed into the pod over
 * an exec's stdin, read back there through the file methods (and the agent tools), and gone from
 * the host; on a cluster whose exec protocol cannot close stdin (v4) too.
 */
import { existsSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KubernetesContext } from '../../../src/contexts/kubernetes/index.js';
import type { ContextHandle } from '../../../src/contract/types.js';
import { createToolSession, createTools } from '../../../src/tools/index.js';
import type { BerthTool } from '../../../src/tools/types.js';
import { describeFakeCluster, type FakeCluster, startFakeCluster } from './fake-cluster.js';

const policy = { maxOutputBytes: 4096, maxSpillBytes: 1 << 20 };
/** `seq 1 50000 | wc -c`. */
const SEQ_BYTES = 288_894;
const seqText = () => `${Array.from({ length: 50_000 }, (_, i) => i + 1).join('\n')}\n`;

const textOf = (result: { content: readonly { type: string; text?: string }[] }) =>
  result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describeFakeCluster('kubernetes moveSpill', () => {
  let cluster: FakeCluster;
  let context: KubernetesContext;
  let handle: ContextHandle;
  let asNobody: ContextHandle;
  beforeAll(async () => {
    cluster = await startFakeCluster();
    context = cluster.context(policy);
    [handle, asNobody] = await Promise.all([
      context.spawn({ hardening: 'recommended' }),
      context.spawn({ user: '65534:65534' }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await cluster?.close();
  });

  for (const who of ['the hardened pod', 'a configured user'] as const) {
    it(`streams the whole spill into the pod for ${who} and removes the host copy`, async () => {
      const h = who === 'the hardened pod' ? handle : asNobody;
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
      expect(await context.fileSize(h, moved.path)).toBe(SEQ_BYTES);
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

  it('moves binary bytes exactly, and a spill of stderr', async () => {
    const result = await context.exec(
      handle,
      "head -c 300000 /dev/urandom > /tmp/r.bin; cat /tmp/r.bin >&2; md5sum < /tmp/r.bin | cut -d' ' -f1",
    );
    const spill = result.stderrFacts.spillPath!;
    const moved = await context.moveSpill!(handle, spill, 'stderr');
    expect(moved.path).toMatch(/^\/tmp\/\.berth\/stderr-/);
    expect(moved.bytes).toBe(300_000);
    const sum = await context.exec(handle, `md5sum < ${moved.path} | cut -d' ' -f1`);
    expect(sum.stdout).toBe(result.stdout);
  });

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

  it('a spill file replaced on the host since berth wrote it is not sent, and nothing lands in the pod', async () => {
    const spill = (await context.exec(handle, 'seq 1 50000')).stdoutFacts.spillPath!;
    const before = await context.exec(handle, 'ls /tmp/.berth | grep -c "^stdout-" || true');
    unlinkSync(spill);
    writeFileSync(spill, 'not what berth wrote\n', { mode: 0o600 });
    await expect(context.moveSpill!(handle, spill, 'stdout')).rejects.toMatchObject({
      code: 'E_IO',
      message: expect.stringMatching(/was replaced by another file since berth wrote it/),
    });
    expect(readFileSync(spill, 'utf8'), 'the host file stays as it is').toBe('not what berth wrote\n');
    const after = await context.exec(handle, 'ls /tmp/.berth | grep -c "^stdout-" || true');
    expect(after.stdout).toBe(before.stdout);
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
          /^writing \/tmp\/\.berth\/stdout-\S+ in the pod failed \(exit 4: .*(directory|can.t create)/,
        ),
      });
      expect(existsSync(spill), 'the host spill stays').toBe(true);
      // Through the tools, the result says the copy could not be made, why, and how to rerun.
      const bash = createTools({ context, handle: h }).find((tool) => tool.name === 'bash') as BerthTool;
      const shown = textOf(await bash.execute({ command: 'seq 1 50000', timeout_ms: 30_000 }));
      expect(shown).toMatch(
        /\[The context cut stdout to its start and end \(.+? omitted\)\. The context's full copy of stdout \(282 KiB\) could not be moved where the file tools can read it \(writing \S+ in the pod failed \(exit 4: .+\)\); rerun with the output redirected to a file/,
      );
      // Given back: once the directory is there again, the same spill moves.
      await context.exec(h, 'rm /tmp/.berth && mkdir -m 1777 /tmp/.berth');
      expect((await context.moveSpill!(h, spill, 'stdout')).bytes).toBe(SEQ_BYTES);
    } finally {
      await context.destroy(h);
    }
  });

  it('bash names the moved pod file, and read_file and grep read it', async () => {
    const tools = new Map(
      createTools({ context, handle, session: createToolSession() }).map((tool) => [tool.name, tool]),
    );
    const call = (name: string, args: unknown) => (tools.get(name) as BerthTool).execute(args).then(textOf);
    const shown = await call('bash', { command: 'seq 1 50000' });
    const note =
      /\[The context cut stdout to its start and end \(.+? omitted\); full stdout \(282 KiB\): (\/tmp\/\.berth\/\S+)\]/.exec(
        shown,
      );
    expect(note, shown).not.toBeNull();
    const path = note![1]!;
    // The context's own marker in the text names the pod file too, never the host's.
    expect(shown).toMatch(new RegExp(`\\[berth: \\d+ bytes of stdout omitted here .*is in ${path}\\]`));
    expect(shown).not.toMatch(/berth-kubernetes-/);
    expect(await call('read_file', { path, offset: 25_000, limit: 1 })).toMatch(/^ {1}25000\t25000\n/);
    expect(await call('grep', { pattern: '^49999$', path, output_mode: 'count' })).toBe(
      `1 matching line in 1 file:\n${path}:1`,
    );
  });

  it('destroy leaves no spill directory of the handle on the host', async () => {
    const h = await context.spawn({});
    const first = (await context.exec(h, 'seq 1 50000')).stdoutFacts.spillPath!;
    const dir = first.slice(0, first.lastIndexOf('/'));
    await context.moveSpill!(h, first, 'stdout');
    expect(readdirSync(dir)).toEqual([]);
    // A spill never moved goes with the handle too.
    const kept = (await context.exec(h, 'seq 1 50000')).stdoutFacts.spillPath!;
    expect(existsSync(kept)).toBe(true);
    await context.destroy(h);
    expect(existsSync(dir)).toBe(false);
    await expect(context.moveSpill!(h, kept, 'stdout')).rejects.toMatchObject({ code: 'E_UNKNOWN_HANDLE' });
  });
});

describeFakeCluster('kubernetes moveSpill on an exec protocol that cannot close stdin (v4)', () => {
  let cluster: FakeCluster;
  let context: KubernetesContext;
  beforeAll(async () => {
    cluster = await startFakeCluster({ protocols: ['v4.channel.k8s.io'] });
    context = cluster.context(policy);
  });
  afterAll(async () => {
    await context?.close();
    await cluster?.close();
  });

  it("the copy ends after the spill's size, exact, and the host copy is gone", async () => {
    const h = await context.spawn({});
    const spill = (await context.exec(h, 'seq 1 50000')).stdoutFacts.spillPath!;
    const moved = await context.moveSpill!(h, spill, 'stdout');
    expect(moved).toMatchObject({ bytes: SEQ_BYTES, lineBreaks: 50_000 });
    expect(existsSync(spill)).toBe(false);
    expect(await context.readFile(h, moved.path)).toBe(seqText());
    await context.destroy(h);
  });
});
