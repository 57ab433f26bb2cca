import { describe, expect, it } from 'vitest';
import { CLOCK_SKEW_S, type Jwk, verifyJwt } from '../../../../src/admin/sso/jwt';
import { base64url } from '../../../../src/util/crypto';
import { claimsFor, makeKey, signJwt } from '../../sso-helpers';

const ISS = 'https://idp.example.com';
const AUD = 'edgeway-client';
const NOW = 1_800_000_000_000;
const expected = { issuer: ISS, audience: AUD, now: NOW };

const rsa = await makeKey('RS256', 'rsa-1');
const ec = await makeKey('ES256', 'ec-1');
const other = await makeKey('RS256', 'rsa-1');

/** A JWKS source that records how it was asked. */
function keys(...sets: Jwk[][]) {
  const calls: boolean[] = [];
  return {
    calls,
    keysFor: async (_kid: string | undefined, refresh: boolean) => {
      calls.push(refresh);
      return sets[Math.min(calls.length - 1, sets.length - 1)] ?? [];
    },
  };
}

describe('verifyJwt', () => {
  it('accepts an RS256 and an ES256 token signed by a key of the JWKS', async () => {
    for (const key of [rsa, ec]) {
      const token = await signJwt(key, claimsFor(ISS, AUD, NOW, { email: 'a@example.com' }));
      const result = await verifyJwt(token, keys([rsa.jwk, ec.jwk]).keysFor, expected);
      expect(result).toMatchObject({ ok: true, claims: { email: 'a@example.com' } });
    }
  });

  it('refuses a signature made by another key with the same kid', async () => {
    const token = await signJwt(other, claimsFor(ISS, AUD, NOW));
    expect(await verifyJwt(token, keys([rsa.jwk]).keysFor, expected)).toMatchObject({
      ok: false,
      reason: 'signature',
    });
  });

  it('refuses a token whose claims were altered after signing', async () => {
    const token = await signJwt(rsa, claimsFor(ISS, AUD, NOW, { groups: ['viewers'] }));
    const [h, , s] = token.split('.');
    const forged = base64url(
      new TextEncoder().encode(JSON.stringify(claimsFor(ISS, AUD, NOW, { groups: ['owners'] }))),
    );
    expect(await verifyJwt(`${h}.${forged}.${s}`, keys([rsa.jwk]).keysFor, expected)).toMatchObject({
      ok: false,
      reason: 'signature',
    });
  });

  it("refuses alg 'none' and HS256, whatever the JWKS holds", async () => {
    const body = base64url(new TextEncoder().encode(JSON.stringify(claimsFor(ISS, AUD, NOW))));
    for (const alg of ['none', 'HS256', 'RS512', 'PS256']) {
      const head = base64url(new TextEncoder().encode(JSON.stringify({ alg, kid: 'rsa-1' })));
      expect(await verifyJwt(`${head}.${body}.`, keys([rsa.jwk]).keysFor, expected)).toMatchObject({
        ok: false,
        reason: 'algorithm',
      });
    }
  });

  it('refuses an RS256 header over an EC key (no algorithm confusion)', async () => {
    const token = await signJwt(ec, claimsFor(ISS, AUD, NOW), { alg: 'RS256' });
    expect(await verifyJwt(token, keys([ec.jwk]).keysFor, expected)).toMatchObject({
      ok: false,
      reason: 'unknown_key',
    });
  });

  it('refuses an expired token, and one not valid yet, beyond the clock skew', async () => {
    const nowS = NOW / 1000;
    const expired = await signJwt(rsa, claimsFor(ISS, AUD, NOW, { exp: nowS - CLOCK_SKEW_S - 1 }));
    expect(await verifyJwt(expired, keys([rsa.jwk]).keysFor, expected)).toMatchObject({ reason: 'expired' });
    const early = await signJwt(rsa, claimsFor(ISS, AUD, NOW, { nbf: nowS + CLOCK_SKEW_S + 5 }));
    expect(await verifyJwt(early, keys([rsa.jwk]).keysFor, expected)).toMatchObject({
      reason: 'not_yet_valid',
    });
    // Within the skew both pass.
    const justExpired = await signJwt(rsa, claimsFor(ISS, AUD, NOW, { exp: nowS - 10, nbf: nowS + 10 }));
    expect(await verifyJwt(justExpired, keys([rsa.jwk]).keysFor, expected)).toMatchObject({ ok: true });
  });

  it('refuses a wrong issuer, a wrong audience and a foreign authorized party', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ iss: 'https://evil.example.com' }, 'issuer'],
      [{ aud: 'another-client' }, 'audience'],
      [{ aud: ['another-client', 'third'] }, 'audience'],
      [{ aud: [AUD, 'another-client'], azp: 'another-client' }, 'audience'],
    ];
    for (const [extra, reason] of cases) {
      const token = await signJwt(rsa, claimsFor(ISS, AUD, NOW, extra));
      expect(await verifyJwt(token, keys([rsa.jwk]).keysFor, expected)).toMatchObject({ ok: false, reason });
    }
    const listed = await signJwt(rsa, claimsFor(ISS, AUD, NOW, { aud: ['x', AUD] }));
    expect(await verifyJwt(listed, keys([rsa.jwk]).keysFor, expected)).toMatchObject({ ok: true });
  });

  it('checks the nonce when one is expected', async () => {
    const token = await signJwt(rsa, claimsFor(ISS, AUD, NOW, { nonce: 'n-1' }));
    expect(await verifyJwt(token, keys([rsa.jwk]).keysFor, { ...expected, nonce: 'n-1' })).toMatchObject({
      ok: true,
    });
    expect(await verifyJwt(token, keys([rsa.jwk]).keysFor, { ...expected, nonce: 'n-2' })).toMatchObject({
      reason: 'nonce',
    });
  });

  it('finds a rotated key by asking for the keys again, once', async () => {
    const rotated = await makeKey('RS256', 'rsa-2');
    const token = await signJwt(rotated, claimsFor(ISS, AUD, NOW));
    const source = keys([rsa.jwk], [rsa.jwk, rotated.jwk]);
    expect(await verifyJwt(token, source.keysFor, expected)).toMatchObject({ ok: true });
    expect(source.calls).toEqual([false, true]);

    const unknown = await makeKey('RS256', 'rsa-9');
    const stale = keys([rsa.jwk]);
    expect(
      await verifyJwt(await signJwt(unknown, claimsFor(ISS, AUD, NOW)), stale.keysFor, expected),
    ).toMatchObject({
      reason: 'unknown_key',
    });
    expect(stale.calls).toEqual([false, true]);
  });

  it('refuses what is not a JWT', async () => {
    for (const token of ['', 'abc', 'a.b', 'a.b.c.d', 'eyJ.!!.x']) {
      expect(await verifyJwt(token, keys([rsa.jwk]).keysFor, expected)).toMatchObject({
        reason: 'malformed',
      });
    }
  });
});
