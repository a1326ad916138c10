/**
 * The default hidden and read-only path lists. They are a security surface: tests pin them
 * literally, so any change here is deliberate.
 * @module
 */
import { join } from 'node:path';

/**
 * Credential locations under the home directory, hidden from sandboxed commands by default
 * (relative to the home directory).
 */
export const DEFAULT_HIDDEN_HOME_PATHS: readonly string[] = Object.freeze([
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.oci',
  '.kube',
  '.docker',
  '.config/containers/auth.json',
  '.netrc',
  '.git-credentials',
  '.config/git/credentials',
  '.npmrc',
  '.yarnrc',
  '.pypirc',
  '.gem/credentials',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.config/gh',
  '.config/hub',
  '.config/glab-cli',
  '.password-store',
  '.vault-token',
  '.terraform.d/credentials.tfrc.json',
  '.pgpass',
  '.my.cnf',
  '.local/share/keyrings',
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
]);

/**
 * Sockets outside the home directory that hand a connecting process more power than the sandbox
 * grants: container engines and their runtime directories (shim and embedded-engine sockets, and
 * registry credentials), the snap and LXD daemons, the system bus and the service manager. A
 * read-only mount does not stop `connect()` on a socket, so these are masked by default.
 */
export const DEFAULT_HIDDEN_SYSTEM_PATHS: readonly string[] = Object.freeze([
  '/run/docker.sock',
  '/var/run/docker.sock',
  '/run/docker',
  '/run/containerd',
  '/run/podman',
  '/run/containers',
  '/run/crio',
  '/run/snapd.socket',
  '/run/snapd-snap.socket',
  '/var/snap/lxd/common/lxd/unix.socket',
  '/var/lib/lxd/unix.socket',
  '/run/dbus/system_bus_socket',
  '/run/systemd/private',
]);

/**
 * Names that stay read-only inside every writable root: files a later host-side program runs or
 * trusts. A name ending in `/` is also protected before it exists (see `protected-names.ts`): a
 * command cannot create it. Those are the directories whose contents tools run on their own, as
 * soon as a person opens the folder or runs git there.
 */
export const DEFAULT_READ_ONLY_PATHS: readonly string[] = Object.freeze([
  // Shell and session start-up files (a root that is a home directory).
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.bash_aliases',
  '.profile',
  '.pam_environment',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.zlogout',
  '.cshrc',
  '.tcshrc',
  '.kshrc',
  '.config/fish',
  '.config/systemd',
  '.config/autostart',
  '.inputrc',
  '.envrc',
  // git: configuration (core.fsmonitor, core.hooksPath, aliases run programs) and hooks; a root
  // without a repository gets a placeholder `.git`, so none can be made there.
  '.gitconfig',
  '.config/git',
  '.git/hooks/',
  '.git/config',
  '.git/config.worktree',
  // Hook managers that git hooks hand over to.
  '.husky',
  '.pre-commit-config.yaml',
  'lefthook.yml',
  '.lefthook.yml',
  // Package managers that run code named in their configuration (yarnPath, script-shell, hooks).
  '.npmrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
  // Agents and editors: settings with hooks, tasks and MCP servers they start on their own.
  '.mcp.json',
  '.claude/',
  '.cursor/',
  '.gemini/',
  '.vscode/',
  '.codex',
  '.continue',
  '.windsurf',
  '.zed',
  '.idea',
  '.devcontainer',
  // CI: pipelines run with the repository's secrets once pushed.
  '.github/workflows/',
  '.github/actions',
  '.gitlab-ci.yml',
  '.circleci',
  '.buildkite',
  'azure-pipelines.yml',
  'bitbucket-pipelines.yml',
  'Jenkinsfile',
]);

/** Where the defaults come from: the home directory and the environment. */
export interface DefaultHiddenPathsInput {
  /** Home directory (absolute). */
  readonly home: string;
  /** Environment consulted for `XDG_RUNTIME_DIR` and `SSH_AUTH_SOCK`. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * The default hidden paths for a home directory and environment: the home credential locations,
 * the system sockets, the per-user runtime directory (`$XDG_RUNTIME_DIR`: the session bus, the
 * user service manager, agent sockets) and the ssh agent socket (`$SSH_AUTH_SOCK`).
 */
export function defaultHiddenPaths(input: DefaultHiddenPathsInput): string[] {
  const paths = DEFAULT_HIDDEN_HOME_PATHS.map((name) => join(input.home, name));
  paths.push(...DEFAULT_HIDDEN_SYSTEM_PATHS);
  for (const name of ['XDG_RUNTIME_DIR', 'SSH_AUTH_SOCK']) {
    const value = input.env[name];
    if (value?.startsWith('/')) paths.push(value);
  }
  return paths;
}
