/**
 * The containment attack corpus, for any `Filesystem` over a host directory: `..`, absolute
 * paths, symlinks in and out, a symlink swapped in mid-call, hard links. Each case checks the host
 * afterwards: nothing outside was read, written, created, removed or had its mode changed.
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type Filesystem, isVfsError } from '../../../src/vfs/filesystem.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const SECRET = 'top secret';

/** What a refused call must look like: a VfsError, never the secret. */
async function refused(promise: Promise<unknown>): Promise<string> {
  try {
    const value = await promise;
    if (value instanceof Uint8Array) expect(Buffer.from(value).toString()).not.toContain(SECRET);
    return 'allowed';
  } catch (error) {
    expect(isVfsError(error)).toBe(true);
    return (error as { code: string }).code;
  }
}

/**
 * @param escapes - how a link out is answered: `EACCES` (the contained backend refuses it), or
 *   `namespace` (an overlay reads link targets inside its own namespace, where `..` at the root is
 *   the root: the call may fail or land inside, but never reaches the outside).
 */
export function containmentCorpus(
  make: (root: string) => Filesystem | Promise<Filesystem>,
  escapes: 'EACCES' | 'namespace' = 'EACCES',
): void {
  const refusedAs = async (promise: Promise<unknown>) => {
    const outcome = await refused(promise);
    return escapes === 'EACCES' ? outcome : 'EACCES';
  };
  let base: string;
  let ws: string;
  let outside: string;
  let fs: Filesystem;

  beforeEach(async () => {
    base = mkdtempSync(join(tmpdir(), 'berth-contain-'));
    ws = join(base, 'ws');
    outside = join(base, 'outside');
    mkdirSync(join(ws, 'src'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret'), SECRET, { mode: 0o600 });
    writeFileSync(join(ws, 'src', 'inside.txt'), 'inside');
    symlinkSync('../outside', join(ws, 'escape'));
    symlinkSync(outside, join(ws, 'escape-abs'));
    symlinkSync(join(outside, 'secret'), join(ws, 'secret-link'));
    symlinkSync(join(outside, 'not-yet'), join(ws, 'dangling-out'));
    symlinkSync('src', join(ws, 'inner'));
    fs = await make(ws);
  });

  afterEach(() => {
    // Retried: a racer's last step (its own child, killed with it) may land while this runs.
    rmSync(base, { recursive: true, force: true, maxRetries: 10, retryDelay: 20 });
  });

  const outsideUntouched = () => {
    expect(readFileSync(join(outside, 'secret'), 'utf8')).toBe(SECRET);
    expect(statSync(join(outside, 'secret')).mode & 0o777).toBe(0o600);
    expect(existsSync(join(outside, 'planted'))).toBe(false);
    expect(existsSync(join(outside, 'not-yet'))).toBe(false);
    expect(existsSync(join(base, 'planted'))).toBe(false);
  };

  it("'..' and absolute paths stay inside the root", async () => {
    expect(await refused(fs.readFile('/../outside/secret'))).toBe('ENOENT');
    expect(await refused(fs.readFile(`/..${outside}/secret`))).toBe('ENOENT');
    await fs.writeFile('/../planted', bytes('x'));
    expect(Buffer.from(await fs.readFile('/planted')).toString()).toBe('x'); // `/..` is `/`
    outsideUntouched();
  });

  it('a symlink on the way that leads out is refused for every call', async () => {
    for (const dir of ['/escape', '/escape-abs']) {
      expect(await refusedAs(fs.readFile(`${dir}/secret`))).toBe('EACCES');
      expect(await refusedAs(fs.readRange(`${dir}/secret`, 0, 4))).toBe('EACCES');
      expect(await refusedAs(fs.stat(`${dir}/secret`))).toBe('EACCES');
      expect(await refusedAs(fs.readdir(dir))).toBe('EACCES');
      expect(await refusedAs(fs.writeFile(`${dir}/planted`, bytes('x')))).toBe('EACCES');
      expect(await refusedAs(fs.mkdir(`${dir}/planted`))).toBe('EACCES');
      expect(await refusedAs(fs.remove(`${dir}/secret`))).toBe('EACCES');
      expect(await refusedAs(fs.chmod(`${dir}/secret`, 0o666))).toBe('EACCES');
      expect(await refusedAs(fs.rename('/src/inside.txt', `${dir}/planted`))).toBe('EACCES');
      expect(await refusedAs(fs.link('/src/inside.txt', `${dir}/planted`))).toBe('EACCES');
      expect(await refusedAs(fs.symlink('x', `${dir}/planted`))).toBe('EACCES');
    }
    outsideUntouched();
  });

  it('a final symlink to a file outside is refused, and so is a dangling one that points out', async () => {
    expect(await refusedAs(fs.readFile('/secret-link'))).toBe('EACCES');
    expect(await refusedAs(fs.stat('/secret-link'))).toBe('EACCES');
    expect(await refusedAs(fs.writeFile('/secret-link', bytes('owned')))).toBe('EACCES');
    expect(await refusedAs(fs.chmod('/secret-link', 0o666))).toBe('EACCES');
    expect(await refusedAs(fs.utimes('/secret-link', 0, 0))).toBe('EACCES');
    expect(await refusedAs(fs.open('/secret-link', { read: true }))).toBe('EACCES');
    expect(await refusedAs(fs.writeFile('/dangling-out', bytes('x')))).toBe('EACCES');
    // The link itself may be looked at and removed: it is inside.
    expect((await fs.lstat('/secret-link')).type).toBe('symlink');
    await fs.remove('/secret-link');
    outsideUntouched();
  });

  it('a symlink made through the filesystem that points out is refused when used', async () => {
    await fs.symlink('../../outside/secret', '/src/made');
    await fs.symlink(join(outside, 'secret'), '/made-abs');
    expect(await refusedAs(fs.readFile('/src/made'))).toBe('EACCES');
    expect(await refusedAs(fs.readFile('/made-abs'))).toBe('EACCES');
    expect(await refusedAs(fs.realpath('/made-abs'))).toBe('EACCES');
    outsideUntouched();
  });

  it('symlinks that stay inside are followed', async () => {
    expect(Buffer.from(await fs.readFile('/inner/inside.txt')).toString()).toBe('inside');
    await fs.writeFile('/inner/made.txt', bytes('m'));
    expect(Buffer.from(await fs.readFile('/src/made.txt')).toString()).toBe('m');
    if (escapes === 'EACCES') expect(readFileSync(join(ws, 'src', 'made.txt'), 'utf8')).toBe('m');
    expect(await fs.realpath('/inner/made.txt')).toBe('/src/made.txt');
  });

  it('a recursive remove takes a symlink out, never what it points to', async () => {
    await fs.mkdir('/holder');
    await fs.symlink('../../outside', '/holder/out');
    await fs.remove('/holder', { recursive: true });
    expect(existsSync(join(ws, 'holder'))).toBe(false);
    outsideUntouched();
  });

  it('a hard link can only be made to something inside', async () => {
    expect(await refusedAs(fs.link('/escape/secret', '/stolen'))).toBe('EACCES');
    expect(existsSync(join(ws, 'stolen'))).toBe(false);
    // A hard link the host made is a file inside like any other (a documented limitation).
    linkSync(join(outside, 'secret'), join(ws, 'host-made-link'));
    expect((await fs.lstat('/host-made-link')).nlink).toBe(2);
  });

  it('a directory swapped for a symlink to the outside mid-call never leads out', async () => {
    const flipper = join(ws, 'flip');
    mkdirSync(flipper);
    // A separate process flips `flip` between a directory and a symlink to the outside, nonstop.
    const racer = spawn(
      'sh',
      [
        '-c',
        `while :; do rm -rf '${flipper}'; mkdir '${flipper}'; rm -rf '${flipper}'; ln -s '${outside}' '${flipper}'; done`,
      ],
      // Its own process group, so the kill below also ends the rm, mkdir or ln it is running.
      { stdio: 'ignore', detached: true },
    );
    try {
      const attempts: Promise<string>[] = [];
      for (let round = 0; round < 300; round++) {
        attempts.push(refused(fs.writeFile('/flip/planted', bytes('x'))));
        attempts.push(refused(fs.readFile('/flip/secret')));
        attempts.push(refused(fs.chmod('/flip/secret', 0o666)));
        attempts.push(refused(fs.mkdir('/flip/planted')));
        if (round % 20 === 0) await Promise.all(attempts.splice(0));
      }
      await Promise.all(attempts);
    } finally {
      const exited = new Promise((resolve) => racer.once('exit', resolve));
      process.kill(-(racer.pid as number), 'SIGKILL');
      await exited;
    }
    outsideUntouched();
  });
}
