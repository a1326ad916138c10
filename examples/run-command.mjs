// Runs one command through berth's local subprocess runtime and prints the collected result.
//
//   npm run build
//   node examples/run-command.mjs                       # runs `uname -a` and `ls -la`
//   node examples/run-command.mjs -- git status --short  # runs any command (never through a shell)
//
// The spec is fully explicit on purpose: the runtime applies no defaults.
import { LocalSubprocessRuntime } from 'berth/subprocess';

const separator = process.argv.indexOf('--');
const argv = separator >= 0 ? process.argv.slice(separator + 1) : ['/bin/sh', '-c', 'uname -a; ls -la'];
if (argv.length === 0) {
  console.error('usage: node examples/run-command.mjs [-- command args...]');
  process.exit(2);
}

const runtime = new LocalSubprocessRuntime();
try {
  const program = await runtime.resolveExecutable(argv[0]);
  const handle = runtime.spawn({
    argv: [program, ...argv.slice(1)],
    cwd: process.cwd(),
    stdio: {
      stdin: 'ignore',
      // Keep the first 4 KiB and the last 60 KiB; spill the complete stream to a private file.
      stdout: { maxBytes: 64 * 1024, headBytes: 4 * 1024, spill: { maxBytes: 64 * 1024 * 1024 } },
      stderr: { maxBytes: 16 * 1024 },
    },
    graceMs: 2000,
    signal: AbortSignal.timeout(30_000),
  });
  const outcome = await handle.done;
  const stdout = handle.collected.stdout.snapshot();
  const stderr = handle.collected.stderr.snapshot();
  if (stdout.head !== undefined)
    process.stdout.write(`${stdout.head}\n… ${stdout.omittedBytes} bytes omitted …\n`);
  process.stdout.write(stdout.text);
  if (stderr.text) process.stderr.write(stderr.text);
  console.log(
    JSON.stringify({
      pid: handle.pid,
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      stdout: { bytesTotal: stdout.bytesTotal, truncated: stdout.truncated },
      stderr: { bytesTotal: stderr.bytesTotal, truncated: stderr.truncated },
    }),
  );
  process.exitCode = outcome.exitCode ?? 1;
} catch (error) {
  // SpawnError, InvalidArgumentError: typed, with a stable code and a message saying what to do.
  console.error(`${error.code ?? error.name}: ${error.message}`);
  process.exitCode = 127;
} finally {
  // Terminates anything still running and removes the spill file.
  await runtime.dispose();
}
