/** Dashboard sign-in shares the admin token's throttle: wrong tokens block the client with a 429 page. */
import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { THROTTLE_LIMIT } from '../../../src/core/throttle-protocol';
import { SESSION_COOKIE } from '../../../src/dashboard/session';
import { ADMIN_TOKEN, ORIGIN } from '../dashboard-helpers';

function signIn(ip: string, token: string): Promise<Response> {
  return SELF.fetch(`${ORIGIN}/dashboard/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: ORIGIN,
      'cf-connecting-ip': ip,
    },
    body: new URLSearchParams({ token }),
    redirect: 'manual',
  });
}

describe('dashboard sign-in throttling', () => {
  it(`answers 429 with retry-after from the ${THROTTLE_LIMIT}th wrong token, and then even for the right one`, async () => {
    const ip = '192.0.2.50';
    const statuses: number[] = [];
    for (let i = 0; i < THROTTLE_LIMIT; i++) statuses.push((await signIn(ip, `wrong-${i}`)).status);
    expect(statuses).toEqual([...Array(THROTTLE_LIMIT - 1).fill(401), 429]);

    const right = await signIn(ip, ADMIN_TOKEN);
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(right.headers.getAll('set-cookie').join('\n')).not.toContain(`${SESSION_COOKIE}=v1`);
    const html = await right.text();
    expect(html).toContain('Too many attempts');
    expect(html).toMatch(/try again in \d+ seconds/);
  });

  it('shares the count with the admin API: wrong admin tokens block sign-in too', async () => {
    const ip = '192.0.2.51';
    for (let i = 0; i < THROTTLE_LIMIT; i++) {
      await SELF.fetch('http://gw.test/admin/tenants', {
        headers: { authorization: 'Bearer wrong', 'cf-connecting-ip': ip },
      });
    }
    expect((await signIn(ip, ADMIN_TOKEN)).status).toBe(429);
    expect((await signIn('192.0.2.52', ADMIN_TOKEN)).status).toBe(303);
  });
});
