/**
 * Doctor check for the virtual context: it needs nothing of the host, so the check runs it (a
 * pipeline over a copy-on-write workspace, a diff) and looks at the state directory its sessions
 * live in (writable; how many sessions, how many served right now).
 * @module
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { createVirtualContext } from '../../contexts/virtual/index.js';
import { listSessions, liveOwner, stateRoot } from '../../contexts/virtual/sessions/index.js';
import { type DoctorCheck, messageOf, within } from './check.js';

const CHECK_MS = 10_000;

export async function checkVirtual(env: NodeJS.ProcessEnv): Promise<DoctorCheck> {
  const base = { id: 'virtual', title: 'virtual context' };
  const checks: DoctorCheck[] = [];
  try {
    checks.push(await within(CHECK_MS, 'the virtual shell', runShell()));
  } catch (error) {
    checks.push({ id: 'virtual-shell', title: 'shell', status: 'fail', detail: messageOf(error) });
  }
  checks.push(stateCheck(env));
  const failed = checks.find((c) => c.status === 'fail');
  if (failed) {
    return {
      ...base,
      status: 'fail',
      detail: `${failed.title}: ${failed.detail}`,
      ...(failed.fix ? { fix: failed.fix } : {}),
      checks,
    };
  }
  const warned = checks.find((c) => c.status === 'warn');
  return {
    ...base,
    status: warned ? 'warn' : 'ok',
    detail: warned
      ? `works; ${warned.title}: ${warned.detail}`
      : 'works here (no host process; no network unless --allow-url lists it; --context virtual)',
    ...(warned?.fix ? { fix: warned.fix } : {}),
    checks,
  };
}

async function runShell(): Promise<DoctorCheck> {
  const started = performance.now();
  const context = createVirtualContext({ files: { '/workspace/a.txt': 'one\ntwo\n' } });
  try {
    const handle = await context.spawn();
    const result = await context.exec(
      handle,
      'printf \'x\\ny\\n\' | grep y > b.txt && read -r l < b.txt && echo "$l"',
    );
    const diff = await context.diff(handle);
    const ms = Math.round(performance.now() - started);
    if (result.exitCode !== 0 || result.stdout !== 'y\n' || !diff.includes('+y')) {
      return {
        id: 'virtual-shell',
        title: 'shell',
        status: 'fail',
        detail: `a pipeline gave exit ${result.exitCode}, stdout ${JSON.stringify(result.stdout)}, stderr ${JSON.stringify(result.stderr.slice(0, 200))}`,
        fix: 'report this as a bug of berth',
      };
    }
    return {
      id: 'virtual-shell',
      title: 'shell',
      status: 'ok',
      detail: `a pipeline, a redirection and a diff of the change in ${ms} ms`,
    };
  } finally {
    await context.close();
  }
}

function stateCheck(env: NodeJS.ProcessEnv): DoctorCheck {
  const base = { id: 'virtual-sessions', title: 'sessions' };
  let root: string;
  try {
    root = stateRoot(env);
  } catch (error) {
    return {
      ...base,
      status: 'fail',
      detail: messageOf(error),
      fix: 'set BERTH_STATE_DIR to an absolute path',
    };
  }
  // The deepest existing ancestor must be writable for the state directory to be made.
  let probe = root;
  while (!existsSync(probe) && dirname(probe) !== probe) probe = dirname(probe);
  try {
    accessSync(probe, constants.W_OK);
  } catch {
    return {
      ...base,
      status: 'warn',
      detail: `${root} cannot be made (${probe} is not writable): berth mcp --context virtual cannot keep sessions`,
      fix: 'set BERTH_STATE_DIR to a writable directory',
    };
  }
  const sessions = listSessions(root);
  const served = sessions.filter((s) => liveOwner(s)?.kind === 'server').length;
  return {
    ...base,
    status: 'ok',
    detail: `kept in ${root}: ${sessions.length} session${sessions.length === 1 ? '' : 's'}${served > 0 ? `, ${served} served now` : ''}`,
  };
}
