/**
 * Jobs: `wait` (pids, job specs, `-n`, `-p var`), `jobs`, `kill` (to jobs and to the shell
 * itself), `disown`, and `fg`/`bg` (no job control here: `fg` waits for the job).
 * @module
 */
import { errorPrefix, writeStderr } from '../exec/messages.js';
import { SIGNAL_DESCRIPTIONS, SIGNALS } from '../runtime/control.js';
import type { Job } from '../runtime/jobs.js';
import type { Shell } from '../runtime/shell.js';
import { setVar } from '../runtime/vars.js';
import { complain, print, usageLine } from './support.js';
import { signalList, signalName } from './trap.js';
import type { Builtin } from './types.js';

function findJob(sh: Shell, spec: string): Job | undefined {
  if (spec.startsWith('%')) return sh.jobs.resolve(spec);
  const pid = Number.parseInt(spec, 10);
  return sh.jobs.byPid(pid);
}

/** Wait for a job, unless the call is cancelled. */
async function waitFor<T>(sh: Shell, promise: Promise<T>): Promise<T> {
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(sh.signal.reason);
    if (sh.signal.aborted) onAbort();
    else sh.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    if (onAbort !== undefined) sh.signal.removeEventListener('abort', onAbort);
  }
}

/**
 * A waited-for job that a signal ended: bash reports it (`  PID Hangup   cmd`), except for the
 * signals a script sends its jobs as a matter of course (INT, PIPE, TERM).
 */
async function reportKilled(sh: Shell, job: Job, status: number): Promise<void> {
  if (status <= 128) return;
  const name = Object.keys(SIGNALS).find((n) => SIGNALS[n] === status - 128);
  if (name === undefined || name === 'INT' || name === 'PIPE' || name === 'TERM') return;
  const description = SIGNAL_DESCRIPTIONS[name] ?? `Unknown signal ${name}`;
  await writeStderr(
    sh,
    `${errorPrefix(sh)}${String(job.pid).padStart(5)} ${description.padEnd(24)}${job.command}\n`,
  );
}

export const wait: Builtin = {
  name: 'wait',
  synopsis: 'wait [-fn] [-p var] [id ...]',
  help: "Wait for the given jobs or pids (default: all) and return the last one's status; -n waits for the next one to end.",
  async run({ sh, argv }) {
    let next = false;
    let pVar: string | undefined;
    let i = 1;
    for (; i < argv.length; i += 1) {
      const a = argv[i] as string;
      if (a === '-n') next = true;
      else if (a === '-f') continue;
      else if (a === '-p') {
        pVar = argv[i + 1];
        i += 1;
      } else if (a === '--') {
        i += 1;
        break;
      } else if (a.startsWith('-') && a.length > 1) {
        await complain(sh, 'wait', `${a.slice(0, 2)}: invalid option`);
        await usageLine(sh, 'wait', 'wait [-fn] [-p var] [id ...]');
        return 2;
      } else break;
    }
    const ids = argv.slice(i);
    if (next) {
      const candidates =
        ids.length > 0
          ? ids.map((s) => findJob(sh, s)).filter((j): j is Job => j !== undefined)
          : sh.jobs.running();
      const pending = candidates.filter((j) => !j.waited);
      if (pending.length === 0) {
        for (const id of ids)
          if (findJob(sh, id) === undefined) await complain(sh, 'wait', `${id}: no such job`);
        return 127;
      }
      const winner = await waitFor(sh, Promise.race(pending.map((j) => j.done.then(() => j))));
      const status = await winner.done;
      winner.waited = true;
      sh.jobs.remove(winner);
      if (pVar !== undefined) setVar(sh, pVar, String(winner.pid));
      return status;
    }
    if (ids.length === 0) {
      for (const j of sh.jobs.own()) {
        await waitFor(sh, j.done);
        j.waited = true;
        sh.jobs.remove(j);
      }
      return 0;
    }
    let status = 0;
    for (const id of ids) {
      const found = findJob(sh, id);
      const job = found !== undefined && sh.jobs.isInherited(found) ? undefined : found;
      if (job === undefined) {
        const finished = /^[0-9]+$/.test(id) ? sh.jobs.finishedStatus(Number(id)) : undefined;
        if (finished !== undefined) {
          status = finished;
          continue;
        }
        if (id.startsWith('%')) await complain(sh, 'wait', `${id}: no such job`);
        else if (/^[0-9]+$/.test(id)) await complain(sh, 'wait', `pid ${id} is not a child of this shell`);
        else {
          await complain(sh, 'wait', `\`${id}': not a pid or valid job spec`);
          status = 1;
          continue;
        }
        status = 127;
        continue;
      }
      status = await waitFor(sh, job.done);
      job.waited = true;
      sh.jobs.remove(job);
      if (pVar !== undefined) setVar(sh, pVar, String(job.pid));
      await reportKilled(sh, job, status);
    }
    return status;
  },
};

