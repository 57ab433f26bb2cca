/** The secret a request presents: `Authorization: Bearer <secret>`, or `x-api-key` where the route accepts it (pure). */

export function extractKey(headers: Headers, allowXApiKey: boolean): string | null {
  const authorization = headers.get('authorization');
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match?.[1] ?? null;
  }
  return allowXApiKey ? headers.get('x-api-key')?.trim() || null : null;
}
