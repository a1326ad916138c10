/**
 * The child's environment: the parent's, minus credential-shaped names, credential-shaped values
 * (`secret-values.ts`) and the managed `BERTH_` namespace, plus the caller's explicit entries (a
 * string opts a name back in; `undefined` is a tombstone that removes it).
 *
 * The scrub is a heuristic: it cannot see a secret of no known shape stored under a neutral name.
 * It errs toward dropping; pass what a child needs explicitly.
 * @module
 */
import { credentialValueKind } from './secret-values.js';
import { BERTH_ENV_PREFIX } from './types.js';

/**
 * Name fragments that mark a credential, matched case-insensitively anywhere in the name.
 * `AUTH` spares `AUTHOR` (git's author identity is not a secret), `PASS` spares `PASSENGER`
 * (Phusion Passenger's settings), `PWD` at the end spares the shell's own `PWD` and `OLDPWD`.
 */
export const CREDENTIAL_NAME_PATTERNS: readonly RegExp[] = [
  /SECRET/i,
  /TOKEN/i,
  /PASS(?!ENGER)/i,
  /^(?!OLDPWD$).+PWD$/i,
  /(?:^|_)PW(?:_|$)/i,
  /JWT/i,
  /CREDENTIAL/i,
  /CREDS?(?:_|$)/i,
  /PRIVATE/i,
  /AUTH(?!ORS?(?:_|$))/i,
  /COOKIE/i,
  /SESSION_?KEY/i,
  /API_?KEY/i,
  /ACCESS_?KEY/i,
  /KEY(?:S|_?ID)?(?:_|$)/i,
  /(?:^|_)PAT(?:_|$)/i,
  /(?:^|_)DSN$/i,
  /DATABASE_UR[IL]/i,
  /CONNECTION_STRING/i,
  /WEBHOOK/i,
  /SIGNING/i,
  /SALT(?:_|$)/i,
  /(?:^|_)SAS(?:_|$)/i,
  /^(?:OP|BW)_SESSION/i,
  /KUBECONFIG/i,
];

/** Prefixes of cloud-provider and deployment-platform variables, matched case-insensitively. */
export const CLOUD_PROVIDER_PREFIXES: readonly string[] = [
  'AWS_',
  'AMAZON_',
  'AZURE_',
  'ARM_',
  'GOOGLE_',
  'GCP_',
  'GCLOUD_',
  'CLOUDSDK_',
  'DIGITALOCEAN_',
  'ALIBABA_CLOUD_',
  'ALICLOUD_',
  'OCI_CLI_',
  'IBMCLOUD_',
  'IC_API',
  'HEROKU_',
  'VERCEL_',
  'NETLIFY_',
  'FLY_',
  'CLOUDFLARE_',
  'CF_',
  'LINODE_',
  'VULTR_',
  'HCLOUD_',
  'SCW_',
  'OS_',
  'OPENSTACK_',
  'TENCENTCLOUD_',
  'HUAWEICLOUD_',
  'VAULT_',
  'DOCKER_CONFIG',
];

// One combined expression: the scrub runs on every spawn, over every ambient name.
const SCRUB_RE = new RegExp(
  [
    `^(?:${CLOUD_PROVIDER_PREFIXES.map((prefix) => prefix.replace(/[^A-Z0-9_]/g, '')).join('|')})`,
    ...CREDENTIAL_NAME_PATTERNS.map((pattern) => pattern.source),
  ].join('|'),
  'i',
);

/** True when `name` looks like it holds a credential or belongs to a cloud provider's configuration. */
export function isCredentialShapedName(name: string): boolean {
  return SCRUB_RE.test(name);
}

/** True for a name in the managed `BERTH_` namespace (case-insensitive). */
export function isManagedName(name: string): boolean {
  return name.toUpperCase().startsWith(BERTH_ENV_PREFIX);
}

/**
 * Why `value` looks like a credential whatever its name (a URL with a password or a credential in
 * its query, a JWT, a PEM private key block, a well-known token prefix, a connection string's
 * key), or `null`.
 */
export function credentialShapedValue(value: string): string | null {
  return credentialValueKind(value, isCredentialShapedName);
}

/**
 * The parent's environment without credential-shaped names or values, cloud-provider variables,
 * or the managed `BERTH_` namespace.
 * @param parent - the environment to scrub (default `process.env`).
 */
export function scrubbedParentEnv(parent: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined || isDropped(name, value)) continue;
    out[name] = value;
  }
  return out;
}

// Every spawn scrubs the same few dozen variables: remember each verdict for the value it was made
// for (bounded; the environment rarely changes).
const verdicts = new Map<string, { value: string; dropped: boolean }>();
const MAX_VERDICTS = 4096;

function isDropped(name: string, value: string): boolean {
  const known = verdicts.get(name);
  if (known !== undefined && known.value === value) return known.dropped;
  const dropped =
    isManagedName(name) || isCredentialShapedName(name) || credentialShapedValue(value) !== null;
  if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
  verdicts.set(name, { value, dropped });
  return dropped;
}

/**
 * The scrubbed base with explicit entries merged on: a string is set as given (it survives the
 * scrub, by the caller's choice); `undefined` deletes the name.
 */
export function childEnv(
  explicit: Readonly<Record<string, string | undefined>> | undefined,
  parent: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env = scrubbedParentEnv(parent);
  if (explicit === undefined) return env;
  for (const [name, value] of Object.entries(explicit)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}
