import { describe, expect, it } from 'vitest';
import { authorizationUrl, clientAuthOf } from '../../../../src/admin/sso/authorization';
import type { OidcConfig } from '../../../../src/admin/sso/config';
import type { ProviderMetadata } from '../../../../src/admin/sso/discovery';
import { codeChallenge, newSignIn } from '../../../../src/admin/sso/pkce';

const oidc: OidcConfig = {
  issuer: 'https://idp.example.com',
  clientId: 'client-1',
  clientSecret: 's3cret',
  providerName: 'Okta',
  scopes: 'openid email profile groups',
  clientAuth: null,
  redirectUri: null,
};
const meta: ProviderMetadata = {
  issuer: 'https://idp.example.com',
  authorization_endpoint: 'https://idp.example.com/authorize?tenant=x',
  token_endpoint: 'https://idp.example.com/token',
  jwks_uri: 'https://idp.example.com/keys',
};

describe('PKCE', () => {
  it('derives the S256 challenge of RFC 7636 appendix B', async () => {
    expect(await codeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('makes a fresh 43-character verifier, state and nonce for every sign-in', () => {
    const a = newSignIn();
    const b = newSignIn();
    expect(a.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set([a.state, a.nonce, a.verifier, b.state, b.nonce, b.verifier]).size).toBe(6);
  });

  it('sends the browser with code, state, nonce and the S256 challenge, keeping the endpoint’s own query', async () => {
    const secrets = newSignIn();
    const url = new URL(
      await authorizationUrl(oidc, meta, 'https://gw.example.com/dashboard/sso/callback', secrets),
    );
    expect(url.origin + url.pathname).toBe('https://idp.example.com/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      tenant: 'x',
      response_type: 'code',
      client_id: 'client-1',
      redirect_uri: 'https://gw.example.com/dashboard/sso/callback',
      scope: 'openid email profile groups',
      state: secrets.state,
      nonce: secrets.nonce,
      code_challenge: await codeChallenge(secrets.verifier),
      code_challenge_method: 'S256',
    });
  });

  it('authenticates the client as configured, as the provider supports, or not at all without a secret', () => {
    expect(clientAuthOf(oidc, meta)).toBe('client_secret_basic');
    expect(
      clientAuthOf(oidc, { ...meta, token_endpoint_auth_methods_supported: ['client_secret_post'] }),
    ).toBe('client_secret_post');
    expect(clientAuthOf({ ...oidc, clientAuth: 'client_secret_post' }, meta)).toBe('client_secret_post');
    expect(clientAuthOf({ ...oidc, clientSecret: null }, meta)).toBe('none');
  });
});
