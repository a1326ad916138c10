/**
 * The checksum, encoding and yq commands inside the real shell kernel: through pipes, with lists
 * written by one command and checked by another.
 */
import { describe, expect, it } from 'vitest';
import { createKernel } from '../../../src/kernel/kernel.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';

describe('checksum, encoding and yq commands in the kernel', () => {
  it('every basenc encoding round-trips a 40 kB stream through a pipe', async () => {
    const kernel = createKernel({ fs: createMemoryFilesystem() });
    for (const e of [
      'base64',
      'base64url',
      'base32',
      'base32hex',
      'base16',
      'base2msbf',
      'base2lsbf',
      'z85',
    ]) {
      const r = await kernel.exec(`seq 1 20000 | head -c 40000 | basenc --${e} | basenc --${e} -d | cksum`);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe((await kernel.exec('seq 1 20000 | head -c 40000 | cksum')).stdout);
    }
    expect((await kernel.exec('printf hello | base32 | base32 -d')).stdout).toBe('hello');
  });

  it('b2sum and cksum write lists that -c checks, and notice a changed file', async () => {
    const kernel = createKernel({ fs: createMemoryFilesystem() });
    const r = await kernel.exec(
      'mkdir /w && cd /w && echo a > a && echo b > b && b2sum -l 256 a b > sums && cksum -a sha256 a b > tagged && ' +
        'b2sum -c sums && cksum -c tagged && echo changed > b; b2sum -c --quiet sums; echo "status $?"',
    );
    expect(r.stdout).toBe('a: OK\nb: OK\na: OK\nb: OK\nb: FAILED\nstatus 1\n');
    expect(r.stderr).toBe('b2sum: WARNING: 1 computed checksum did NOT match\n');
  });

  it('yq reads YAML from a pipe and hands JSON to jq', async () => {
    const kernel = createKernel({ fs: createMemoryFilesystem() });
    const r = await kernel.exec(
      "printf 'items:\\n  - {name: a, n: 1}\\n  - {name: b, n: 2}\\n' | yq -o json '.items' | jq -c 'map(.n) | add'",
    );
    expect(r.stdout).toBe('3\n');
    expect((await kernel.exec("printf 'a: 1\\n---\\na: 2\\n' | yq '.a' | paste -sd,")).stdout).toBe(
      '1,---,2\n',
    );
  });
});