function stateText(j: Job): string {
  if (j.status === undefined) return 'Running';
  if (j.signal !== undefined)
    return j.signal === 'KILL' ? 'Killed' : j.signal === 'TERM' ? 'Terminated' : j.signal;
  return j.status === 0 ? 'Done' : `Exit ${j.status}`;
}

export const jobs: Builtin = {
  name: 'jobs',
  synopsis: 'jobs [-lnprs] [jobspec ...] or jobs -x command [args]',
  help: 'List the jobs of this shell (-l with pids, -p pids only, -r running, -s stopped).',
  async run({ sh, argv }) {
    const flags = argv
      .slice(1)
      .filter((a) => a.startsWith('-'))
      .join('');
    const specs = argv.slice(1).filter((a) => !a.startsWith('-'));
    let list =
      specs.length === 0
        ? sh.jobs.all()
        : specs.map((s) => findJob(sh, s)).filter((j): j is Job => j !== undefined);
    if (flags.includes('r')) list = list.filter((j) => j.status === undefined);
    if (flags.includes('s')) list = [];
    let out = '';
    for (const j of list) {
      if (flags.includes('p')) {
        out += `${j.pid}\n`;
        continue;
      }
      const mark = j.id === sh.jobs.current ? '+' : j.id === sh.jobs.previous ? '-' : ' ';
      const state = stateText(j).padEnd(22);
      const pid = flags.includes('l') ? ` ${j.pid}` : ' ';
      out += `[${j.id}]${mark}${pid} ${state}  ${j.command}${j.status === undefined ? ' &' : ''}\n`.replace(
        `]${mark}  `,
        `]${mark}  `,
      );
      if (j.status !== undefined) j.reported = true;
    }
    await print(sh, out);
    for (const j of list) if (j.status !== undefined && specs.length === 0) sh.jobs.remove(j);
    return 0;
  },
};

