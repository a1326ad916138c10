// Builds the package's own berth-supervise (native/build/<key>/berth-supervise), the per-command
// owner the subprocess runtime starts every command under, at the end of `npm run build`. Installs
// need no script: without this build, berth compiles the supervisor on first use into the per-user
// cache (see src/subprocess/supervisor-location.ts). Without a C compiler this says so and succeeds
// (unless --check): commands are then refused with a typed error saying what to do.
//
//   node scripts/build-supervisor.mjs            build when missing for the current source
//   node scripts/build-supervisor.mjs --force    always rebuild
//   node scripts/build-supervisor.mjs --check    exit 1 when no supervisor could be built
import { buildPackagedSupervisor } from '../dist/subprocess/supervisor-location.js';

if (process.platform !== 'linux') {
  process.stderr.write(`berth: the process supervisor is Linux-only; skipped on ${process.platform}\n`);
} else {
  const outcome = buildPackagedSupervisor({ force: process.argv.includes('--force') });
  if (outcome.state === 'failed') {
    process.stderr.write(`berth: the process supervisor was not built: ${outcome.reason}\n`);
    process.stderr.write('berth: commands will build it on first use, or refuse saying what to install.\n');
    if (process.argv.includes('--check')) process.exit(1);
  }
}
