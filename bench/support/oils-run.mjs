// One Oils case through a kernel over a fresh memory filesystem (the measure). No berth import:
// the bench feeds it the built package, the ratchet test the sources.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { oilsHelpers } from './oils-helpers.mjs';
import { grade } from './oils-spec.mjs';

/** Where the spec's `bin/` and `testdata/` appear inside the kernel's filesystem. */
export const VIRTUAL_ROOT = '/oils';
/** The helpers in `spec/bin/` that become registered commands. */
export const HELPERS = ['argv.py', 'printenv.py', 'stdout_stderr.py', 'read_from_fd.py'];

/** The spec's helper and data files, read once, seeded into each case's filesystem. */
export function specFiles(root) {
  const files = {};
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else files[`${VIRTUAL_ROOT}/${relative(root, p)}`] = { data: readFileSync(p), mode: st.mode & 0o777 };
    }
  };
  walk(join(root, 'spec', 'bin'));
  walk(join(root, 'spec', 'testdata'));
  return files;
}

/**
 * Run one case. `env`: `{ createKernel, encodeText, createFs(seed), files }` (files from
 * {@link specFiles}). Resolves with the outcome and its grade.
 */
export async function runOilsCase(env, kase, options = {}) {
  const { createKernel, encodeText, createFs } = env;
  const tmp = '/tmp/oils-case';
  const seed = { [tmp]: { type: 'directory' } };
  for (const [path, f] of Object.entries(env.files)) seed[path] = { content: f.data, mode: f.mode };
  const fs = createFs(seed);
  const kernel = createKernel({
    fs,
    cwd: tmp,
    scriptMode: 'stdin',
    env: {
      PATH: `${VIRTUAL_ROOT}/spec/bin:/usr/local/bin:/usr/bin:/bin`,
      LC_ALL: 'C.UTF-8',
      SH: 'bash',
      TMP: tmp,
      REPO_ROOT: VIRTUAL_ROOT,
    },
  });
  const helpers = oilsHelpers(encodeText);
  for (const name of HELPERS)
    kernel.defineCommand(name, helpers[name], { paths: [`${VIRTUAL_ROOT}/spec/bin/${name}`] });
  try {
    const r = await kernel.exec(kase.code, { timeoutMs: options.timeoutMs ?? 10_000 });
    const decode = (bytes, text) => (bytes === null ? text : Buffer.from(bytes).toString('utf8'));
    const outcome = {
      stdout: decode(r.stdoutBytes, r.stdout),
      stderr: decode(r.stderrBytes, r.stderr),
      status: r.exitCode ?? 128,
    };
    return { outcome, result: grade(kase, outcome) };
  } finally {
    await kernel.close?.();
  }
}
