import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BERTH_ENV_PREFIX,
  childEnv,
  isCredentialShapedName,
  LocalSubprocessRuntime,
  scrubbedParentEnv,
} from '../../src/subprocess/index.js';
import { spec } from './helpers.js';

const ambient: Record<string, string> = {
  MY_API_KEY: 'k',
  github_token: 't',
  DB_PASSWORD: 'p',
  AWS_REGION: 'eu-west-1',
  AZURE_CLIENT_ID: 'a',
  GOOGLE_APPLICATION_CREDENTIALS: '/x.json',
  BERTH_TASK_ID: 'ambient',
  berth_lower: 'ambient',
  GIT_AUTHOR_NAME: 'Someone',
  BERTH_TEST_PLAIN: 'plain',
  PLAIN_SETTING: 'kept',
  DROP_ME: 'ambient',
};
const previous: Record<string, string | undefined> = {};
const runtime = new LocalSubprocessRuntime();

beforeAll(() => {
  for (const [name, value] of Object.entries(ambient)) {
    previous[name] = process.env[name];
    process.env[name] = value;
  }
});
afterAll(async () => {
  for (const [name, value] of Object.entries(previous)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await runtime.dispose();
});

async function childEnvironment(env?: Record<string, string | undefined>): Promise<Record<string, string>> {
  const handle = runtime.spawn(
    spec(['/usr/bin/env', '-0'], {
      env,
      stdio: { stdin: 'ignore', stdout: { maxBytes: 1 << 20 }, stderr: 'inherit' },
    }),
  );
  expect(await handle.done).toEqual({ exitCode: 0, signal: null });
  const entries = handle.collected.stdout!.readFrom(0).text.split('\0').filter(Boolean);
  return Object.fromEntries(
    entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
}

describe('child environment', () => {
  it('drops credential-shaped, cloud-provider and BERTH_ names from the ambient environment', async () => {
    const env = await childEnvironment();
    for (const name of [
      'MY_API_KEY',
      'github_token',
      'DB_PASSWORD',
      'AWS_REGION',
      'AZURE_CLIENT_ID',
      'GOOGLE_APPLICATION_CREDENTIALS',
      'BERTH_TASK_ID',
      'berth_lower',
      'BERTH_TEST_PLAIN',
    ]) {
      expect(env, name).not.toHaveProperty(name);
    }
    expect(env.PLAIN_SETTING).toBe('kept');
    expect(env.GIT_AUTHOR_NAME).toBe('Someone');
    expect(env.PATH).toBe(process.env.PATH);
  });

  it('keeps explicit entries, even credential-shaped and BERTH_ ones, and honours tombstones', async () => {
    const env = await childEnvironment({
      GITHUB_TOKEN: 'explicit',
      BERTH_TASK_ID: 'task-7',
      DROP_ME: undefined,
      PLAIN_SETTING: undefined,
      NEW_ONE: 'x=y',
    });
    expect(env.GITHUB_TOKEN).toBe('explicit');
    expect(env.BERTH_TASK_ID).toBe('task-7');
    expect(env).not.toHaveProperty('DROP_ME');
    expect(env).not.toHaveProperty('PLAIN_SETTING');
    expect(env.NEW_ONE).toBe('x=y');
    expect(env).not.toHaveProperty('MY_API_KEY');
  });

  it('lets an explicit PWD win over the cwd default', async () => {
    expect((await childEnvironment({ PWD: '/claimed' })).PWD).toBe('/claimed');
    expect(await childEnvironment({ PWD: undefined })).not.toHaveProperty('PWD');
  });

  it('scrubbedParentEnv and childEnv work on a given parent', () => {
    const parent = { HOME: '/h', NPM_TOKEN: 'n', BERTH_X: '1', EMPTY: undefined };
    expect(scrubbedParentEnv(parent)).toEqual({ HOME: '/h' });
    expect(childEnv({ HOME: undefined, BERTH_X: '2' }, parent)).toEqual({ BERTH_X: '2' });
    expect(BERTH_ENV_PREFIX).toBe('BERTH_');
  });
});

// Pinned on purpose: changing the scrub is a security decision, so these names are literal.
describe('credential name heuristic (pinned)', () => {
  const dropped = [
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'apikey',
    'SECRET',
    'client_secret',
    'GH_TOKEN',
    'NPM_TOKEN',
    'NODE_AUTH_TOKEN',
    'PGPASSWORD',
    'MYSQL_PWD_PASSWD',
    'SSH_PASSPHRASE',
    'GOOGLE_APPLICATION_CREDENTIALS',
    'PRIVATE_KEY',
    'SSH_AUTH_SOCK',
    'HTTP_AUTHORIZATION',
    'SESSION_COOKIE',
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_PROFILE',
    'AZURE_TENANT_ID',
    'ARM_CLIENT_SECRET',
    'GCP_PROJECT',
    'CLOUDSDK_CONFIG',
    'DIGITALOCEAN_ACCESS_TOKEN',
    'HEROKU_API_KEY',
    'VERCEL_ORG_ID',
    'CLOUDFLARE_ACCOUNT_ID',
    'OS_PASSWORD',
    'VAULT_ADDR',
    'KUBECONFIG',
    'DATABASE_URL',
    'SENTRY_DSN',
    'SLACK_WEBHOOK_URL',
    'GPG_SIGNING_KEY',
    'SIGNING_KEY_ID',
    'STRIPE_KEY',
    'GITLAB_PAT',
  ];
  const kept = [
    'PATH',
    'HOME',
    'USER',
    'SHELL',
    'LANG',
    'TERM',
    'PWD',
    'TMPDIR',
    'NODE_OPTIONS',
    'GIT_AUTHOR_NAME',
    'GIT_AUTHOR_EMAIL',
    'EDITOR',
    'KEYBOARD_LAYOUT',
    'XDG_RUNTIME_DIR',
    'CI',
    'PATHEXT',
  ];
  it.each(dropped)('drops %s', (name) => expect(isCredentialShapedName(name)).toBe(true));
  it.each(kept)('keeps %s', (name) => expect(isCredentialShapedName(name)).toBe(false));
});
