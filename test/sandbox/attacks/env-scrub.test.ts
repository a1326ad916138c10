// Secrets in the host's environment against a sandboxed command that prints its environment: the
// names the attack corpus found reaching commands, and secrets of known shapes under neutral names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProcessContext, type ProcessContext } from '../../../src/contexts/process/index.js';
import type { ContextHandle } from '../../../src/contract/types.js';
import { createSandboxPolicy } from '../../../src/sandbox/index.js';
import { makeScene, type Scene } from './fake-home.js';

const filler = (n: number) => 'Qx7'.repeat(Math.ceil(n / 3)).slice(0, n);

/** Host variables a command must not see: name → value. */
const SECRETS: Record<string, string> = {
  MYSQL_PWD: 'mysql-secret',
  SSHPASS: 'ssh-secret',
  DB_PASS: 'db-secret',
  REDIS_URL: 'redis://:redis-secret@cache:6379/0',
  MONGODB_URI: 'mongodb://app:mongo-secret@db:27017/app',
  SQLALCHEMY_DATABASE_URI: 'postgresql://app:pg-secret@db/app',
  CI_JOB_JWT: `eyJ${filler(20)}.eyJ${filler(30)}.${filler(20)}`,
  LDAP_BIND_PW: 'ldap-secret',
  NEUTRAL_PROXY: 'http://me:proxy-secret@proxy:3128',
  NEUTRAL_HOOK: 'https://hooks.example.com/x?token=hook-secret',
  NEUTRAL_KEY_BLOCK: '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE=\n',
  NEUTRAL_GH: `ghp_${filler(36)}`,
  NEUTRAL_GH_FINE: `github_pat_${filler(40)}`,
  NEUTRAL_OPENAI: `sk-proj-${filler(40)}`,
  NEUTRAL_SLACK: `xoxb-${filler(30)}`,
  NEUTRAL_AWS: 'AKIAIOSFODNN7EXAMPLE',
};
/** Host variables a command still sees. */
const KEPT: Record<string, string> = {
  PLAIN_REDIS_URL: 'redis://cache:6379/0',
  PLAIN_SETTING: 'visible',
};

let scene: Scene;
let context: ProcessContext;
let handle: ContextHandle;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  for (const [name, value] of Object.entries({ ...SECRETS, ...KEPT })) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  scene = makeScene('env');
  context = createProcessContext({
    sandbox: createSandboxPolicy({ writableRoots: [scene.ws], home: scene.home, env: {} }),
  });
  handle = await context.spawn({ cwd: scene.ws });
});

afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await context?.close();
  scene?.remove();
});

async function commandEnv(env?: Record<string, string>): Promise<Record<string, string>> {
  const result = await context.exec(handle, 'env -0', env ? { env } : undefined);
  expect(result.exitCode).toBe(0);
  return Object.fromEntries(
    result.stdout
      .split('\0')
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
}

describe('the environment a sandboxed command sees', () => {
  it('holds none of the secret names or secret-shaped values, and keeps the rest', async () => {
    const env = await commandEnv();
    for (const name of Object.keys(SECRETS)) expect(env, name).not.toHaveProperty(name);
    const all = Object.values(env).join('\n');
    for (const value of Object.values(SECRETS)) expect(all).not.toContain(value);
    expect(env).toMatchObject(KEPT);
  });

  it('still carries a secret passed explicitly', async () => {
    const env = await commandEnv({ MYSQL_PWD: 'chosen-on-purpose', NEUTRAL_GH: SECRETS.NEUTRAL_GH! });
    expect(env.MYSQL_PWD).toBe('chosen-on-purpose');
    expect(env.NEUTRAL_GH).toBe(SECRETS.NEUTRAL_GH);
    expect(env).not.toHaveProperty('SSHPASS');
  });
});
