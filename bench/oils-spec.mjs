// The Oils spec tests (`shared/compat/oils/spec`, graded as bash) run through the kernel: pass
// rates per file and in total, and for each failure whether a missing command explains it.
//
//   node bench/oils-spec.mjs [--file NAME]... [--case FILE#N] [--verbose] [--json OUT] [--failures]
//                            [--host-commands] [--write-ratchet]
//
// The kernel and a memory filesystem come from the built package (dist/), or from the modules
// named by BERTH_KERNEL_MODULE and BERTH_MEMFS_MODULE.
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compatDir, readRatchet } from './compat/suites.mjs';
import { oilsHelpers } from './support/oils-helpers.mjs';
import { HELPERS, runOilsCase, specFiles } from './support/oils-run.mjs';
import { caseId, grade, gradedSpecFiles } from './support/oils-spec.mjs';

process.on('unhandledRejection', (e) => {
  console.error('UNHANDLED', e?.stack ?? e);
});
const here = dirname(fileURLToPath(import.meta.url));
export const OILS_ROOT = process.env.BERTH_OILS_ROOT ?? join(compatDir(join(here, '..')), 'oils');
/** The committed list of the cases the kernel passes (test/kernel/oils-ratchet.test.ts keeps it). */
export const RATCHET = join(here, 'compat', 'oils.passing.txt');

export const title = 'Oils spec tests through the kernel (graded as bash)';

async function load() {
  const kernelModule = process.env.BERTH_KERNEL_MODULE ?? join(here, '..', 'dist', 'kernel', 'index.js');
  const memfsModule = process.env.BERTH_MEMFS_MODULE ?? join(here, '..', 'dist', 'vfs', 'index.js');
  const k = await import(kernelModule);
  const m = await import(memfsModule);
  const text = await import(join(dirname(kernelModule), '..', 'commands', 'byte-text.js'));
  const createFs = (files) => m.createMemoryFilesystem({ files });
  return { createKernel: k.createKernel, encodeText: text.encodeText, createFs };
}

/**
 * Development aid: the commands the kernel lacks run on the host (through the external gate and
 * the process context), over the host filesystem, so kernel bugs hidden behind a missing command
 * show. Not the measure (that is the kernel's own commands).
 */
