/**
 * Doctor checks for the runtime: the Node version and node-pty.
 * @module
 */
import { type DoctorCheck, messageOf, within } from './check.js';

const MIN_NODE = [20, 18] as const;

/** Node.js new enough for berth. */
export function checkNode(version: string = process.versions.node): DoctorCheck {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return {
    id: 'node',
    title: 'Node.js',
    status: ok ? 'ok' : 'fail',
    detail: `v${version} (berth needs >= ${MIN_NODE.join('.')})`,
    ...(ok ? {} : { fix: `install Node.js ${MIN_NODE.join('.')} or newer` }),
  };
}

interface PtyModule {
  spawn(
    file: string,
    args: string[],
    options: { cols: number; rows: number },
  ): { onExit(listener: (event: { exitCode: number }) => void): void; kill(): void };
}

const PTY_FIX = 'install it with `npm install node-pty` (building it needs python3, make and a C++ compiler)';

/** node-pty loads and really opens a terminal (a broken native build loads but fails here). */
export async function checkNodePty(): Promise<DoctorCheck> {
  const base = { id: 'node-pty', title: 'terminals (node-pty)' };
  let pty: PtyModule;
  try {
    const loaded = (await import('node-pty')) as unknown as PtyModule & { default?: PtyModule };
    pty = typeof loaded.spawn === 'function' ? loaded : loaded.default!;
  } catch (error) {
    return {
      ...base,
      status: 'fail',
      detail: `node-pty could not be loaded (${messageOf(error)}); berth shell and openTerminal are unavailable`,
      fix: PTY_FIX,
    };
  }
  try {
    const terminal = pty.spawn('/bin/sh', ['-c', 'exit 7'], { cols: 80, rows: 24 });
    const code = await within(
      5000,
      'a test terminal',
      new Promise<number>((resolve) => terminal.onExit((event) => resolve(event.exitCode))),
    );
    if (code !== 7) throw new Error(`a test terminal exited with ${code}, expected 7`);
    return { ...base, status: 'ok', detail: 'loaded; opened a test terminal' };
  } catch (error) {
    return {
      ...base,
      status: 'fail',
      detail: `node-pty loaded but could not open a terminal (${messageOf(error)})`,
      fix: `rebuild it for this Node version: npm rebuild node-pty; or ${PTY_FIX}`,
    };
  }
}
