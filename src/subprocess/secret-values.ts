/**
 * Credential-shaped environment *values*, whatever the variable is called: a URL with a password
 * in its userinfo or a credential in its query, a JWT, a PEM private key block, a token with a
 * well-known issuer prefix, a connection string's account key. They are a security surface: tests
 * pin them literally.
 *
 * Every check is a linear scan (`indexOf` and bounded loops, no backtracking regex): an
 * environment value can be 128 KiB, and the scrub runs on every spawn.
 * @module
 */

/**
 * Token prefixes of well-known issuers and the fewest token characters (`[A-Za-z0-9_-]`, plus `.`
 * where the format has them) that must follow, so a word that merely starts alike is kept.
 */
export const SECRET_TOKEN_PREFIXES: readonly { readonly prefix: string; readonly minRest: number }[] =
  Object.freeze([
    { prefix: 'ghp_', minRest: 30 }, // GitHub personal access token (classic)
    { prefix: 'gho_', minRest: 30 }, // GitHub OAuth token
    { prefix: 'ghu_', minRest: 30 }, // GitHub user-to-server token
    { prefix: 'ghs_', minRest: 30 }, // GitHub server-to-server token
    { prefix: 'ghr_', minRest: 30 }, // GitHub refresh token
    { prefix: 'github_pat_', minRest: 30 }, // GitHub fine-grained token
    { prefix: 'glpat-', minRest: 20 }, // GitLab personal access token
    { prefix: 'gldt-', minRest: 20 }, // GitLab deploy token
    { prefix: 'glptt-', minRest: 20 }, // GitLab pipeline trigger token
    { prefix: 'sk-', minRest: 20 }, // OpenAI, Anthropic (sk-ant-), DeepSeek and others
    { prefix: 'sk_live_', minRest: 16 }, // Stripe secret key
    { prefix: 'sk_test_', minRest: 16 },
    { prefix: 'rk_live_', minRest: 16 }, // Stripe restricted key
    { prefix: 'xoxb-', minRest: 10 }, // Slack bot token
    { prefix: 'xoxp-', minRest: 10 }, // Slack user token
    { prefix: 'xoxa-', minRest: 10 },
    { prefix: 'xoxe-', minRest: 10 },
    { prefix: 'xoxs-', minRest: 10 },
    { prefix: 'xoxr-', minRest: 10 },
    { prefix: 'xapp-', minRest: 10 }, // Slack app-level token
    { prefix: 'AKIA', minRest: 16 }, // AWS access key id
    { prefix: 'ASIA', minRest: 16 }, // AWS temporary access key id
    { prefix: 'AIza', minRest: 35 }, // Google API key
    { prefix: 'ya29.', minRest: 20 }, // Google OAuth access token
    { prefix: 'npm_', minRest: 36 }, // npm token
    { prefix: 'pypi-', minRest: 50 }, // PyPI API token
    { prefix: 'hf_', minRest: 30 }, // Hugging Face token
    { prefix: 'dop_v1_', minRest: 40 }, // DigitalOcean token
    { prefix: 'dckr_pat_', minRest: 20 }, // Docker Hub token
    { prefix: 'shpat_', minRest: 32 }, // Shopify access token
    { prefix: 'hvs.', minRest: 20 }, // Vault service token
    { prefix: 'SG.', minRest: 40 }, // SendGrid API key
  ]);

/** Keys of a secret inside a connection string (`...;AccountKey=...`, Azure storage and buses). */
export const SECRET_CONNECTION_KEYS: readonly string[] = Object.freeze([
  'AccountKey=',
  'SharedAccessKey=',
  'SharedAccessSignature=',
]);

/** URL query parameters whose value is a credential (besides credential-shaped names). */
const CREDENTIAL_QUERY_NAMES = new Set([
  'sig',
  'signature',
  'x-amz-signature',
  'x-amz-security-token',
  'x-goog-signature',
  'x-goog-credential',
]);

/** The reason a value looks like a credential, or `null`. */
export function credentialValueKind(
  value: string,
  isCredentialName: (name: string) => boolean,
): string | null {
  if (value.length < 8) return null;
  if (hasUrlCredential(value, isCredentialName)) return 'a URL with a credential';
  if (hasPrivateKeyBlock(value)) return 'a PEM private key block';
  if (hasJwt(value)) return 'a JWT';
  if (SECRET_CONNECTION_KEYS.some((key) => value.includes(key))) return 'a connection string with a key';
  const token = tokenPrefixIn(value);
  return token === null ? null : `a ${token} token`;
}

