/**
 * The macOS preflight: sandbox-exec is there and applies a profile.
 * @module
 */
import { isExecutableFile } from './find-executable.js';
import { SANDBOX_EXEC_PATH } from './sandbox-exec-profile.js';
import { describeFailure, runTrial, unavailableReport } from './trial-run.js';
import type { SandboxCheck, SandboxReport } from './types.js';

/** Check sandbox-exec on this macOS host. */
export async function probeDarwin(timeoutMs: number): Promise<SandboxReport> {
  const checks: SandboxCheck[] = [];
  if (!isExecutableFile(SANDBOX_EXEC_PATH)) {
    const fix = 'restore the system sandbox-exec (it ships with macOS), or use the docker context';
    checks.push({
      id: 'sandbox-exec-binary',
      title: 'sandbox-exec executable',
      status: 'fail',
      detail: `${SANDBOX_EXEC_PATH} is missing or not executable`,
      fix,
    });
    return unavailableReport(checks, `${SANDBOX_EXEC_PATH} is missing`, fix, 'sandbox-exec');
  }
  checks.push({
    id: 'sandbox-exec-binary',
    title: 'sandbox-exec executable',
    status: 'ok',
    detail: SANDBOX_EXEC_PATH,
  });
  const trial = await runTrial(
    SANDBOX_EXEC_PATH,
    ['-p', '(version 1)(allow default)(deny network*)', '--', '/usr/bin/true'],
    timeoutMs,
  );
  const ok = trial.code === 0;
  const fix =
    'sandbox-exec refused a trivial profile; check whether this process already runs inside an App Sandbox (sandboxes do not nest)';
  checks.push({
    id: 'sandbox-exec-run',
    title: 'Trial sandbox',
    status: ok ? 'ok' : 'fail',
    detail: ok ? 'a trivial command ran under a generated profile' : describeFailure(trial),
    ...(ok ? {} : { fix }),
  });
  if (!ok) {
    return unavailableReport(checks, `sandbox-exec failed: ${describeFailure(trial)}`, fix, 'sandbox-exec');
  }
  return { platform: 'darwin', backend: 'sandbox-exec', available: true, networkIsolation: true, checks };
}
