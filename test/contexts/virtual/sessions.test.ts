/**
 * Sessions: found by id, name or prefix; served by one owner at a time; reviewed through the
 * serving process while it runs and directly once it stopped.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createSession,
  findSession,
  listSessions,
  openSessionReview,
  serveSession,
  sessionsFor,
  stateRoot,
} from '../../../src/contexts/virtual/index.js';
import { ConflictError } from '../../../src/errors/index.js';

const dirs: string[] = [];
const cleanups: (() => Promise<void>)[] = [];

function freshDir(label: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `berth-session-${label}-`)));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the session store', () => {
  it('lives in the per-user state directory, never in the workspace', () => {
    expect(stateRoot({ BERTH_STATE_DIR: '/s' })).toBe('/s');
    expect(stateRoot({ XDG_STATE_HOME: '/x', HOME: '/h' })).toBe('/x/berth');
    expect(stateRoot({ HOME: '/h' })).toBe('/h/.local/state/berth');
    expect(() => stateRoot({ BERTH_STATE_DIR: 'relative' })).toThrow(/BERTH_STATE_DIR/);
  });

  it('finds sessions by id, name, id prefix, and by the directory a person stands in', () => {
    const state = freshDir('state');
    const root = freshDir('root');
    const other = freshDir('other');
    const a = createSession(state, { root, name: 'alpha', workspacePath: '/workspace' });
    const b = createSession(state, { root: other, workspacePath: '/workspace' });
    expect(findSession(state, a.id).id).toBe(a.id);
    expect(findSession(state, 'alpha').id).toBe(a.id);
    expect(findSession(state, b.id.slice(0, 5)).id).toBe(b.id);
    expect(() => findSession(state, 'nope')).toThrow(/no such session: nope.*there are: /);
    expect(() => createSession(state, { root, name: 'alpha', workspacePath: '/workspace' })).toThrow(
      /named "alpha" exists already/,
    );
    expect(() => createSession(state, { root, name: 'bad name', workspacePath: '/workspace' })).toThrow(
      /not a session name/,
    );
    writeFileSync(join(root, 'x'), '');
    expect(sessionsFor(state, root).map((s) => s.id)).toEqual([a.id]);
    expect(sessionsFor(state, join(root, '.')).map((s) => s.id)).toEqual([a.id]);
    expect(listSessions(state)).toHaveLength(2);
  });
});

describe('serving and reviewing a session', () => {
  it('reviews through the server while it runs, directly after it stopped', async () => {
    const state = freshDir('state');
    const root = freshDir('root');
    writeFileSync(join(root, 'a.txt'), 'a\n');
    const session = createSession(state, { root, workspacePath: '/workspace' });
    const served = await serveSession(session);
    cleanups.push(() => served.close());
    await served.context.exec(served.handle, 'echo agent > a.txt; echo new > b.txt');

    // A second server is refused while this one holds the session.
    await expect(serveSession(session)).rejects.toThrow(new RegExp(`served by process ${process.pid}`));

    const live = await openSessionReview(session);
    expect(live.server?.pid).toBe(process.pid);
    expect((await live.changes()).map((c) => c.path)).toEqual(['/workspace/a.txt', '/workspace/b.txt']);
    expect(await live.diff(['/workspace/b.txt'])).toContain('+new');
    writeFileSync(join(root, 'a.txt'), 'person\n');
    const conflict = await live.commit().catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(ConflictError);
    expect((conflict as ConflictError).paths).toEqual(['/workspace/a.txt']);
    expect(await live.commit(['/workspace/b.txt'])).toEqual({ applied: ['/workspace/b.txt'] });
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('new\n');
    // The server's own view follows: b.txt is no longer a change.
    expect((await served.context.changes(served.handle)).map((c) => c.path)).toEqual(['/workspace/a.txt']);
    await served.close();

    const offline = await openSessionReview(session);
    cleanups.push(() => offline.close());
    expect(offline.server).toBeNull();
    expect((await offline.changes()).map((c) => c.path)).toEqual(['/workspace/a.txt']);
    await offline.commit(undefined, true);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('agent\n');
    expect(await offline.changes()).toEqual([]);
  });
});