async function runCaseOnHost(env, kase, options) {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'oils-host-'));
  try {
    const root = OILS_ROOT;
    const path = `${root}/spec/bin:/usr/local/bin:/usr/bin:/bin:/root/.pyenv/versions/2.7.18/bin`;
    env.hostContext ??= env.process.createProcessContext();
    const handle = await env.hostContext.spawn({ cwd: dir });
    const onHost = (argv) => {
      const name = argv[0];
      if (name === undefined || name.includes('/')) return name !== undefined && existsSync(name);
      return path.split(':').some((d) => existsSync(join(d, name)));
    };
    const kernel = env.createKernel({
      fs: env.contained({ root: '/' }),
      cwd: dir,
      scriptMode: 'stdin',
      env: { PATH: path, LC_ALL: 'C.UTF-8', SH: 'bash', TMP: dir, REPO_ROOT: root },
      external: { context: env.hostContext, handle, allow: onHost },
    });
    const helpers = oilsHelpers(env.encodeText);
    for (const name of HELPERS)
      kernel.defineCommand(name, helpers[name], { paths: [`${root}/spec/bin/${name}`] });
    const r = await kernel.exec(kase.code, { timeoutMs: options.timeoutMs ?? 10_000 });
    env.hostHandles ??= [];
    env.hostHandles.push(handle);
    const decode = (bytes, text) => (bytes === null ? text : Buffer.from(bytes).toString('utf8'));
    const outcome = {
      stdout: decode(r.stdoutBytes, r.stdout),
      stderr: decode(r.stderrBytes, r.stderr),
      status: r.exitCode ?? 128,
    };
    return { outcome, result: grade(kase, outcome) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Run one case; resolves with the outcome and its grade. */
export async function runCase(env, kase, options = {}) {
  if (options.hostCommands) return runCaseOnHost(env, kase, options);
  return runOilsCase(env, kase, options);
}

/** Commands the case asked for that the kernel lacks (but bash's system has). */
function missingCommands(stderr) {
  const out = new Set();
  for (const m of stderr.matchAll(/(?:^|: )([A-Za-z0-9_.+-]+): command not found/gm)) {
    const name = m[1];
    if (['/usr/bin', '/bin'].some((d) => existsSync(join(d, name)))) out.add(name);
  }
  return [...out];
}

export async function runAll(options = {}) {
  const env = { ...(await load()), files: specFiles(OILS_ROOT) };
  if (options.hostCommands) {
    const base = dirname(process.env.BERTH_KERNEL_MODULE ?? join(here, '..', 'dist', 'kernel', 'index.js'));
    env.process = await import(join(base, '..', 'contexts', 'process', 'index.js'));
    env.contained = (await import(join(base, '..', 'vfs', 'index.js'))).createContainedFilesystem;
  }
  const specs = gradedSpecFiles(join(OILS_ROOT, 'spec'));
  const perFile = [];
  const failures = [];
  const passing = [];
  let total = 0;
  let passed = 0;
  for (const spec of specs) {
    if (options.files && !options.files.some((f) => spec.file.startsWith(f))) continue;
    let filePassed = 0;
    for (let index = 0; index < spec.cases.length; index += 1) {
      const id = caseId(spec.file, index);
      if (options.only && !options.only.includes(id)) continue;
      const kase = spec.cases[index];
      let res;
      try {
        res = await runCase(env, kase, options);
      } catch (error) {
        res = {
          outcome: { stdout: '', stderr: String(error?.stack ?? error), status: -1 },
          result: { pass: false, problems: ['crash'], expected: {} },
        };
      }
      total += 1;
      if (res.result.pass) {
        passed += 1;
        filePassed += 1;
        passing.push(id);
      } else {
        failures.push({
          id,
          name: kase.name,
          problems: res.result.problems,
          missing: missingCommands(res.outcome.stderr),
          expected: res.result.expected,
          got: res.outcome,
          code: kase.code,
        });
      }
      options.onCase?.(id, res.result.pass);
    }
    perFile.push({ file: spec.file, passed: filePassed, total: spec.cases.length });
  }
  return { total, passed, perFile, failures, passing };
}

export async function run() {
  const r = await runAll();
  const rows = r.perFile.map((f) => ({ name: f.file, value: `${f.passed}/${f.total}` }));
  const missing = r.failures.filter((f) => f.missing.length > 0).length;
  rows.push({ name: 'failures explained by a missing command', value: String(missing) });
  const rate = (100 * r.passed) / r.total;
  rows.push({
    name: 'total',
    value: `${r.passed}/${r.total} = ${rate.toFixed(1)}%`,
    goal: '>= 94%',
    met: rate >= 94,
  });
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const files = [];
  const only = [];
  let json;
  let verbose = false;
  let showFailures = false;
  let hostCommands = false;
  let writeRatchet = false;
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '--file') files.push(args[++i]);
    else if (args[i] === '--case') only.push(args[++i]);
    else if (args[i] === '--json') json = args[++i];
    else if (args[i] === '--verbose') verbose = true;
    else if (args[i] === '--failures') showFailures = true;
    else if (args[i] === '--host-commands') hostCommands = true;
    else if (args[i] === '--write-ratchet') writeRatchet = true;
  }
  const r = await runAll({
    files: files.length ? files : undefined,
    only: only.length ? only : undefined,
    hostCommands,
  });
  for (const f of r.perFile)
    if (f.total > 0) console.log(`${f.file.padEnd(34)} ${String(f.passed).padStart(4)}/${f.total}`);
  const missingCount = r.failures.filter((f) => f.missing.length > 0).length;
  const byCommand = new Map();
  for (const f of r.failures) for (const m of f.missing) byCommand.set(m, (byCommand.get(m) ?? 0) + 1);
  console.log(`\ntotal ${r.passed}/${r.total} = ${((100 * r.passed) / r.total).toFixed(1)}%`);
  console.log(
    `failures with a missing command: ${missingCount} (${[...byCommand]
      .sort((a, b) => b[1] - a[1])
      .map(([c, n]) => `${c} ${n}`)
      .join(', ')})`,
  );
  if (showFailures || verbose) {
    for (const f of r.failures) {
      console.log(
        `FAIL ${f.id} ${f.name} [${f.problems.join(',')}]${f.missing.length ? ` missing: ${f.missing.join(' ')}` : ''}`,
      );
      if (verbose) {
        console.log(f.code);
        console.log('  expected:', JSON.stringify(f.expected));
        console.log('  got:     ', JSON.stringify(f.got));
      }
    }
  }
  if (json) writeFileSync(json, JSON.stringify(r, null, 1));
  if (writeRatchet) {
    if (hostCommands || files.length || only.length) throw new Error('--write-ratchet needs a full pure run');
    // A case joins the list only when it passes twice (no timing luck in the ratchet).
    const again = await runAll({ only: r.passing });
    const kept = new Set(again.passing);
    const before = existsSync(RATCHET) ? readRatchet(RATCHET) : [];
    const lost = before.filter((id) => !kept.has(id));
    writeFileSync(RATCHET, `${r.passing.filter((id) => kept.has(id)).join('\n')}\n`);
    console.log(
      `ratchet: ${kept.size} cases written to ${RATCHET}${lost.length ? `; no longer passing: ${lost.join(' ')}` : ''}`,
    );
  }
}
