// One sandbox-session scenario, run in a process of its own so a test can run it as root and as an
// unprivileged user (`setpriv`), and SIGKILL it. Prints one JSON line.
//
// argv: <dist dir> <base dir> <scenario: flow | host | host-unsupervised> <marker> <sleep marker> <port>
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [dist, base, scenario, marker, sleepMarker, port] = process.argv.slice(2);
const { createProcessContext } = await import(join(dist, 'contexts/process/index.js'));
const { createSandboxPolicy } = await import(join(dist, 'sandbox/index.js'));

const workspace = join(base, 'ws');
const context = createProcessContext({
  sandbox: createSandboxPolicy({ writableRoots: [workspace], network: 'deny' }),
  session: true,
  killGraceMs: 1000,
  // Without the per-command supervisor, nothing but the session's holder ends a command when the
  // host is SIGKILLed (a session command's bubblewrap has no parent-death signal).
  supervise: scenario !== 'host-unsupervised',
});

// A one-connection-at-a-time HTTP server in core Perl (no Python for every user here). It reads the
// request before it answers: closing a socket with unread bytes resets the connection, and curl then
// fails (exit 56) although the answer arrived.
const server = `exec perl -MIO::Socket::INET -e '$s = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => ${port}, Listen => 5, ReuseAddr => 1) or die "listen: $!"; $| = 1; print "listening\\n"; while ($c = $s->accept) { while (<$c>) { last if /^\\r?$/ } print $c "HTTP/1.0 200 OK\\r\\n\\r\\nhello from the session\\n"; close $c }' ${marker}`;
const curl = `curl -sS --max-time 5 http://127.0.0.1:${port}/`;

/** Pids of this process's descendants whose argv is exactly `berth-session` (the holders). */
function holders() {
  const parents = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {}
  }
  const found = [];
  for (const pid of parents.keys()) {
    let up = parents.get(pid);
    while (up !== undefined && up > 1 && up !== process.pid) up = parents.get(up);
    if (up !== process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '') === 'berth-session')
        found.push(pid);
    } catch {}
  }
  return found;
}

/** How many live processes carry `word` in their argv (this one aside). */
function carrying(word) {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state !== 'Z' && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(word)) count += 1;
    } catch {}
  }
  return count;
}

/** The handle's session /tmp directories on the host. */
function sessionTmpDirs(handle) {
  const privateBase = join(realpathSync(tmpdir()), `berth-${process.getuid()}`);
  const found = [];
  for (const owner of readdirSync(privateBase)) {
    if (!owner.startsWith('berth-process-')) continue;
    for (const name of readdirSync(join(privateBase, owner))) {
      if (name.startsWith(`tmp-${handle.id}-`)) found.push(join(privateBase, owner, name));
    }
  }
  return found;
}

/**
 * The first answer of the server once its log says it listens. The wait is bounded by time, not by a
 * count of tries (a loaded machine starts Perl slowly); a failure says what the task and curl said.
 */
async function untilServed(handle, task) {
  const deadline = Date.now() + 60_000;
  let log = '';
  while (Date.now() < deadline) {
    log = readFileSync(task.outputPath, 'utf8');
    if (log.includes('listening\n')) break;
    const exited = await context.waitBackground(handle, task.id, { timeoutMs: 50 });
    if (exited) throw new Error(`the server ended before it listened: ${JSON.stringify({ exited, log })}`);
  }
  const result = await context.exec(handle, curl);
  if (result.exitCode !== 0) throw new Error(`the server never answered: ${JSON.stringify({ log, result })}`);
  return result;
}

const handle = await context.spawn({ cwd: workspace });
const out = {};
if (scenario === 'host' || scenario === 'host-unsupervised') {
  await context.execBackground(handle, `sleep ${sleepMarker}`);
  await context.exec(handle, `(setsid sleep ${sleepMarker} > /dev/null 2>&1 &)`);
  // An exec still running when the host dies, deaf to TERM: the end of the session ends it.
  void context.exec(handle, `trap '' TERM; sleep ${sleepMarker}`);
  await context.exec(handle, `until [ "$(pgrep -fc '^sleep ${sleepMarker}')" -ge 3 ]; do sleep 0.05; done`, {
    timeoutMs: 20_000,
  });
  out.holders = holders();
  process.stdout.write(`${JSON.stringify(out)}\n`);
  setInterval(() => {}, 1000);
} else {
  const task = await context.execBackground(handle, `echo $$; ${server}`);
  out.served = await untilServed(handle, task);
  out.ps = (await context.exec(handle, 'ps -eo pid,args')).stdout;
  out.status = (
    await context.exec(handle, 'grep -E "^(CapEff|NoNewPrivs|Seccomp):" /proc/self/status')
  ).stdout;
  out.id = (await context.exec(handle, 'id -u')).stdout.trim();
  await context.exec(handle, 'echo shared > /tmp/one');
  out.tmp = await context.exec(handle, 'cat /tmp/one');
  out.tmpDirsOpen = sessionTmpDirs(handle).length;
  out.daemon = await context.exec(handle, `(setsid sleep ${sleepMarker} > /dev/null 2>&1 &); echo started`);
  out.holdersOpen = holders().length;
  out.daemonsOpen = carrying(sleepMarker);

  const other = await context.spawn({ cwd: workspace });
  out.otherPs = (await context.exec(other, 'ps -eo args')).stdout;
  out.otherCurl = await context.exec(other, curl);
  out.otherTmp = await context.exec(other, 'cat /tmp/one');
  await context.destroy(other);

  const taskPid = readFileSync(task.outputPath, 'utf8').split('\n', 1)[0];
  out.taskPid = taskPid;
  out.kill = await context.exec(handle, `kill ${taskPid}`);
  out.taskExit = await context.waitBackground(handle, task.id, { timeoutMs: 10_000 });
  out.signalled = await context.exec(handle, 'kill -TERM $$');

  await context.destroy(handle);
  out.holdersAfter = holders().length;
  out.daemonsAfter = carrying(sleepMarker);
  out.tmpDirsAfter = sessionTmpDirs(handle).length;
  await context.close();
  process.stdout.write(`${JSON.stringify(out)}\n`);
}