export const kill: Builtin = {
  name: 'kill',
  synopsis: 'kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]',
  help: 'Send a signal (default TERM) to jobs or pids; -l lists signal names.',
  async run({ sh, argv }) {
    const args = argv.slice(1);
    if (args.length === 0) {
      await usageLine(
        sh,
        'kill',
        'kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]',
      );
      return 2;
    }
    if (args[0] === '-l' || args[0] === '-L') {
      if (args.length === 1) {
        await print(sh, signalList());
        return 0;
      }
      // Each spec on its own line; a bad one is reported and the rest still listed.
      let status = 0;
      for (const a of args.slice(1)) {
        if (/^[0-9]+$/.test(a)) {
          const n = Number.parseInt(a, 10);
          const num = n > 128 ? n - 128 : n;
          const name = num === 0 ? 'EXIT' : Object.entries(SIGNALS).find(([, v]) => v === num)?.[0];
          if (name === undefined) {
            await complain(sh, 'kill', `${a}: invalid signal specification`);
            status = 1;
            continue;
          }
          await print(sh, `${name}\n`);
        } else {
          const name = signalName(a);
          if (name === 'EXIT') {
            await print(sh, '0\n');
            continue;
          }
          if (name === undefined || name === 'ERR' || name === 'DEBUG' || name === 'RETURN') {
            await complain(sh, 'kill', `${a}: invalid signal specification`);
            status = 1;
            continue;
          }
          await print(sh, `${SIGNALS[name]}\n`);
        }
      }
      return status;
    }
    let signal = 'TERM';
    let i = 0;
    const first = args[0] as string;
    if (first === '-s' || first === '-n') {
      const spec = args[1];
      const name = spec === undefined ? undefined : signalName(spec);
      if (name === undefined) {
        await complain(sh, 'kill', `${spec ?? ''}: invalid signal specification`);
        return 1;
      }
      signal = name;
      i = 2;
    } else if (first.startsWith('-') && first !== '--') {
      const name = signalName(first.slice(1));
      if (name === undefined) {
        await complain(sh, 'kill', `${first.slice(1)}: invalid signal specification`);
        return 1;
      }
      signal = name;
      i = 1;
    } else if (first === '--') i = 1;
    const targets = args.slice(i);
    if (targets.length === 0) {
      await usageLine(
        sh,
        'kill',
        'kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]',
      );
      return 2;
    }
    let status = 0;
    for (const t of targets) {
      const target = /^[0-9]+$/.test(t) ? sh.rt.shells.get(Number(t)) : undefined;
      if (
        target !== undefined &&
        target.jobs.byPid(Number(t)) === undefined &&
        sh.jobs.byPid(Number(t)) === undefined
      ) {
        // A shell of this kernel (this one, or one of a nested process): deliver at its next step.
        if (signal !== 'EXIT') target.pendingSignals.push(signal);
        continue;
      }
      const job = findJob(sh, t);
      if (job === undefined) {
        if (t.startsWith('%')) await complain(sh, 'kill', `${t}: no such job`);
        else if (/^-?[0-9]+$/.test(t)) await complain(sh, 'kill', `(${t}) - No such process`);
        else await complain(sh, 'kill', `${t}: arguments must be process or job IDs`);
        status = 1;
        continue;
      }
      if (signal === '0' || signal === 'EXIT') continue;
      job.kill(signal);
    }
    return status;
  },
};

export const disown: Builtin = {
  name: 'disown',
  synopsis: 'disown [-h] [-ar] [jobspec ... | pid ...]',
  help: 'Remove jobs from the job table (they keep running).',
  async run({ sh, argv }) {
    const specs = argv.slice(1).filter((a) => !a.startsWith('-'));
    const all = argv.includes('-a');
    const list =
      all || specs.length === 0
        ? all
          ? sh.jobs.all()
          : [sh.jobs.current === undefined ? undefined : sh.jobs.byId(sh.jobs.current)]
        : specs.map((s) => findJob(sh, s));
    let status = 0;
    for (const [k, j] of list.entries()) {
      if (j === undefined) {
        await complain(sh, 'disown', `${specs[k] ?? 'current'}: no such job`);
        status = 1;
        continue;
      }
      sh.jobs.remove(j);
    }
    return status;
  },
};

export const fg: Builtin = {
  name: 'fg',
  synopsis: 'fg [job_spec]',
  help: 'Bring a job to the foreground (here: wait for it).',
  async run({ sh, argv }) {
    const spec = argv[1] ?? '%%';
    const job = findJob(sh, spec);
    if (job === undefined) {
      await complain(sh, 'fg', `${argv[1] ?? 'current'}: no such job`);
      return 1;
    }
    await print(sh, `${job.command}\n`);
    const status = await waitFor(sh, job.done);
    sh.jobs.remove(job);
    return status;
  },
};

export const bg: Builtin = {
  name: 'bg',
  synopsis: 'bg [job_spec ...]',
  help: 'Resume jobs in the background (they already run there).',
  async run({ sh, argv }) {
    const spec = argv[1] ?? '%%';
    const job = findJob(sh, spec);
    if (job === undefined) {
      await complain(sh, 'bg', `${argv[1] ?? 'current'}: no such job`);
      return 1;
    }
    return 0;
  },
};
