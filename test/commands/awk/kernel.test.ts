/**
 * awk, bc and expr inside the real shell kernel: pipelines feed them, and awk's command strings
 * (`system()`, `cmd | getline`, `print | cmd`) go through the kernel's own `sh -c`.
 */
import { describe, expect, it } from 'vitest';
import { createKernel } from '../../../src/kernel/kernel.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';

describe('awk, bc and expr in the kernel', () => {
  const kernel = createKernel({ fs: createMemoryFilesystem() });

  it('awk reads a pipeline and runs commands through the kernel', async () => {
    expect((await kernel.exec("echo 'a b c' | awk '{ print $2 }'")).stdout).toBe('b\n');
    expect((await kernel.exec('awk \'BEGIN { system("echo hi from sh") }\'')).stdout).toBe('hi from sh\n');
    expect((await kernel.exec('awk \'BEGIN { "echo x y" | getline v; print v }\'')).stdout).toBe('x y\n');
    const piped = await kernel.exec(
      'awk \'BEGIN { c = "while read l; do echo got $l; done"; print "one" | c; print "two" | c; close(c); print "after" }\'',
    );
    expect(piped.stdout).toBe('got one\ngot two\nafter\n');
    expect((await kernel.exec("printf '3\\n1\\n2\\n' | awk '{ s += $1 } END { print s }'")).stdout).toBe(
      '6\n',
    );
  });

  it('a command awk runs that the shell does not know fails as the shell says', async () => {
    const r = await kernel.exec('awk \'BEGIN { print system("no-such-command-x") }\'');
    expect(r.stdout).toBe('127\n');
    expect(r.stderr).toContain('no-such-command-x');
  });

  it('bc and expr answer in pipelines', async () => {
    expect((await kernel.exec("echo '2^10; scale=3; 1/3' | bc")).stdout).toBe('1024\n.333\n');
    const e = await kernel.exec("expr 6 '*' 7; expr 1 = 2; echo $?");
    expect(e.stdout).toBe('42\n0\n1\n');
  });

  it("an endless awk loop ends at the kernel's timeout", async () => {
    const r = await kernel.exec("awk 'BEGIN { while (1) x++ }'", { timeoutMs: 500 });
    expect(r.timedOut).toBe(true);
  });
});
