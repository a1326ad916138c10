// One overlay scenario, run in a process of its own so a test can run it as root and as an
// unprivileged user (`setpriv`): real tools change a workspace through a handle's kernel overlay,
// and the same commands run directly on a copy are the oracle. Prints one JSON line.
//
// argv: <dist dir> <base dir> <scenario>
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

const [dist, base, scenario] = process.argv.slice(2);
const { createProcessContext } = await import(join(dist, 'contexts/process/index.js'));
const { createSandboxPolicy } = await import(join(dist, 'sandbox/index.js'));

/** Every entry under `root`: type, mode, and content or target (git's own files by name only). */
function tree(root) {
  const out = {};
  const walk = (dir, rel) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const key = rel ? `${rel}/${name}` : name;
      const stat = lstatSync(path);
      const mode = (stat.mode & 0o7777).toString(8);
      if (stat.isSymbolicLink()) out[key] = `link ${readlinkSync(path)}`;
      else if (/^repo\/\.git\/(objects|logs)\//.test(key)) {
        // Commit objects hold timestamps: their names differ run to run (the tree is compared by hash).
      } else if (stat.isDirectory()) {
        out[key] = `dir ${mode}`;
        walk(path, key);
      } else if (key === 'repo/.git/index' || key === 'repo/.git/refs/heads/main') {
        out[key] = `file ${mode}`;
      } else out[key] = `file ${mode} ${readFileSync(path, 'utf8')}`;
    }
  };
  walk(root, '');
  return out;
}

function seed(dir) {
  mkdirSync(join(dir, 'src/deep'), { recursive: true });
  mkdirSync(join(dir, 'old-dir/inner'), { recursive: true });
  writeFileSync(join(dir, 'keep.txt'), 'keep\n');
  writeFileSync(join(dir, 'edit.txt'), 'one\ntwo\n');
  writeFileSync(join(dir, 'gone.txt'), 'bye\n');
  writeFileSync(join(dir, 'move-me.txt'), 'moving\n');
  writeFileSync(join(dir, 'run.sh'), 'echo run\n');
  writeFileSync(join(dir, 'src/deep/a.c'), 'int a;\n');
  writeFileSync(join(dir, 'old-dir/inner/x'), 'x\n');
}

const SCRIPT = [
  'set -e',
  'echo new > added.txt',
  'mkdir -p made/sub && echo deep > made/sub/f',
  'printf "one\\n2\\nthree\\n" > edit.txt',
  'rm gone.txt',
  'mv move-me.txt moved.txt',
  'mv old-dir new-dir',
  'chmod 755 run.sh',
  'ln -s keep.txt link-to-keep',
  'rm -r src/deep && mkdir src/deep && echo fresh > src/deep/b.c',
  // npm installs a local package: a link in node_modules and the lockfiles (its cache in /tmp).
  'mkdir app && cd app && printf \'{"name":"app","version":"1.0.0"}\\n\' > package.json',
  'mkdir -p lib && printf \'{"name":"lib","version":"1.0.0"}\\n\' > lib/package.json',
  'npm install --offline --no-audit --no-fund --loglevel=error --update-notifier=false --cache "/tmp/berth-npm-cache-$$" ./lib',
  'rm -rf "/tmp/berth-npm-cache-$$" && cd ..',
  'git init -q -b main repo && cd repo && echo hello > readme && git add readme',
  'git -c user.name=t -c user.email=t@example.com commit -q -m first && git log --format=%s',
].join('\n');

const result = {};
const ws = join(base, 'ws');
const direct = join(base, 'direct');
const stateDir = join(base, 'state');
mkdirSync(ws);
seed(ws);
cpSync(ws, direct, { recursive: true });
const before = tree(ws);
const context = createProcessContext({
  workspaceRoot: ws,
  sandbox: createSandboxPolicy({ writableRoots: [ws], home: join(base, 'home'), env: {} }),
  overlay: { stateDir },
  killGraceMs: 1000,
});
try {
  const handle = await context.spawn({ cwd: ws });
  if (scenario === 'commit' || scenario === 'discard') {
    const run = await context.exec(handle, SCRIPT, { env: { HOME: join(base, 'home') } });
    result.exec = { exitCode: run.exitCode, stdout: run.stdout, stderr: run.stderr };
    result.untouchedWhileOpen = JSON.stringify(tree(ws)) === JSON.stringify(before);
    result.sees = (await context.exec(handle, 'cat added.txt moved.txt; ls new-dir/inner')).stdout;
    result.changes = (await context.changes(handle)).map((c) => `${c.kind} ${c.path.slice(ws.length)}`);
    result.diff = await context.diff(handle, { paths: ['edit.txt'] });
    if (scenario === 'commit') {
      const committed = await context.commit(handle);
      result.applied = committed.applied.length;
      execFileSync('/bin/sh', ['-c', SCRIPT], {
        cwd: direct,
        env: { ...process.env, HOME: join(base, 'home') },
      });
      const [mine, theirs] = [tree(ws), tree(direct)];
      result.same = JSON.stringify(mine) === JSON.stringify(theirs);
      if (!result.same) {
        const keys = new Set([...Object.keys(mine), ...Object.keys(theirs)]);
        result.differs = [...keys].filter((key) => mine[key] !== theirs[key]);
      }
      const head = (dir) =>
        execFileSync('git', ['-C', join(dir, 'repo'), 'rev-parse', 'HEAD^{tree}'], {
          encoding: 'utf8',
        }).trim();
      result.sameGitTree = head(ws) === head(direct);
      result.gitLog = execFileSync('git', ['-C', join(ws, 'repo'), 'log', '--format=%s'], {
        encoding: 'utf8',
      });
      result.afterCommit = (await context.changes(handle)).length;
      result.stillRuns = (await context.exec(handle, 'cat added.txt')).stdout;
    } else {
      await context.discard(handle);
      result.same = JSON.stringify(tree(ws)) === JSON.stringify(before);
      result.afterDiscard = (await context.changes(handle)).length;
      result.seesAfterDiscard = (
        await context.exec(handle, 'cat gone.txt; ls added.txt 2>&1 || true')
      ).stdout;
    }
  } else if (scenario === 'conflict') {
    await context.exec(handle, 'echo mine > edit.txt');
    writeFileSync(join(ws, 'edit.txt'), 'theirs\n'); // a person edits it meanwhile
    try {
      await context.commit(handle);
      result.refused = false;
    } catch (error) {
      result.refused = true;
      result.code = error.code;
      result.message = error.message;
    }
    result.workspaceKept = readFileSync(join(ws, 'edit.txt'), 'utf8');
  } else if (scenario === 'fork') {
    await context.exec(handle, 'echo base > shared.txt');
    const forked = await context.fork(handle);
    await context.exec(forked, 'echo fork > only-fork.txt');
    result.parentSeesFork = (await context.exec(handle, 'ls only-fork.txt 2>&1 || true')).stdout;
    result.forkSeesBase = (await context.exec(forked, 'cat shared.txt')).stdout;
    result.forkChanges = (await context.changes(forked)).map((c) => c.path.slice(ws.length));
    await context.commit(forked);
    result.committedFork = readdirSync(ws)
      .filter((n) => n.endsWith('.txt'))
      .sort();
  }
} finally {
  await context.close();
}
process.stdout.write(`${JSON.stringify(result)}\n`);
