/** Dashboard test helpers: sign in through the form, carry the cookies, post forms with the CSRF token. */
import { SELF } from 'cloudflare:test';

export const ORIGIN = 'http://gw.test';
export const ADMIN_TOKEN = 'test-admin-token';

/** A tiny cookie jar: name → value, updated from each response's Set-Cookie headers. */
export class Browser {
  readonly jar = new Map<string, string>();
  csrf = '';

  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private remember(res: Response): void {
    for (const line of res.headers.getAll('set-cookie')) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (expired) this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  async get(path: string): Promise<Response> {
    const res = await SELF.fetch(`${ORIGIN}${path}`, {
      headers: { cookie: this.cookieHeader() },
      redirect: 'manual',
    });
    this.remember(res);
    return res;
  }

  /** GETs a page and reads its CSRF token; returns the HTML. */
  async page(path: string): Promise<string> {
    const res = await this.get(path);
    const html = await res.text();
    const m = /name="_csrf" value="([^"]+)"/.exec(html);
    if (m?.[1]) this.csrf = m[1];
    return html;
  }

  async post(
    path: string,
    fields: Record<string, string>,
    options: { origin?: string | null; csrf?: string | null } = {},
  ): Promise<Response> {
    const body = new URLSearchParams(fields);
    const csrf = options.csrf === undefined ? this.csrf : options.csrf;
    if (csrf !== null) body.set('_csrf', csrf);
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: this.cookieHeader(),
    };
    const origin = options.origin === undefined ? ORIGIN : options.origin;
    if (origin !== null) headers.origin = origin;
    const res = await SELF.fetch(`${ORIGIN}${path}`, { method: 'POST', headers, body, redirect: 'manual' });
    this.remember(res);
    return res;
  }

  async signIn(token = ADMIN_TOKEN): Promise<Response> {
    const res = await this.post('/dashboard/login', { token }, { csrf: null });
    await this.page('/dashboard/tenants');
    return res;
  }
}

export function location(res: Response): string {
  return res.headers.get('location') ?? '';
}

/** A named admin made through the admin API as the break-glass owner; its token is returned once. */
export async function createAdmin(
  role: 'owner' | 'admin' | 'viewer' | 'tenant_admin',
  tenantIds: string[] = [],
  name = `${role}-${crypto.randomUUID().slice(0, 8)}`,
): Promise<{ id: string; name: string; token: string }> {
  const res = await SELF.fetch(`${ORIGIN}/admin/admins`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, role, ...(tenantIds.length ? { tenant_ids: tenantIds } : {}) }),
  });
  if (res.status !== 201) throw new Error(`admin create answered ${res.status}: ${await res.text()}`);
  const made = (await res.json()) as { id: string; name: string; token: string };
  return { id: made.id, name: made.name, token: made.token };
}

/** The change forms on a page (POST forms other than sign-out), by action. */
export function changeForms(html: string): string[] {
  return [...html.matchAll(/<form method="post" action="([^"]+)"/g)]
    .map(([, action]) => action ?? '')
    .filter((action) => action !== '/dashboard/logout');
}

/** The main navigation's entries, by label. */
export function navLabels(html: string): string[] {
  const nav = /<nav aria-label="Main">([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
  return [...nav.matchAll(/<a [^>]*>([^<]+)<\/a>/g)].map(([, label]) => label ?? '');
}
