/**
 * Poll `check` until it holds or `ms` pass: a "did not hang" bound for waiting on an outcome that
 * has no event to listen to (a process appearing in /proc), never a timing claim.
 */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}
