/**
 * The network allowlist: strict validation of the option (typed errors that name the field and
 * say what to write) and matching on parsed URLs (origin exactly, path by whole segments,
 * methods), including the tricks that fool string-prefix checks.
 */
import { describe, expect, it } from 'vitest';
import {
  checkRequest,
  type NetworkOptions,
  type NetworkPolicy,
  resolveNetworkPolicy,
} from '../../../src/commands/net/allowlist.js';
import { InvalidArgumentError } from '../../../src/errors/index.js';

function policy(options: NetworkOptions): NetworkPolicy {
  const resolved = resolveNetworkPolicy(options, 'options.network');
  if (resolved === undefined) throw new Error('expected a policy');
  return resolved;
}

function allowed(p: NetworkPolicy, url: string, method = 'GET'): boolean {
  return checkRequest(p, new URL(url), method).allowed;
}

function refusal(value: unknown): InvalidArgumentError {
  try {
    resolveNetworkPolicy(value, 'options.network');
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return error as InvalidArgumentError;
  }
  throw new Error(`accepted ${JSON.stringify(value)}`);
}

describe('validation', () => {
  it('is off when absent and returns a frozen policy when given', () => {
    expect(resolveNetworkPolicy(undefined, 'options.network')).toBeUndefined();
    const p = policy({ allow: ['https://api.example.com/v1/'] });
    expect(Object.isFrozen(p)).toBe(true);
    expect(p.maxResponseBytes).toBe(16 * 1024 * 1024);
    expect(p.timeoutMs).toBe(30_000);
    expect(p.maxRedirects).toBe(10);
    // A policy it made passes through unchanged (the kernel takes either form).
    expect(resolveNetworkPolicy(p, 'x')).toBe(p);
  });

  it('refuses unknown keys with a did-you-mean', () => {
    const e = refusal({ allow: ['https://a.example/'], maxResponseByte: 10 });
    expect(e.field).toBe('options.network.maxResponseByte');
    expect(e.message).toContain('did you mean "maxResponseBytes"');
    const rule = refusal({ allow: [{ url: 'https://a.example/', method: ['GET'] }] });
    expect(rule.field).toBe('options.network.allow[0].method');
    expect(rule.message).toContain('did you mean "methods"');
  });

  it('refuses a missing or empty allow list, saying how to have no network', () => {
    expect(refusal({}).message).toContain('leave out the network option for no network');
    expect(refusal({ allow: [] }).field).toBe('options.network.allow');
    expect(refusal({ allow: 'https://a.example/' }).field).toBe('options.network.allow');
    expect(refusal('https://a.example/').field).toBe('options.network');
  });

  it.each([
    ['ftp://files.example.com/', 'only http and https'],
    ['api.example.com', 'not an absolute URL'],
    ['https://user:pw@api.example.com/', 'credentials'],
    ['https://api.example.com@evil.net/', 'credentials'],
    ['https://api.example.com/v1?key=1', 'query or fragment'],
    ['https://api.example.com/v1#x', 'query or fragment'],
    ['https://api.example.com/v1/../admin', '".." path segment'],
    ['https://api.example.com/v1/%2e%2e/admin', '".." path segment'],
    ['https://api.example.com/a%2Fb', 'encoded "/"'],
    ['https://api.example.com/ v1', 'blank'],
    ['https:\\\\api.example.com\\', 'backslash'],
    ['https://', 'not a valid URL'],
    ['', '1..4096 characters'],
  ])('refuses the prefix %j', (url, why) => {
    const e = refusal({ allow: [url] });
    expect(e.field).toBe('options.network.allow[0]');
    expect(e.message).toContain(why);
    expect(e.message).toContain('write a prefix such as');
    const inRule = refusal({ allow: [{ url }] });
    expect(inRule.field).toBe('options.network.allow[0].url');
  });

  it('refuses bad methods and names the closest', () => {
    expect(refusal({ allow: [{ url: 'https://a.example/', methods: [] }] }).field).toBe(
      'options.network.allow[0].methods',
    );
    expect(refusal({ allow: [{ url: 'https://a.example/', methods: ['GE T'] }] }).message).toContain(
      'not an HTTP method name',
    );
    const typo = refusal({ allow: [{ url: 'https://a.example/', methods: ['post', 'DELTE'] }] });
    expect(typo.message).toContain('did you mean "DELETE"');
    expect(refusal({ allow: [{ url: 'https://a.example/', methods: 'GET' }] }).message).toContain('or "*"');
  });

  it('refuses limits out of range', () => {
    for (const [key, value] of [
      ['maxResponseBytes', 0],
      ['maxResponseBytes', 1.5],
      ['timeoutMs', -1],
      ['timeoutMs', '1000'],
      ['maxRedirects', 101],
      ['maxRequestBytes', Number.NaN],
    ] as const) {
      const e = refusal({ allow: ['https://a.example/'], [key]: value });
      expect(e.field).toBe(`options.network.${key}`);
    }
    expect(policy({ allow: ['https://a.example/'], maxRedirects: 0 }).maxRedirects).toBe(0);
  });

  it('refuses a rule that is not a string or an object', () => {
    expect(refusal({ allow: [42] }).message).toContain('URL prefix string or { url, methods }');
    expect(refusal({ allow: [{ methods: ['GET'] }] }).field).toBe('options.network.allow[0].url');
  });
});

