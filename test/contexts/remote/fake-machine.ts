/**
 * The "machine" behind a fake remote sandbox: real processes on this host, each command run under
 * bubblewrap with the sandbox's own home directory and /tmp bound over the host's, so two fake
 * sandboxes share no files (as two remote VMs share none), and with no network when the sandbox
 * was created without it. Every process carries the sandbox's marker in its environment, so
 * killing the sandbox ends all of them, as the VM's death would. Terminals are real PTYs
 * (node-pty).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as nodePty from 'node-pty';

export const MACHINE_MARKER_ENV = 'FAKE_REMOTE_MACHINE';

export interface MachineOptions {
  /** The home directory inside the sandbox (`/home/user`, `/home/daytona`). */
  readonly home: string;
  readonly network: boolean;
  /** The sandbox's own environment. */
  readonly env: Readonly<Record<string, string>>;
}

export class FakeMachine {
  readonly id = randomBytes(6).toString('hex');
  readonly home: string;
  private readonly root: string;
  private readonly network: boolean;
  private readonly env: Readonly<Record<string, string>>;
  private dead = false;

  constructor(options: MachineOptions) {
    this.home = options.home;
    this.network = options.network;
    this.env = options.env;
    this.root = mkdtempSync(join(tmpdir(), 'berth-fake-remote-'));
    mkdirSync(join(this.root, 'home'), { recursive: true });
    mkdirSync(join(this.root, 'tmp'), { recursive: true, mode: 0o1777 });
  }

  get alive(): boolean {
    return !this.dead;
  }

  private bwrapArgs(cwd: string | undefined): string[] {
    const args = [
      '--dev-bind',
      '/',
      '/',
      '--tmpfs',
      '/home',
      '--bind',
      join(this.root, 'home'),
      this.home,
      '--bind',
      join(this.root, 'tmp'),
      '/tmp',
      '--die-with-parent',
    ];
    if (!this.network) args.push('--unshare-net');
    args.push('--chdir', cwd ?? this.home);
    return args;
  }

  /** The environment a process sees: the sandbox's, the call's, the machine marker. */
  private processEnv(extra: Readonly<Record<string, string>> | undefined): Record<string, string> {
    return {
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      HOME: this.home,
      USER: 'user',
      LANG: 'C.UTF-8',
      ...this.env,
      ...extra,
      [MACHINE_MARKER_ENV]: this.id,
    };
  }

  /** Start `argv` inside the machine. */
  spawn(
    argv: readonly string[],
    options: {
      env?: Readonly<Record<string, string>> | undefined;
      cwd?: string | undefined;
      stdin: 'pipe' | 'ignore';
    },
  ): ChildProcess {
    this.assertAlive();
    return spawn('bwrap', [...this.bwrapArgs(options.cwd), '--', ...argv], {
      env: this.processEnv(options.env),
      stdio: [options.stdin, 'pipe', 'pipe'],
    });
  }

  /** A PTY running `argv` inside the machine. */
  spawnPty(
    argv: readonly string[],
    options: {
      env?: Readonly<Record<string, string>> | undefined;
      cwd?: string | undefined;
      cols: number;
      rows: number;
    },
  ): nodePty.IPty {
    this.assertAlive();
    const env = this.processEnv(options.env);
    return nodePty.spawn('bwrap', [...this.bwrapArgs(options.cwd), '--', ...argv], {
      name: env.TERM ?? 'xterm-256color',
      cols: options.cols,
      rows: options.rows,
      env,
      encoding: null,
    } as nodePty.IPtyForkOptions);
  }

  /** Run a command to completion, collecting its bytes. */
  async collect(
    argv: readonly string[],
    stdin?: Uint8Array,
  ): Promise<{ code: number | null; stdout: Buffer; stderr: Buffer }> {
    const child = this.spawn(argv, { stdin: stdin === undefined ? 'ignore' : 'pipe' });
    if (stdin !== undefined) child.stdin!.end(stdin);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => err.push(chunk));
    const code = await new Promise<number | null>((resolve) =>
      child.once('close', (status) => resolve(status)),
    );
    return { code, stdout: Buffer.concat(out), stderr: Buffer.concat(err) };
  }

  /**
   * The pid of the program bwrap started (bwrap forks it into the new mount namespace): the pid
   * the sandbox's own process manager would report. Falls back to `outer` if it cannot be seen.
   */
  async innerPid(outer: number): Promise<number> {
    for (let attempt = 0; attempt < 200; attempt++) {
      try {
        const children = readFileSync(`/proc/${outer}/task/${outer}/children`, 'latin1').trim();
        if (children !== '') return Number(children.split(' ')[0]);
        // The program already ended (and bwrap with it): there is no inner pid to report.
        const stat = readFileSync(`/proc/${outer}/stat`, 'latin1');
        if (attempt > 2 && stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return outer;
      } catch {
        return outer;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return outer;
  }

  /** Host pids of every live process of this machine. */
  pids(): number[] {
    const needle = `${MACHINE_MARKER_ENV}=${this.id}`;
    const pids: number[] = [];
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (!readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(needle)) continue;
        const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
        if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z') continue;
        pids.push(Number(entry));
      } catch {
        // The process ended while it was looked at.
      }
    }
    return pids;
  }

  /** The machine dies: every process is killed and its disk is gone. */
  kill(): void {
    if (this.dead) return;
    this.dead = true;
    for (let round = 0; round < 5; round++) {
      const pids = this.pids();
      if (pids.length === 0) break;
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }
    rmSync(this.root, { recursive: true, force: true });
  }

  private assertAlive(): void {
    if (this.dead) throw new Error(`fake machine ${this.id} is dead`);
  }
}
