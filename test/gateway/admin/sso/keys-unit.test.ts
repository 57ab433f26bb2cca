import { describe, expect, it } from 'vitest';
import { Discovery } from '../../../../src/admin/sso/discovery';
import { SsoUnavailable } from '../../../../src/admin/sso/fetch-json';
import { JWKS_TTL_MS, KeySets, REFRESH_GAP_MS } from '../../../../src/admin/sso/jwks';

/** A fake issuer: answers JSON by URL and counts the fetches. */
function issuer(docs: Record<string, unknown>) {
  const fetched: string[] = [];
  const get = async (url: string) => {
    fetched.push(url);
    return url in docs ? Response.json(docs[url]) : new Response('nope', { status: 404 });
  };
  return { fetched, get };
}

describe('KeySets', () => {
  it('caches an issuer’s keys for the TTL and refreshes on demand at most once per gap', async () => {
    let now = 0;
    const idp = issuer({
      'https://idp/keys': { keys: [{ kty: 'RSA', kid: 'a', n: 'x', e: 'AQAB' }, { kty: 'oct' }] },
    });
    const sets = new KeySets(idp.get, () => now);
    expect((await sets.keys('https://idp/keys')).map((k) => k.kid)).toEqual(['a', undefined]);
    await sets.keys('https://idp/keys');
    await sets.keys('https://idp/keys', true);
    expect(idp.fetched).toHaveLength(1);
    now = REFRESH_GAP_MS;
    await sets.keys('https://idp/keys', true);
    expect(idp.fetched).toHaveLength(2);
    now += JWKS_TTL_MS - 1;
    await sets.keys('https://idp/keys');
    expect(idp.fetched).toHaveLength(2);
    now += 1;
    await sets.keys('https://idp/keys');
    expect(idp.fetched).toHaveLength(3);
  });

  it('says which URL failed', async () => {
    const sets = new KeySets(issuer({}).get);
    await expect(sets.keys('https://idp/gone')).rejects.toThrow(
      new SsoUnavailable('https://idp/gone answered HTTP 404'),
    );
  });
});

describe('Discovery', () => {
  const doc = {
    issuer: 'https://idp.example.com/realms/x',
    authorization_endpoint: 'https://idp.example.com/auth',
    token_endpoint: 'https://idp.example.com/token',
    jwks_uri: 'https://idp.example.com/certs',
  };

  it('reads and caches the issuer’s metadata', async () => {
    const idp = issuer({ 'https://idp.example.com/realms/x/.well-known/openid-configuration': doc });
    const discovery = new Discovery(idp.get);
    expect(await discovery.metadata('https://idp.example.com/realms/x')).toMatchObject(doc);
    await discovery.metadata('https://idp.example.com/realms/x');
    expect(idp.fetched).toHaveLength(1);
  });

  it('refuses metadata that names another issuer', async () => {
    const idp = issuer({ 'https://idp.example.com/.well-known/openid-configuration': doc });
    await expect(new Discovery(idp.get).metadata('https://idp.example.com')).rejects.toThrow(
      /names the issuer/,
    );
  });
});