describe('matching', () => {
  const p = policy({
    allow: ['https://api.example.com/v1', { url: 'http://127.0.0.1:*/', methods: '*' }],
  });

  it('admits the prefix and what lies under it by whole segments', () => {
    expect(allowed(p, 'https://api.example.com/v1')).toBe(true);
    expect(allowed(p, 'https://api.example.com/v1/')).toBe(true);
    expect(allowed(p, 'https://api.example.com/v1/users?id=3')).toBe(true);
    expect(allowed(p, 'https://API.Example.COM:443/v1/x')).toBe(true);
    expect(allowed(p, 'https://api.example.com/v10')).toBe(false);
    expect(allowed(p, 'https://api.example.com/v')).toBe(false);
    expect(allowed(p, 'https://api.example.com/')).toBe(false);
    expect(allowed(p, 'https://api.example.com/V1')).toBe(false);
  });

  it('is not fooled by look-alike hosts, userinfo, ports or schemes', () => {
    expect(allowed(p, 'https://api.example.com.evil.net/v1')).toBe(false);
    expect(allowed(p, 'https://api.example.com@evil.net/v1')).toBe(false);
    expect(allowed(p, 'https://evil.net/https://api.example.com/v1')).toBe(false);
    expect(allowed(p, 'https://evilapi.example.com/v1')).toBe(false);
    expect(allowed(p, 'https://api.example.com:8443/v1')).toBe(false);
    expect(allowed(p, 'http://api.example.com/v1')).toBe(false);
    expect(allowed(p, 'https://api.example.com./v1')).toBe(false);
  });

  it('matches after the URL parser resolved dot segments and escapes', () => {
    expect(allowed(p, 'https://api.example.com/v1/../admin')).toBe(false);
    expect(allowed(p, 'https://api.example.com/v1/%2e%2e/admin')).toBe(false);
    expect(allowed(p, 'https://api.example.com/admin/../v1/x')).toBe(true);
    expect(allowed(p, 'https://api.example.com/%76%31/x')).toBe(true);
    // An escaped slash could route elsewhere on a server that decodes first: refused.
    expect(allowed(p, 'https://api.example.com/v1%2F..%2Fadmin')).toBe(false);
    expect(allowed(p, 'https://api.example.com/v1/a%2Fb')).toBe(false);
    expect(allowed(p, 'https://api.example.com/v1/%ZZ')).toBe(false);
  });

  it('takes any port with :* and any method with *', () => {
    expect(allowed(p, 'http://127.0.0.1:9/x', 'DELETE')).toBe(true);
    expect(allowed(p, 'http://127.0.0.1/x', 'PATCH')).toBe(true);
    // Numeric forms of the address are the same host once parsed.
    expect(allowed(p, 'http://2130706433:80/')).toBe(true);
    expect(allowed(p, 'http://0x7f.0.0.1:80/')).toBe(true);
    expect(allowed(p, 'http://127.0.0.2:80/')).toBe(false);
    expect(allowed(p, 'http://localhost:80/')).toBe(false);
  });

  it('allows GET and HEAD by default, compares methods case-insensitively, and says why not', () => {
    expect(allowed(p, 'https://api.example.com/v1', 'HEAD')).toBe(true);
    expect(allowed(p, 'https://api.example.com/v1', 'get')).toBe(true);
    const post = checkRequest(p, new URL('https://api.example.com/v1/x'), 'POST');
    expect(post).toEqual({
      allowed: false,
      reason:
        'method POST is not allowed for https://api.example.com/v1/x (the network allowlist allows GET, HEAD there)',
    });
    const other = checkRequest(p, new URL('https://evil.net/'), 'GET');
    expect(other.allowed).toBe(false);
    if (!other.allowed) {
      expect(other.reason).toContain('GET https://evil.net/ is not in the network allowlist');
      expect(other.reason).toContain('allowed: GET,HEAD https://api.example.com/v1; * http://127.0.0.1:*/');
    }
  });

  it('refuses schemes other than http and https', () => {
    const verdict = checkRequest(p, new URL('file:///etc/passwd'), 'GET');
    expect(verdict.allowed).toBe(false);
  });

  it('handles IPv6 hosts', () => {
    const v6 = policy({ allow: ['http://[::1]:8080/'] });
    expect(allowed(v6, 'http://[0:0::1]:8080/x')).toBe(true);
    expect(allowed(v6, 'http://[::2]:8080/x')).toBe(false);
  });
});
