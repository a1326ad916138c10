// A measurement in a fresh Node process: `script` runs as an ES module (with --expose-gc, from the
// repository root) and prints one JSON object, which the promise resolves to.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export function runJsonProbe(script) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`probe exit ${code}`)),
    );
  });
}
