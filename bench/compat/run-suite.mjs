// One compatibility runner for a suite: every case through berth's command (built package) and
// through the real GNU tool, in the same run; prints both pass rates, and with --write-ratchet
// rewrites the committed list of the cases berth passes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const decoder = new TextDecoder();

/** Run `argv` through the built command `handler` over an empty memory filesystem. */
export async function runBerth(dist, handler, c) {
  const { runStandalone } = await import(`${dist}/commands/standalone.js`);
  const { createMemoryFilesystem } = await import(`${dist}/vfs/index.js`);
  const fs = createMemoryFilesystem();
  await fs.mkdir('/work', { recursive: true });
  for (const [name, text] of Object.entries(c.files ?? {}))
    await fs.writeFile(`/work/${name}`, new TextEncoder().encode(text));
  const r = await runStandalone(handler, {
    argv: c.argv,
    fs,
    cwd: '/work',
    stdin: new TextEncoder().encode(c.stdin),
    env: { LC_ALL: 'C.UTF-8' },
  });
  return { status: r.status, stdout: decoder.decode(r.stdout), stderr: decoder.decode(r.stderr) };
}

/** Run `argv` through the real tool, in a fresh directory holding the case's files. */
export function runGnuTool(c) {
  const cwd = mkdtempSync(join(tmpdir(), 'berth-compat-'));
  try {
    for (const [name, text] of Object.entries(c.files ?? {})) writeFileSync(join(cwd, name), text);
    const r = spawnSync(c.argv[0], c.argv.slice(1), {
      cwd,
      input: c.stdin,
      env: { LC_ALL: 'C.UTF-8', PATH: '/usr/bin:/bin' },
      encoding: 'utf8',
      timeout: 10_000,
    });
    return { status: r.status ?? 128, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

export async function runSuite({ name, cases, grade, handler, dist, ratchetPath, writeRatchet }) {
  const passing = [];
  let gnuPassed = 0;
  const started = performance.now();
  for (const c of cases) {
    if (grade(c, await runBerth(dist, handler, c))) passing.push(c.id);
    if (grade(c, runGnuTool(c))) gnuPassed += 1;
  }
  if (writeRatchet) writeFileSync(ratchetPath, `${passing.join('\n')}\n`);
  const pct = (n) => `${((n / cases.length) * 100).toFixed(1)}%`;
  return {
    name,
    total: cases.length,
    berth: passing.length,
    gnu: gnuPassed,
    rows: [
      { name: `${name}: berth passes`, value: `${passing.length}/${cases.length} (${pct(passing.length)})` },
      {
        name: `${name}: GNU passes (same cases, same run)`,
        value: `${gnuPassed}/${cases.length} (${pct(gnuPassed)})`,
      },
      { name: `${name}: run time`, value: `${((performance.now() - started) / 1000).toFixed(1)} s` },
    ],
  };
}
