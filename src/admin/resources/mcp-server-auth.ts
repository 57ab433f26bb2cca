/**
 * Whether a server's `auth` holds together (pure): `bearer` and `header` need a secret (a PATCH may
 * keep the stored one while the type still takes one), `header` names its header, `none` and
 * `tenant_token` carry no secret of the server's own, and `tenant_token` is for global servers only
 * (each tenant's token is stored beside the global server; a tenant's own server just has a secret).
 */
import { badRequest } from '../../core/errors';
import type { McpAuthType } from '../../core/mcp-server';
import type { McpServerFields } from '../../storage/mcp-servers';
import type { McpAuthInput } from './mcp-server-schemas';

export interface ResolvedAuth {
  authType: McpAuthType;
  authHeader: string | null;
  /** A new secret to seal, `keep` the stored one, or null: none. */
  secret: string | 'keep' | null;
}

const takesSecret = (type: McpAuthType) => type === 'bearer' || type === 'header';

export function resolveAuth(
  input: McpAuthInput,
  stored: McpServerFields | null,
  global: boolean,
): ResolvedAuth {
  const { type, header = null, secret } = input;
  if (type === 'tenant_token' && !global) {
    throw badRequest(
      "auth 'tenant_token' is for global servers (each tenant stores its token); a tenant's own server takes a 'bearer' or 'header' secret.",
      'auth.type',
      'invalid_mcp_auth',
    );
  }
  if (type === 'header' && header === null) {
    throw badRequest(
      "auth 'header' needs the header name in auth.header.",
      'auth.header',
      'invalid_mcp_auth',
    );
  }
  if ((type === 'bearer' || type === 'none') && header !== null) {
    throw badRequest(
      `auth '${type}' sends no named header: drop auth.header.`,
      'auth.header',
      'invalid_mcp_auth',
    );
  }
  if (!takesSecret(type)) {
    if (secret !== undefined) {
      throw badRequest(
        `auth '${type}' takes no secret of the server's own.`,
        'auth.secret',
        'invalid_mcp_auth',
      );
    }
    return { authType: type, authHeader: header, secret: null };
  }
  if (secret !== undefined) return { authType: type, authHeader: header, secret };
  if (stored && takesSecret(stored.authType) && stored.secret) {
    return { authType: type, authHeader: header, secret: 'keep' };
  }
  throw badRequest(`auth '${type}' needs auth.secret.`, 'auth.secret', 'invalid_mcp_auth');
}
