// Pins of the sandbox's security surface. A red pin means "change deliberately": update the list
// here, in docs/sandbox.md, and say why in the commit.
import { describe, expect, it } from 'vitest';
import {
  createSandboxPolicy,
  DEFAULT_HIDDEN_HOME_PATHS,
  DEFAULT_HIDDEN_SYSTEM_PATHS,
  DEFAULT_READ_ONLY_PATHS,
  defaultHiddenPaths,
} from '../../src/sandbox/index.js';

describe('default lists (pinned literally)', () => {
  it('hidden credential paths under the home directory', () => {
    expect(DEFAULT_HIDDEN_HOME_PATHS).toEqual([
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
  });

  it('hidden system sockets', () => {
    expect(DEFAULT_HIDDEN_SYSTEM_PATHS).toEqual([
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
  });

  it('names that stay read-only inside every writable root (a trailing / also guards them before they exist)', () => {
    expect(DEFAULT_READ_ONLY_PATHS).toEqual([
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
      '.gitconfig',
      '.config/git',
      '.git/hooks/',
      '.git/config',
      '.git/config.worktree',
      '.husky',
      '.pre-commit-config.yaml',
      'lefthook.yml',
      '.lefthook.yml',
      '.npmrc',
      '.yarnrc.yml',
      '.pnpmfile.cjs',
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
      '.github/workflows/',
      '.github/actions',
      '.gitlab-ci.yml',
      '.circleci',
      '.buildkite',
      'azure-pipelines.yml',
      'bitbucket-pipelines.yml',
      'Jenkinsfile',
    ]);
  });

  it('parts of /proc kept read-only', async () => {
    const { PROC_READ_ONLY } = await import('../../src/sandbox/bwrap-mounts.js');
    expect(PROC_READ_ONLY).toEqual([
      '/proc/sys',
      '/proc/sysrq-trigger',
      '/proc/fs',
      '/proc/acpi',
      '/proc/scsi',
    ]);
  });

  it('the lists cannot be mutated in place', () => {
    expect(() => (DEFAULT_READ_ONLY_PATHS as string[]).push('x')).toThrow(TypeError);
    expect(() => (DEFAULT_HIDDEN_HOME_PATHS as string[]).pop()).toThrow(TypeError);
  });

  it('defaultHiddenPaths joins the home list, the sockets, the runtime dir and the agent socket', () => {
    const paths = defaultHiddenPaths({
      home: '/home/ada',
      env: { XDG_RUNTIME_DIR: '/run/user/1000', SSH_AUTH_SOCK: '/tmp/ssh-abc/agent.42', PATH: '/usr/bin' },
    });
    expect(paths).toEqual([
      ...DEFAULT_HIDDEN_HOME_PATHS.map((name) => `/home/ada/${name}`),
      ...DEFAULT_HIDDEN_SYSTEM_PATHS,
      '/run/user/1000',
      '/tmp/ssh-abc/agent.42',
    ]);
  });

  it('ignores relative or empty runtime-dir and agent-socket values', () => {
    const paths = defaultHiddenPaths({ home: '/h', env: { XDG_RUNTIME_DIR: 'relative', SSH_AUTH_SOCK: '' } });
    expect(paths).toHaveLength(DEFAULT_HIDDEN_HOME_PATHS.length + DEFAULT_HIDDEN_SYSTEM_PATHS.length);
  });

  it('createSandboxPolicy starts from the defaults and appends extras', () => {
    const policy = createSandboxPolicy({
      writableRoots: ['/'],
      home: '/home/ada',
      env: {},
      hiddenPaths: ['~/.config/secret-tool', '/srv/keys'],
      readOnlyPaths: ['Makefile', 'scripts/', 'tools//', './bin'],
    });
    expect(policy.hiddenPaths).toEqual([
      ...defaultHiddenPaths({ home: '/home/ada', env: {} }),
      '/home/ada/.config/secret-tool',
      '/srv/keys',
    ]);
    expect(policy.readOnlyPaths).toEqual([
      ...DEFAULT_READ_ONLY_PATHS,
      'Makefile',
      'scripts/',
      'tools/',
      'bin',
    ]);
    expect(policy.network).toBe('deny');
  });
});
