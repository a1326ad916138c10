/**
 * The text commands inside the real shell kernel: pipelines between them end as bash's do
 * (`yes | head`), shared standard input is handed on, files land in the virtual filesystem, and
 * the kernel's timeout ends a command that would run forever.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createKernel } from '../../../src/kernel/kernel.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';

describe('text commands in the kernel', () => {
  const fs = createMemoryFilesystem();
  const kernel = createKernel({ fs });
  // mkdir belongs to the file commands; the directory is made directly.
  beforeAll(() => fs.mkdir('/tmp', { recursive: true }));

  it('yes | head ends, and the pipeline status is head’s', async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
    const r = await kernel.exec('yes | head -n 3; echo "status ${PIPESTATUS[*]}"');
    expect(r.stdout).toBe('y\ny\ny\nstatus 141 0\n');
  });

  it('a pipeline of text commands gives what bash and coreutils give', async () => {
    const r = await kernel.exec(
      "printf 'b 2\\na 10\\nc 2\\na 1\\n' | sort -k2,2n -k1,1 | uniq -c | sed 's/^ *//' | tr ' ' : | paste -sd, -",
    );
    expect(r.stdout).toBe('1:a:1,1:b:2,1:c:2,1:a:10\n');
    expect((await kernel.exec('seq 1000 | tail -n 2 | wc -l')).stdout).toBe('2\n');
    expect((await kernel.exec("seq -w 8 11 | tac | tr '\\n' ' '")).stdout).toBe('11 10 09 08 ');
  });

  // GNU head loses its read-ahead on a pipe (on a regular file it seeks back, as here): a
  // listed difference, in the reader's favour.
  it('head hands the rest of a shared input to the next command', async () => {
    const r = await kernel.exec("printf '1\\n2\\n3\\n' | { head -n 1; cat; }");
    expect(r.stdout).toBe('1\n2\n3\n');
  });

  it('tee and split write files of the virtual filesystem', async () => {
    const r = await kernel.exec(
      'cd /tmp && seq 5 | tee copy | split -l 2 - part_; cat part_ab; wc -l < copy',
    );
    expect(r.stdout).toBe('3\n4\n5\n');
    expect(new TextDecoder().decode(await fs.readFile('/tmp/part_ac'))).toBe('5\n');
  });

  it("tail -f runs until the kernel's timeout", async () => {
    await kernel.exec('echo first > /tmp/log');
    const r = await kernel.exec('tail -f /tmp/log', { timeoutMs: 300 });
    expect(r.timedOut).toBe(true);
    expect(r.stdout).toBe('first\n');
  });
});
