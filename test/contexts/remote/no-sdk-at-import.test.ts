/**
 * `berth/e2b` and `berth/daytona` load their SDK only when a context needs it: in a Node process
 * where resolving `e2b` or `@daytonaio/sdk` fails, the built modules import, contexts are created,
 * and the first spawn is the typed error naming the package to install.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

// A resolve hook that makes both SDKs look uninstalled.
const hook = `export async function resolve(specifier, context, next) {
  if (specifier === 'e2b' || specifier === '@daytonaio/sdk') {
    throw Object.assign(new Error('Cannot find package ' + specifier), { code: 'ERR_MODULE_NOT_FOUND' });
  }
  return next(specifier, context);
}`;
const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
const program = `
const { createE2BContext } = await import('./dist/contexts/e2b/index.js');
const { createDaytonaContext } = await import('./dist/contexts/daytona/index.js');
const out = [];
for (const context of [createE2BContext(), createDaytonaContext()]) {
  try { await context.spawn(); out.push('spawned'); } catch (error) { out.push(error.code + ' ' + error.packageName); }
}
console.log(JSON.stringify(out));
`;

it('the built modules import and create contexts without the SDKs; spawn names the package', () => {
  const stdout = execFileSync(
    process.execPath,
    [
      '--import',
      `data:text/javascript,${encodeURIComponent(register)}`,
      '--input-type=module',
      '-e',
      program,
    ],
    { cwd: repo, encoding: 'utf8' },
  );
  expect(JSON.parse(stdout)).toEqual(['E_REMOTE_SDK_MISSING e2b', 'E_REMOTE_SDK_MISSING @daytonaio/sdk']);
});
