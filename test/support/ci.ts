/**
 * Whether the tests run in CI, where a missing engine, sandbox or tool fails the run instead of
 * being skipped. One rule for every test: `CI` set to anything but empty, `0` or `false`.
 */
export function inCI(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = (env.CI ?? '').trim().toLowerCase();
  return value !== '' && value !== '0' && value !== 'false';
}
