/**
 * Doctor check for the per-command supervisor: it is built, it runs here, and it really owns a
 * command (a supervised `sh` exits with the status it was given).
 * @module
 */
import { LocalSubprocessRuntime } from '../../subprocess/local-runtime.js';
import { type DoctorCheck, messageOf, within } from './check.js';

const CHECK_MS = 10_000;

/** Run one command under the supervisor; `fail` with the fix when it cannot. */
export async function checkSupervisor(): Promise<DoctorCheck> {
  const base = { id: 'supervisor', title: 'process supervisor (berth-supervise)' };
  if (process.platform !== 'linux') {
    return {
      ...base,
      status: 'skip',
      detail: `Linux-only; on ${process.platform} commands run without an owner (double-forked daemons can outlive them)`,
    };
  }
  const runtime = new LocalSubprocessRuntime();
  try {
    // Builds it into the per-user cache when this is its first use.
    await runtime.prepare();
    const handle = runtime.spawn({
      argv: ['/bin/sh', '-c', 'exit 7'],
      cwd: '/',
      stdio: { stdin: 'ignore', stdout: 'ignore', stderr: { maxBytes: 4096 } },
      graceMs: 1000,
    });
    const outcome = await within(CHECK_MS, 'a supervised command', handle.done);
    if (outcome.exitCode !== 7) {
      const stderr = handle.collected.stderr?.readFrom(0).text.trim();
      return {
        ...base,
        status: 'fail',
        detail: `a supervised \`sh -c 'exit 7'\` ended with ${JSON.stringify(outcome)}${stderr ? `: ${stderr}` : ''}`,
        fix: `remove ${runtime.supervisorPath} so berth builds it again (needs a C compiler), or run with supervise: false`,
      };
    }
    return {
      ...base,
      status: 'ok',
      detail: `${runtime.supervisorPath} owns every command: double-forked daemons stay in their tree, every process ends when berth dies, commands start with only fds 0-2`,
    };
  } catch (error) {
    const fix = (error as { fix?: unknown }).fix;
    return {
      ...base,
      status: 'fail',
      detail: messageOf(error),
      fix:
        typeof fix === 'string'
          ? fix
          : 'install a C compiler so berth can build it, or run with supervise: false',
    };
  } finally {
    await runtime.dispose();
  }
}
