/**
 * The attack corpus' scene: a fake home with a fake private key (hidden from commands by the
 * default policy), a workspace, and a directory outside every writable root that commands must
 * never be able to write. Works as root and as an unprivileged user.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Scene {
  /** Everything the scene made under the temp directory. */
  readonly base: string;
  readonly home: string;
  readonly ws: string;
  /** `~/.ssh/id_rsa` of the fake home. */
  readonly keyPath: string;
  /** Its content: a random marker that must never reach a command or a tool result. */
  readonly secret: string;
  /** A directory outside every writable root (under /var/tmp, never /tmp). */
  readonly outside: string;
  /** Names in `outside` now. */
  outsideEntries(): string[];
  remove(): void;
}

export function makeScene(label: string): Scene {
  const base = realpathSync(mkdtempSync(join(tmpdir(), `berth-attack-${label}-`)));
  const home = join(base, 'home');
  const ws = join(base, 'ws');
  mkdirSync(join(home, '.ssh'), { recursive: true, mode: 0o700 });
  mkdirSync(ws);
  const secret = `BERTH-FAKE-PRIVATE-KEY-${randomBytes(12).toString('hex')}`;
  const keyPath = join(home, '.ssh', 'id_rsa');
  writeFileSync(keyPath, `${secret}\n`, { mode: 0o600 });
  const outside = realpathSync(mkdtempSync(join('/var/tmp', `berth-attack-${label}-outside-`)));
  return {
    base,
    home,
    ws,
    keyPath,
    secret,
    outside,
    outsideEntries: () => readdirSync(outside),
    remove: () => {
      rmSync(base, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    },
  };
}