const isTokenChar = (code: number): boolean =>
  (code >= 48 && code <= 57) || // 0-9
  (code >= 65 && code <= 90) || // A-Z
  (code >= 97 && code <= 122) || // a-z
  code === 95 || // _
  code === 45; // -

/** Length of the run of token characters (and `.` when `dots`) at `from`, counted up to `cap`. */
function runLength(value: string, from: number, cap: number, dots = false): number {
  let n = 0;
  while (n < cap && from + n < value.length) {
    const code = value.charCodeAt(from + n);
    if (!isTokenChar(code) && !(dots && code === 46)) break;
    n++;
  }
  return n;
}

/** The first well-known token prefix found at a word start in `value`, or null. */
function tokenPrefixIn(value: string): string | null {
  for (const { prefix, minRest } of SECRET_TOKEN_PREFIXES) {
    for (let at = value.indexOf(prefix); at !== -1; at = value.indexOf(prefix, at + 1)) {
      const before = at === 0 ? -1 : value.charCodeAt(at - 1);
      if (before !== -1 && isTokenChar(before)) continue;
      const dots = prefix.endsWith('.');
      if (runLength(value, at + prefix.length, minRest, dots) >= minRest) return prefix;
    }
  }
  return null;
}

/**
 * `scheme://user:password@host` (a non-empty password), or a URL whose query names a credential
 * (`?token=...`, `&sig=...`). Authorities end at the next `/`, so no two scans overlap; each
 * whitespace-separated word holding a URL has its query read once.
 */
function hasUrlCredential(value: string, isCredentialName: (name: string) => boolean): boolean {
  let found = false;
  for (let at = value.indexOf('://'); at !== -1; at = value.indexOf('://', at + 3)) {
    found = true;
    if (authorityHasPassword(value, at + 3)) return true;
  }
  if (!found) return false;
  let start = 0;
  for (let i = 0; i <= value.length; i++) {
    if (i < value.length && value.charCodeAt(i) > 32) continue;
    if (i > start) {
      const word = value.slice(start, i);
      if (word.includes('://') && queryHasCredential(word, isCredentialName)) return true;
    }
    start = i + 1;
  }
  return false;
}

/** The authority starting at `from` has `user:password@` with a non-empty password. */
function authorityHasPassword(value: string, from: number): boolean {
  let colon = -1;
  let atSign = -1;
  for (let end = from; end < value.length; end++) {
    const char = value[end]!;
    if (char === '/' || char === '?' || char === '#' || char <= ' ') break;
    if (char === '@')
      atSign = end; // the last '@' ends the userinfo ('@' may sit in a password)
    else if (char === ':' && atSign === -1 && colon === -1) colon = end;
  }
  return atSign !== -1 && colon !== -1 && colon < atSign && atSign - colon > 1;
}

/** A query parameter of `word` (up to its `#`) with a credential-shaped name and a value. */
function queryHasCredential(word: string, isCredentialName: (name: string) => boolean): boolean {
  const question = word.indexOf('?');
  if (question === -1) return false;
  const hash = word.indexOf('#', question);
  const query = word.slice(question + 1, hash === -1 ? word.length : hash);
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1) continue;
    const name = pair.slice(0, eq).toLowerCase();
    if (CREDENTIAL_QUERY_NAMES.has(name) || isCredentialName(name)) return true;
  }
  return false;
}

/** `-----BEGIN <...>PRIVATE KEY...-----` (RSA, EC, OPENSSH, ENCRYPTED, PGP ... BLOCK). */
function hasPrivateKeyBlock(value: string): boolean {
  for (let at = value.indexOf('-----BEGIN '); at !== -1; at = value.indexOf('-----BEGIN ', at + 1)) {
    const close = value.indexOf('-----', at + 11);
    if (close === -1) return false;
    if (close - at <= 80 && value.slice(at + 11, close).includes('PRIVATE KEY')) return true;
  }
  return false;
}

/** A JWT: `eyJ<header>.eyJ<payload>.<signature>` (both parts base64url JSON objects). */
function hasJwt(value: string): boolean {
  let at = value.indexOf('eyJ');
  while (at !== -1) {
    const header = runLength(value, at, Number.POSITIVE_INFINITY);
    const dot = at + header;
    if (header >= 10 && value[dot] === '.' && value.startsWith('eyJ', dot + 1)) {
      const payload = runLength(value, dot + 1, Number.POSITIVE_INFINITY);
      if (payload >= 10 && value[dot + 1 + payload] === '.') return true;
    }
    // Any 'eyJ' inside the run just scanned ends at the same place: continue after it.
    at = value.indexOf('eyJ', Math.max(at + 1, dot));
  }
  return false;
}
