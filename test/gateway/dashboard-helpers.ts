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
