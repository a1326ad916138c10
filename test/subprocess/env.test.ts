import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BERTH_ENV_PREFIX,
  childEnv,
  credentialShapedValue,
  isCredentialShapedName,
  LocalSubprocessRuntime,
  SECRET_CONNECTION_KEYS,
  SECRET_TOKEN_PREFIXES,
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
    // Found reaching commands by the attack corpus:
    'MYSQL_PWD',
    'SSHPASS',
    'DB_PASS',
    'SQLALCHEMY_DATABASE_URI',
    'CI_JOB_JWT',
    'CI_JOB_JWT_V2',
    'LDAP_BIND_PW',
    // and their kin:
    'REDIS_PASS',
    'SMTP_PASSWORD',
    'PGPASSFILE',
    'GIT_ASKPASS',
    'DB_PWD',
    'PW',
    'MONGO_CREDS',
    'HASH_SALT',
    'AZURE_STORAGE_SAS',
    'STORAGE_SAS_TOKEN',
    'OP_SESSION_my',
    'BW_SESSION',
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
    'OLDPWD',
    'PASSENGER_APP_ENV',
    'REDIS_URL',
    'MONGODB_URI',
    'SESSION_MANAGER',
    'XDG_SESSION_ID',
    'POWERLINE_CONFIG',
    'KEYMAP',
  ];
  it.each(dropped)('drops %s', (name) => expect(isCredentialShapedName(name)).toBe(true));
  it.each(kept)('keeps %s', (name) => expect(isCredentialShapedName(name)).toBe(false));
});

