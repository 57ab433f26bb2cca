/**
 * An OpenID Connect issuer's metadata, from <issuer>/.well-known/openid-configuration,
 * cached per isolate for DISCOVERY_TTL_MS (failures are not cached). The
 * document must name the configured issuer exactly (OpenID Connect Discovery
 * 1.0 §4.3), so a misspelt or impostor issuer is refused at once.
 */
import * as z from 'zod';
import { fetchJson, type HttpGet, SsoUnavailable } from './fetch-json';

export const DISCOVERY_TTL_MS = 60 * 60_000;

export const ProviderMetadata = z.looseObject({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
  code_challenge_methods_supported: z.array(z.string()).optional(),
});
export type ProviderMetadata = z.infer<typeof ProviderMetadata>;

export class Discovery {
  private readonly cache = new Map<string, { doc: ProviderMetadata; at: number }>();

  constructor(
    private readonly get: HttpGet,
    private readonly now: () => number = Date.now,
  ) {}

  async metadata(issuer: string): Promise<ProviderMetadata> {
    const hit = this.cache.get(issuer);
    if (hit && this.now() - hit.at < DISCOVERY_TTL_MS) return hit.doc;
    const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const doc = await fetchJson(this.get, url, ProviderMetadata);
    if (doc.issuer !== issuer)
      throw new SsoUnavailable(`${url} names the issuer '${doc.issuer}', not OIDC_ISSUER '${issuer}'`);
    this.cache.set(issuer, { doc, at: this.now() });
    return doc;
  }
}
