/**
 * Facts about a Linux host that decide whether bubblewrap can build a sandbox, and the fix for
 * each way it cannot.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';

/** Kernel and runtime settings that gate unprivileged user namespaces. `null`: not present. */
export interface UserNamespaceSettings {
  /** `/proc/sys/kernel/unprivileged_userns_clone` (Debian/Ubuntu patch): 0 forbids them. */
  readonly unprivilegedUsernsClone: number | null;
  /** `/proc/sys/user/max_user_namespaces`: 0 forbids them. */
  readonly maxUserNamespaces: number | null;
  /** `/proc/sys/kernel/apparmor_restrict_unprivileged_userns`: 1 confines them to profiled programs. */
  readonly apparmorRestrictUserns: number | null;
}

/** The sysctl files, read now (they can change at runtime). */
export function readUserNamespaceSettings(): UserNamespaceSettings {
  return {
    unprivilegedUsernsClone: readNumber('/proc/sys/kernel/unprivileged_userns_clone'),
    maxUserNamespaces: readNumber('/proc/sys/user/max_user_namespaces'),
    apparmorRestrictUserns: readNumber('/proc/sys/kernel/apparmor_restrict_unprivileged_userns'),
  };
}

/** True when this process runs inside a container (whose seccomp profile often forbids namespaces). */
export function insideContainer(): boolean {
  if (existsSync('/.dockerenv') || existsSync('/run/.containerenv')) return true;
  try {
    return /docker|kubepods|containerd|libpod/.test(readFileSync('/proc/1/cgroup', 'utf8'));
  } catch {
    return false;
  }
}

/** The package-manager line for installing bubblewrap. */
export const INSTALL_BWRAP_FIX =
  "install bubblewrap: `apt-get install bubblewrap` (Debian, Ubuntu), `dnf install bubblewrap` (Fedora, RHEL), `pacman -S bubblewrap` (Arch), `apk add bubblewrap` (Alpine), or set the policy's bwrapPath to its absolute path";

export const USERNS_CLONE_FIX =
  'allow unprivileged user namespaces: `sudo sysctl -w kernel.unprivileged_userns_clone=1` (persist it in /etc/sysctl.d/), or run berth as root';

export const MAX_USERNS_FIX =
  'allow user namespaces: `sudo sysctl -w user.max_user_namespaces=15000` (persist it in /etc/sysctl.d/), or run berth as root';

export const APPARMOR_FIX =
  'AppArmor restricts unprivileged user namespaces: give bubblewrap a profile that allows them (a file /etc/apparmor.d/bwrap containing `abi <abi/4.0>, include <tunables/global> profile bwrap /usr/bin/bwrap flags=(unconfined) { userns, }`, then `sudo apparmor_parser -r /etc/apparmor.d/bwrap`), or `sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`';

export const CONTAINER_FIX =
  "this process runs in a container whose security profile forbids namespaces and mounts: run the container with `--security-opt seccomp=unconfined --security-opt apparmor=unconfined` (or `--cap-add SYS_ADMIN`), or use berth's docker context instead of an OS sandbox inside a container";

/**
 * The most likely fix when bubblewrap failed to build a sandbox, from the host settings and the
 * error bubblewrap printed.
 */
export function fixForBwrapFailure(stderr: string, isRoot: boolean): string {
  const settings = readUserNamespaceSettings();
  if (!isRoot) {
    if (settings.unprivilegedUsernsClone === 0) return USERNS_CLONE_FIX;
    if (settings.maxUserNamespaces === 0) return MAX_USERNS_FIX;
    if (settings.apparmorRestrictUserns === 1) return APPARMOR_FIX;
  }
  if (insideContainer()) return CONTAINER_FIX;
  if (/setuid|Creating new namespace failed|uid map|No permissions/i.test(stderr)) {
    return `${isRoot ? 'namespaces are refused even to root; check the kernel configuration (CONFIG_USER_NS, CONFIG_PID_NS, CONFIG_NET_NS) and any seccomp or LSM policy confining this process' : USERNS_CLONE_FIX}`;
  }
  return 'run `bwrap --ro-bind / / -- true` to see the failure directly, and check `berth doctor` for the host settings';
}

function readNumber(path: string): number | null {
  try {
    const value = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isNaN(value) ? null : value;
  } catch {
    return null;
  }
}
