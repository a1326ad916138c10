/**
 * The shell a terminal opens when the caller names none, on the backends that run in a Linux
 * image they did not build (Docker, Kubernetes): the user's login shell, found in the image.
 * @module
 */

/** The login shell of the container user from /etc/passwd, else /bin/sh. */
export const LOGIN_SHELL_ARGV: readonly string[] = [
  '/bin/sh',
  '-c',
  `s=$(awk -F: -v u="$(id -u)" '$3 == u { print $7; exit }' /etc/passwd 2>/dev/null)
[ -x "$s" ] || s=/bin/sh
exec "$s" -l`,
];
