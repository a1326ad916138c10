// The CLI as one module graph in a few files: `berth mcp` is started by MCP clients at every
// session, and loading tsc's ~300 modules plus the SDK's ~200 one by one through Node's ESM loader
// was most of its start-up. This bundles dist/cli/main.js (tsc's output) with the regular
// dependencies into dist/cli/main.js and dist/cli/chunks/, one chunk per lazily loaded command
// part, so the lazy loading stays lazy. The rest of dist/ (the library API) is left as tsc wrote it.
//
// `import.meta.url` is rewritten to the URL of the module's own tsc output file in dist/, so every
// path a module finds next to itself (package.json, native/, pdf-worker.js, the npm bin) is the
// same as unbundled. Optional and peer dependencies (node-pty, the Kubernetes, E2B and Daytona
// SDKs, ai, vitest, ws) stay outside, loaded from node_modules at run time as before.
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const OUT = join(DIST, 'cli');
const ENTRY = join(OUT, 'main.js');
const MARK = '__berth_dist_module__/';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
/** Bundled: the regular dependencies and what they depend on. */
const optional = new Set([
  ...Object.keys(pkg.optionalDependencies ?? {}),
  ...Object.keys(pkg.peerDependencies ?? {}),
  ...Object.keys(pkg.devDependencies ?? {}),
]);
for (const name of Object.keys(pkg.dependencies)) optional.delete(name);
const builtins = new Set(builtinModules);

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function isExternal(id) {
  if (id.startsWith('node:') || builtins.has(id) || builtins.has(id.split('/')[0])) return true;
  if (id.startsWith('.') || id.startsWith('/') || id.startsWith('\0')) return false;
  return optional.has(packageName(id));
}

const toPosix = (path) => path.split(sep).join('/');
let rewritten = 0;

const moduleUrls = {
  name: 'berth-module-urls',
  transform(code, id) {
    if (!id.startsWith(DIST + sep) || !code.includes('import.meta')) return null;
    const other = code.match(/import\.meta(?!\.url\b)\S*/);
    if (other) this.error(`${id}: ${other[0]} cannot be bundled; only import.meta.url is rewritten`);
    const marker = JSON.stringify(MARK + toPosix(relative(DIST, id)));
    return {
      code: code.replaceAll('import.meta.url', () => {
        rewritten++;
        return `new URL(${marker}, import.meta.url).href`;
      }),
      map: null,
    };
  },
  renderChunk(code, chunk) {
    const from = toPosix(dirname(join(OUT, chunk.fileName)));
    const escaped = MARK.replace(/[/]/g, '\\/');
    return {
      code: code.replace(new RegExp(`"${escaped}([^"]+)"`, 'g'), (_, path) => {
        const target = posix.relative(from, `${toPosix(DIST)}/${path}`);
        return JSON.stringify(target.startsWith('.') ? target : `./${target}`);
      }),
      map: null,
    };
  },
};

const bundle = await rolldown({
  input: ENTRY,
  platform: 'node',
  external: isExternal,
  plugins: [moduleUrls],
  logLevel: 'warn',
  onLog(level, log, handler) {
    // An import that resolves to nothing would be left to fail at run time: fail the build instead.
    handler(log.code === 'UNRESOLVED_IMPORT' ? 'error' : level, log);
  },
});
const { output } = await bundle.write({
  dir: OUT,
  format: 'esm',
  entryFileNames: 'main.js',
  chunkFileNames: 'chunks/[name]-[hash].js',
});
await bundle.close();

const left = output.filter((item) => item.type === 'chunk' && item.code.includes(MARK));
if (left.length > 0) throw new Error(`import.meta.url left unrewritten in ${left.map((c) => c.fileName)}`);
if (rewritten === 0) throw new Error('no import.meta.url rewritten: the bundle did not see dist/');
