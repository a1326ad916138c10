/**
 * Limits and hostile input: every limit ends the call with a message naming it and saying how to
 * raise it; the call's timeout holds against synchronous work (the host's timers keep firing
 * while it runs: measured in this process's CPU time between two ticks of a 5 ms timer, so a
 * loaded machine's scheduling does not count); recursion and fork bombs end cleanly.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell scripts, `${x}` is bash's
import { describe, expect, it } from 'vitest';
import { createKernel, type KernelLimits, type KernelOptions } from '../../src/kernel/index.js';
import { ByteBudget, createMemoryFilesystem } from '../../src/vfs/index.js';

function kernel(options: Partial<KernelOptions> = {}, budget?: ByteBudget) {
  const fs = createMemoryFilesystem({ files: { '/work': { type: 'directory' } }, budget });
  return createKernel({ fs, cwd: '/work', ...options });
}

async function run(script: string, options: Partial<KernelOptions> = {}, timeoutMs = 20_000) {
  const k = kernel(options);
  try {
    return await k.exec(script, { timeoutMs });
  } finally {
    k.close();
  }
}

describe('limits', () => {
  const cases: [keyof KernelLimits, string, Partial<KernelLimits>][] = [
    ['maxCallDepth', 'f() { f; }; f', {}],
    ['maxSubshellDepth', 'f() { ( f ); }; f', { maxSubshellDepth: 50 }],
    ['maxCommands', 'while :; do :; done', { maxCommands: 5000 }],
    ['maxBraceExpansion', 'echo {1..100}{1..100}{1..100}{1..100}', {}],
    ['maxStringBytes', 'x=a; while :; do x=$x$x; done', { maxStringBytes: 1 << 20 }],
    ['maxHeredocBytes', 'x=$(printf "%*s" 5000 ""); eval "cat <<E\n$x\nE"', { maxHeredocBytes: 1000 }],
    [
      'maxMemoryBytes',
      'x=$(printf "%*s" 100000 ""); a=(); for i in {1..100}; do a+=("$x"); done',
      { maxMemoryBytes: 1_000_000 },
    ],
    ['maxArrayElements', 'for ((i=0;;i++)); do a[i]=1; done', { maxArrayElements: 1000 }],
    ['maxProcesses', 'for i in {1..500}; do { while :; do :; done; } & done; wait', { maxProcesses: 50 }],
  ];
  for (const [limit, script, limits] of cases) {
    it(`${limit} ends the call and says how to raise it`, async () => {
      const r = await run(script, { limits });
      expect(r.limit).toBe(limit);
      expect(r.exitCode).not.toBe(0);
      expect(r.stderr).toContain(`limits.${limit}`);
      expect(r.stderr).toContain(`createKernel({ limits: { ${limit}: N } })`);
    });
  }

  it('the VFS budget: writes fail as on a full disk, saying which budget and how to raise it', async () => {
    const k = kernel({}, new ByteBudget({ maxBytes: 15_000 }));
    const r = await k.exec(
      'x=$(printf "%*s" 10000 ""); for i in 1 2; do echo "$x" > f$i || echo failed $i; done',
    );
    expect(r.stdout).toBe('failed 2\n');
    expect(r.stderr).toContain('No space left on device');
    expect(r.stderr).toContain('VFS budget');
    expect(r.stderr).toContain('ByteBudget');
  });

  it('rejects an unknown limit with the closest name', () => {
    expect(() => kernel({ limits: { maxCallDeth: 5 } as Partial<KernelLimits> })).toThrow(/maxCallDepth/);
  });

  it('a limit reached inside a subshell or substitution ends the whole call', async () => {
    const r = await run('x=$(f() { f; }; f); echo never', {});
    expect(r.limit).toBe('maxCallDepth');
    expect(r.stdout).toBe('');
  });
});

/** Run `script` with a timeout while a 5 ms host timer measures the longest CPU stretch between its ticks. */
async function timed(script: string, timeoutMs: number) {
  const k = kernel();
  let last = process.cpuUsage();
  let longest = 0;
  const timer = setInterval(() => {
    const now = process.cpuUsage();
    longest = Math.max(longest, (now.user - last.user + now.system - last.system) / 1000);
    last = now;
  }, 5);
  const started = performance.now();
  try {
    const r = await k.exec(script, { timeoutMs });
    return { r, wall: performance.now() - started, longest };
  } finally {
    clearInterval(timer);
    k.close();
  }
}

