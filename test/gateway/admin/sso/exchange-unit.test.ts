import { describe, expect, it } from 'vitest';
import { exchangeCode } from '../../../../src/admin/sso/authorization';
import type { OidcConfig } from '../../../../src/admin/sso/config';
import type { ProviderMetadata } from '../../../../src/admin/sso/discovery';

const oidc: OidcConfig = {
  issuer: 'https://idp.example.com',
  clientId: 'client 1',
  clientSecret: 's3cr:t',
  providerName: 'Keycloak',
  scopes: 'openid',
  clientAuth: null,
  redirectUri: null,
};
const meta: ProviderMetadata = {
  issuer: 'https://idp.example.com',
  authorization_endpoint: 'https://idp.example.com/auth',
  token_endpoint: 'https://idp.example.com/token',
  jwks_uri: 'https://idp.example.com/keys',
};

/** A token endpoint that records each request and answers `reply`. */
function endpoint(reply: Response) {
  const seen: { url: string; auth: string | null; form: URLSearchParams }[] = [];
  const post = async (url: string, init: RequestInit) => {
    const request = new Request(url, init);
    seen.push({
      url,
      auth: request.headers.get('authorization'),
      form: new URLSearchParams(new TextDecoder().decode(await request.arrayBuffer())),
    });
    return reply.clone();
  };
  return { seen, post };
}

const call = (config: OidcConfig, reply: Response) => {
  const idp = endpoint(reply);
  return exchangeCode(idp.post, config, meta, 'the-code', 'https://gw/cb', 'the-verifier').then((r) => ({
    result: r,
    seen: idp.seen[0],
  }));
};

describe('exchangeCode', () => {
  const ok = () => Response.json({ id_token: 'x.y.z', access_token: 'a' });

  it('sends the code, redirect URI and PKCE verifier, the client by HTTP Basic (form-encoded first)', async () => {
    const { result, seen } = await call(oidc, ok());
    expect(result).toEqual({ ok: true, idToken: 'x.y.z' });
    expect(seen?.url).toBe('https://idp.example.com/token');
    expect(Object.fromEntries(seen?.form ?? [])).toEqual({
      grant_type: 'authorization_code',
      code: 'the-code',
      redirect_uri: 'https://gw/cb',
      code_verifier: 'the-verifier',
    });
    expect(seen?.auth).toBe(`Basic ${btoa('client+1:s3cr%3At')}`);
  });

  it('puts the client in the form with client_secret_post, and only its id as a public client', async () => {
    const post = await call({ ...oidc, clientAuth: 'client_secret_post' }, ok());
    expect(post.seen?.auth).toBeNull();
    expect(post.seen?.form.get('client_id')).toBe('client 1');
    expect(post.seen?.form.get('client_secret')).toBe('s3cr:t');
    const pub = await call({ ...oidc, clientSecret: null }, ok());
    expect(pub.seen?.form.get('client_id')).toBe('client 1');
    expect(pub.seen?.form.has('client_secret')).toBe(false);
  });

  it('says in words why the provider refused the code, or that it sent no ID token', async () => {
    const refused = await call(
      oidc,
      Response.json({ error: 'invalid_grant', error_description: 'code expired' }, { status: 400 }),
    );
    expect(refused.result).toEqual({
      ok: false,
      message: 'The identity provider refused the sign-in code (invalid_grant: code expired).',
    });
    const noId = await call(oidc, Response.json({ access_token: 'a' }));
    expect(noId.result).toMatchObject({ ok: false, message: expect.stringContaining('without an ID token') });
  });
});
