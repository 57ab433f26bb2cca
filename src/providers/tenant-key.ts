/**
 * The tenant's own key for a provider (BYOK), opened from the sealed copy the
 * key record carries, once per isolate per ciphertext. A tenant that stored a
 * key is billed on it or not served: when the key cannot be opened (the
 * PROVIDER_KEYS_SECRET secret is missing or was changed) the request fails
 * with 503 and is never sent with the deployment's key, which would bill the
 * operator for the tenant's usage.
 */
import { GatewayError } from '../core/errors';
import type { Principal } from '../core/principal';
import { setCapped } from '../util/capped-map';
import { openProviderKey, secretProblem } from '../util/provider-key-crypto';

/** Opened keys kept per isolate; the registry keeps their adapters on a similar bound. */
const MAX_OPENED = 512;

/** Opened keys of the current secret, by tenant, provider, IV and ciphertext (so a copied ciphertext is still checked). */
let opened: { secret: string; keys: Map<string, string> } | null = null;

export async function tenantProviderKey(
  principal: Principal,
  providerId: string,
  secret: string | undefined,
): Promise<string | null> {
  const sealed = principal.providerKeys[providerId];
  if (!sealed) return null;
  const problem = secretProblem(secret);
  if (secret === undefined || problem !== null) throw unavailable(principal.tenantId, providerId, problem);
  if (opened?.secret !== secret) opened = { secret, keys: new Map() };
  const cache = opened.keys;
  const id = `${principal.tenantId}\n${providerId}\n${sealed.iv}\n${sealed.ciphertext}`;
  const hit = cache.get(id);
  if (hit !== undefined) return hit;
  let key: string;
  try {
    key = await openProviderKey(secret, principal.tenantId, providerId, sealed);
  } catch {
    throw unavailable(
      principal.tenantId,
      providerId,
      'PROVIDER_KEYS_SECRET is not the one it was sealed with',
    );
  }
  setCapped(cache, id, key, MAX_OPENED);
  return key;
}

/** The client is told which provider; the operator's log says why (never anything of the key). */
function unavailable(tenantId: string, providerId: string, why: string | null): GatewayError {
  console.error(
    `tenant ${tenantId}: its own key for '${providerId}' cannot be opened: ${why ?? 'no secret'}`,
  );
  return new GatewayError(
    503,
    `This tenant's own key for provider '${providerId}' cannot be used right now; ask the gateway's operator to re-enter it.`,
    { code: 'tenant_provider_key_unavailable', source: 'gateway' },
  );
}