describe('the timeout against synchronous work', () => {
  const traps: [string, string][] = [
    ['an empty loop', 'while :; do :; done'],
    ['a huge printf width', "printf '%*s' 2000000000 | while read -r -N 4096 c; do :; done"],
    ['a giant brace expansion', 'while :; do echo {1..999999} >/dev/null; done'],
    [
      'a catastrophic regular expression',
      'x=$(printf "%*s" 40 "")b; x=${x// /a}; while :; do [[ $x =~ ^(a+)+$ ]]; [[ $x =~ (a|aa)*c ]]; done',
    ],
    [
      'a backtracking-shaped glob',
      'x=$(printf "%*s" 60 ""); x=${x// /a}; while :; do case $x in *a*a*a*a*a*a*a*a*b) ;; esac; done',
    ],
    ['pattern substitution over a megabyte', 's=$(printf "%*s" 1000000 ""); while :; do t=${s//?/x}; done'],
    ['a pipeline of loops', 'while :; do echo yes; done | while read l; do :; done'],
    ['array growth', 'for ((i=0;;i++)); do a[i]=$i; done'],
  ];
  for (const [name, script] of traps) {
    it(`${name}: 124 on time, the host's timers firing throughout`, async () => {
      const { r, wall, longest } = await timed(script, 300);
      expect(r.exitCode).toBe(124);
      expect(r.timedOut).toBe(true);
      // A stretch as long as the timeout itself would mean the host's timers starved; the bound is
      // far above a GC pause on a loaded machine and far below a loop that never yields.
      expect(longest).toBeLessThan(250);
      expect(wall).toBeLessThan(300 + 10_000);
    });
  }

  it('keeps the partial output of a timed-out call', async () => {
    const { r } = await timed('echo before; while :; do :; done', 200);
    expect(r.exitCode).toBe(124);
    expect(r.stdout).toBe('before\n');
  });

  it('an abort ends the call with 130 and runs the traps', async () => {
    const k = kernel();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const r = await k.exec('trap "echo trapped" INT EXIT; while :; do :; done', {
      signal: controller.signal,
      timeoutMs: 10_000,
    });
    expect(r.exitCode).toBe(130);
    expect(r.stdout).toContain('trapped');
  });
});

describe('hostile input', () => {
  for (const [shape, script] of [
    ['function', 'f() { f $(( $1 + 1 )); }; f 0'],
    ['eval', 'f() { eval f; }; f'],
    ['source', "echo '. ./self' > self; . ./self"],
    ['substitution', 'f() { echo $(f); }; f'],
  ]) {
    it(`deep recursion through ${shape} ends at a limit, not in a host stack overflow`, async () => {
      const r = await run(script as string);
      expect(r.exitCode).not.toBe(0);
      expect(r.limit).not.toBeNull();
      expect(r.stderr).toMatch(/limit reached/);
    });
  }

  it('deeply nested syntax is refused cleanly', async () => {
    const r = await run(`${'( '.repeat(5000)}echo x${' )'.repeat(5000)}`);
    expect(r.exitCode).not.toBe(0);
  });

  for (const bomb of [':(){ :|:& };:', ':(){ :|:& };:; wait', 'f() { f & f; }; f']) {
    it(`the fork bomb ${bomb} ends cleanly and leaves nothing running`, async () => {
      const r = await run(bomb, {}, 5000);
      expect([0, 1, 124]).toContain(r.exitCode);
      // What was alive when the call ended sees its end at its next step; then all is quiet.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const before = process.cpuUsage();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const after = process.cpuUsage(before);
      expect((after.user + after.system) / 1000).toBeLessThan(150);
    });
  }

  it('huge output is kept as head and tail, with the total counted', async () => {
    const r = await run(
      'printf \'%*s\' 20000000 | while IFS= read -r -N 65536 c || [ -n "$c" ]; do printf \'%s\' "$c"; done; echo end',
      {},
      60_000,
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdoutFacts.truncated).toBe(true);
    expect(r.stdoutFacts.bytesTotal).toBe(20_000_004);
    expect(r.stdout.endsWith('end\n')).toBe(true);
  });

  it('yes | head shape: the writer of a closed pipe ends with SIGPIPE', async () => {
    const r = await run('while :; do echo y; done | read x; echo "${PIPESTATUS[@]}"');
    expect(r.stdout).toBe('141 0\n');
  });
});
