/**
 * The archive commands inside the real shell kernel: archives made and unpacked through pipes,
 * names fed from `find`, and streams through gzip both ways.
 */
import { describe, expect, it } from 'vitest';
import { createKernel } from '../../../src/kernel/kernel.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';

describe('archive commands in the kernel', () => {
  it('tar czf, then tar xzvf after the tree is gone, gives the tree back', async () => {
    const kernel = createKernel({ fs: createMemoryFilesystem() });
    const r = await kernel.exec(
      'mkdir -p /w/src/sub && cd /w && echo hi > src/a && printf x > src/sub/b && ln -s a src/l && ' +
        'tar czf out.tgz src && rm -rf src && tar xzvf out.tgz && cat src/a src/sub/b && readlink src/l',
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('src/\nsrc/a\nsrc/l\nsrc/sub/\nsrc/sub/b\nhi\nxa\n');
    expect(r.exitCode).toBe(0);
  });

  it('find | tar -T - | tar t lists what find found, through pipes', async () => {
    const kernel = createKernel({ fs: createMemoryFilesystem() });
    const r = await kernel.exec(
      "mkdir -p /w/d && cd /w && touch d/a.txt d/b.md d/c.txt && find d -name '*.txt' | sort | tar cf - -T - | tar tf -",
    );
    expect(r.stdout).toBe('d/a.txt\nd/c.txt\n');
  });

  it('seq | gzip | zcat streams, and gzip -c | gzip -dc keeps every byte', async () => {
    const kernel = createKernel({ fs: createMemoryFilesystem() });
    expect((await kernel.exec('seq 200000 | gzip -1 | zcat | tail -n 1')).stdout).toBe('200000\n');
    expect((await kernel.exec('yes abc | head -c 5000000 | gzip -c | gzip -dc | wc -c')).stdout).toBe(
      '5000000\n',
    );
    // zcat of a large stream into head ends early (the pipe closes), as GNU's does.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
    const r = await kernel.exec('yes | head -c 20000000 | gzip | zcat | head -c 3; echo " ${PIPESTATUS[4]}"');
    expect(r.stdout).toBe('y\ny 0\n');
  });
});