// Pinned on purpose, like the names: a secret is dropped by its shape whatever its name.
describe('credential value shapes (pinned)', () => {
  const fake = (n: number) => 'aB3'.repeat(Math.ceil(n / 3)).slice(0, n);
  const dropped: [string, string][] = [
    ['a URL with a password', 'redis://:s3cret@cache.internal:6379/0'],
    ['a URL with user and password', 'mongodb+srv://app:hunter22@cluster0.example.net/db'],
    ['a URL with a password inside a longer value', 'proxy is http://me:pw@proxy:3128 today'],
    ['a URL with a token in its query', 'https://hooks.example.com/run?id=4&token=abc123def'],
    ['a URL with a signature in its query', 'https://bucket.s3.amazonaws.com/x?X-Amz-Signature=ab12'],
    ['a SAS URL', 'https://acct.blob.core.windows.net/c?sv=2022&sig=AbCdEf%3D'],
    ['a JWT', `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${fake(43)}`],
    ['a JWT after a scheme word', `Bearer eyJ${fake(20)}.eyJ${fake(30)}.${fake(20)}`],
    ['a PEM private key', '-----BEGIN RSA PRIVATE KEY-----\nMIIEow...\n-----END RSA PRIVATE KEY-----'],
    ['an OpenSSH private key', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn...'],
    ['a PKCS#8 key', '-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIF...'],
    ['an Azure connection string', 'DefaultEndpointsProtocol=https;AccountName=a;AccountKey=Zm9vYmFy;'],
    ['a service bus connection string', 'Endpoint=sb://x.servicebus.windows.net/;SharedAccessKey=abc='],
    ...SECRET_TOKEN_PREFIXES.map(
      ({ prefix, minRest }) => [`a ${prefix} token`, `${prefix}${fake(minRest)}`] as [string, string],
    ),
    ['a token after other text', `token=${'ghp_'}${fake(36)}`],
  ];
  const kept: [string, string][] = [
    ['a URL without credentials', 'redis://cache.internal:6379/0'],
    ['a URL with only a user', 'ssh://git@github.com/org/repo.git'],
    ['a URL with an empty password', 'redis://:@localhost:6379'],
    ['a URL with a harmless query', 'https://example.com/search?q=token+limits&page=2'],
    ['an IPv6 URL', 'http://[::1]:8080/health'],
    ['a path', '/usr/local/bin:/usr/bin:/bin'],
    ['a PEM certificate', '-----BEGIN CERTIFICATE-----\nMIIB...'],
    ['a public key', '-----BEGIN PUBLIC KEY-----\nMIIB...'],
    ['a short prefix look-alike', 'sk-SK'],
    ['a word that ends in a prefix', `task-${fake(30)}`],
    ['a prefix with too little after it', `ghp_${fake(10)}`],
    ['base64 that is not a JWT', `eyJ${fake(40)}`],
    ['a locale', 'en_US.UTF-8'],
  ];
  it.each(dropped)('drops %s', (_, value) => expect(credentialShapedValue(value)).not.toBeNull());
  it.each(kept)('keeps %s', (_, value) => expect(credentialShapedValue(value)).toBeNull());

  it('pins the token prefixes and connection-string keys', () => {
    expect(SECRET_TOKEN_PREFIXES.map((entry) => `${entry.prefix}${entry.minRest}`)).toEqual([
      'ghp_30',
      'gho_30',
      'ghu_30',
      'ghs_30',
      'ghr_30',
      'github_pat_30',
      'glpat-20',
      'gldt-20',
      'glptt-20',
      'sk-20',
      'sk_live_16',
      'sk_test_16',
      'rk_live_16',
      'xoxb-10',
      'xoxp-10',
      'xoxa-10',
      'xoxe-10',
      'xoxs-10',
      'xoxr-10',
      'xapp-10',
      'AKIA16',
      'ASIA16',
      'AIza35',
      'ya29.20',
      'npm_36',
      'pypi-50',
      'hf_30',
      'dop_v1_40',
      'dckr_pat_20',
      'shpat_32',
      'hvs.20',
      'SG.40',
    ]);
    expect(SECRET_CONNECTION_KEYS).toEqual(['AccountKey=', 'SharedAccessKey=', 'SharedAccessSignature=']);
  });

  it('answers adversarial values (128 KiB of near misses) correctly', () => {
    const size = 128 * 1024;
    expect(credentialShapedValue('eyJ'.repeat(size / 3))).toBeNull();
    expect(credentialShapedValue('a://'.repeat(size / 4))).toBeNull();
    expect(credentialShapedValue(`x://${'a'.repeat(size)}?`.repeat(2))).toBeNull();
    expect(credentialShapedValue('sk-a '.repeat(size / 5))).toBeNull();
    expect(credentialShapedValue('-----BEGIN '.repeat(size / 11))).toBeNull();
    expect(credentialShapedValue(`${'eyJ'.repeat(size / 3)}.eyJ${'a'.repeat(20)}.x`)).not.toBeNull();
  });

  it('drops credential-shaped values under neutral names from a real child, and keeps explicit ones', async () => {
    const names = ['NEUTRAL_ONE', 'NEUTRAL_TWO', 'NEUTRAL_THREE', 'NEUTRAL_FOUR', 'NEUTRAL_FIVE'];
    const values = [
      'postgres://app:pw@db/app',
      `eyJ${fake(20)}.eyJ${fake(20)}.${fake(20)}`,
      '-----BEGIN PRIVATE KEY-----\nMIIE',
      `ghp_${fake(36)}`,
      `AKIA${'A'.repeat(16)}`,
    ];
    const saved = names.map((name) => process.env[name]);
    names.forEach((name, i) => {
      process.env[name] = values[i];
    });
    try {
      const env = await childEnvironment();
      for (const name of names) expect(env, name).not.toHaveProperty(name);
      const explicit = await childEnvironment({ NEUTRAL_ONE: values[0] });
      expect(explicit.NEUTRAL_ONE).toBe(values[0]);
      expect(explicit).not.toHaveProperty('NEUTRAL_TWO');
    } finally {
      names.forEach((name, i) => {
        if (saved[i] === undefined) delete process.env[name];
        else process.env[name] = saved[i];
      });
    }
  });
});
