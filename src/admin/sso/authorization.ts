/**
 * The two requests of the authorization code flow (OpenID Connect Core §3.1,
 * with PKCE): the URL that sends the browser to the provider, and the code's
 * exchange for tokens at the token endpoint. The client authenticates with
 * client_secret_basic or client_secret_post (OIDC_CLIENT_AUTH, else basic
 * unless the provider lists only post), or not at all as a public client.
 */
import * as z from 'zod';
import type { OidcConfig } from './config';
import type { ProviderMetadata } from './discovery';
import { FETCH_TIMEOUT_MS, type HttpGet, SsoUnavailable } from './fetch-json';
import { codeChallenge, type SignInSecrets } from './pkce';

export async function authorizationUrl(
  oidc: OidcConfig,
  meta: ProviderMetadata,
  redirectUri: string,
  secrets: SignInSecrets,
): Promise<string> {
  const url = new URL(meta.authorization_endpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', oidc.clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('scope', oidc.scopes);
  url.searchParams.set('state', secrets.state);
  url.searchParams.set('nonce', secrets.nonce);
  url.searchParams.set('code_challenge', await codeChallenge(secrets.verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  return url.toString();
}

/** How the client authenticates at the token endpoint. */
export function clientAuthOf(
  oidc: OidcConfig,
  meta: ProviderMetadata,
): 'client_secret_basic' | 'client_secret_post' | 'none' {
  if (oidc.clientSecret === null) return 'none';
  if (oidc.clientAuth) return oidc.clientAuth;
  const supported = meta.token_endpoint_auth_methods_supported;
  return supported && !supported.includes('client_secret_basic') && supported.includes('client_secret_post')
    ? 'client_secret_post'
    : 'client_secret_basic';
}

const TokenResponse = z.looseObject({ id_token: z.string().min(1) });
const TokenError = z.looseObject({ error: z.string(), error_description: z.string().optional() });

export type Exchange = { ok: true; idToken: string } | { ok: false; message: string };

/** RFC 6749 §2.3.1: the id and secret are form-encoded before they are joined for Basic. */
const formEncode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');

export async function exchangeCode(
  post: HttpGet,
  oidc: OidcConfig,
  meta: ProviderMetadata,
  code: string,
  redirectUri: string,
  verifier: string,
): Promise<Exchange> {
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
  });
  const headers = new Headers({
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  });
  const auth = clientAuthOf(oidc, meta);
  if (auth === 'client_secret_basic') {
    const pair = `${formEncode(oidc.clientId)}:${formEncode(oidc.clientSecret ?? '')}`;
    headers.set('authorization', `Basic ${btoa(pair)}`);
  } else {
    form.set('client_id', oidc.clientId);
    if (auth === 'client_secret_post') form.set('client_secret', oidc.clientSecret ?? '');
  }
  let res: Response;
  try {
    res = await post(meta.token_endpoint, {
      method: 'POST',
      headers,
      body: form,
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch (err) {
    throw new SsoUnavailable(
      `${meta.token_endpoint} could not be reached (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const error = TokenError.safeParse(json);
    const why = error.success
      ? `${error.data.error}${error.data.error_description ? `: ${error.data.error_description}` : ''}`
      : `HTTP ${res.status}`;
    return { ok: false, message: `The identity provider refused the sign-in code (${why}).` };
  }
  const tokens = TokenResponse.safeParse(json);
  return tokens.success
    ? { ok: true, idToken: tokens.data.id_token }
    : {
        ok: false,
        message: 'The identity provider answered without an ID token (is the openid scope granted?).',
      };
}
