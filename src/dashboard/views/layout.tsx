/**
 * The page shell: head with the inline stylesheet (CSP nonce), skip link, the
 * navigation the signed-in admin's role may use, who is signed in, sign-out, main.
 */
import type { Context } from 'hono';
import { html } from 'hono/html';
import type { Child } from 'hono/jsx';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AdminPrincipal } from '../../core/admin-principal';
import { canSome } from '../can';
import type { DashboardEnv, SignedIn } from '../context';
import { CSS } from '../styles';

export type Section =
  | 'tenants'
  | 'routes'
  | 'providers'
  | 'pricing'
  | 'mcp'
  | 'usage'
  | 'analytics'
  | 'logs'
  | 'audit'
  | 'admins';

export interface PageOptions {
  title: string;
  session: SignedIn | null;
  section?: Section;
  /** Load the copy-button script (the secret page only). */
  copyScript?: boolean;
}

/** Each entry is shown when the admin API call behind the page is allowed to the admin on some tenant. */
const NAV: { section: Section; href: string; label: string; op: string }[] = [
  { section: 'tenants', href: '/dashboard/tenants', label: 'Tenants & keys', op: 'GET /admin/tenants' },
  { section: 'routes', href: '/dashboard/routes', label: 'Routes', op: 'GET /admin/routes' },
  { section: 'providers', href: '/dashboard/providers', label: 'Providers', op: 'GET /admin/providers' },
  { section: 'pricing', href: '/dashboard/pricing', label: 'Pricing', op: 'GET /admin/pricing' },
  {
    section: 'mcp',
    href: '/dashboard/mcp-servers',
    label: 'MCP servers',
    op: 'GET /admin/tenants/{id}/mcp-servers',
  },
  { section: 'usage', href: '/dashboard/usage', label: 'Usage', op: 'GET /admin/usage' },
  { section: 'analytics', href: '/dashboard/analytics', label: 'Analytics', op: 'GET /admin/analytics' },
  { section: 'logs', href: '/dashboard/logs', label: 'Logs', op: 'GET /admin/logs' },
  { section: 'audit', href: '/dashboard/audit', label: 'Audit', op: 'GET /admin/audit' },
  { section: 'admins', href: '/dashboard/admins', label: 'Admins', op: 'GET /admin/admins' },
];

const navFor = (who: AdminPrincipal) => NAV.filter((n) => canSome(who, n.op));

function Shell(props: PageOptions & { nonce: string; children: Child }) {
  const { title, session, section, nonce } = props;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="same-origin" />
        <title>{`${title} · Edgeway`}</title>
        <style nonce={nonce} dangerouslySetInnerHTML={{ __html: CSS }} />
        {props.copyScript ? <script src="/dashboard/assets/copy.js" defer /> : null}
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <a class="brand" href="/dashboard">
            Edgeway
          </a>
          {session ? (
            <>
              <nav aria-label="Main">
                <ul>
                  {navFor(session.who).map((n) => (
                    <li>
                      <a href={n.href} aria-current={n.section === section ? 'page' : undefined}>
                        {n.label}
                      </a>
                    </li>
                  ))}
                </ul>
              </nav>
              <p class="who">
                Signed in as <strong>{session.who.name}</strong> ({session.who.role})
              </p>
              <form method="post" action="/dashboard/logout">
                <input type="hidden" name="_csrf" value={session.csrf} />
                <button type="submit" class="secondary">
                  Sign out
                </button>
              </form>
            </>
          ) : null}
        </header>
        <main id="main" tabindex={-1}>
          {props.children}
        </main>
      </body>
    </html>
  );
}

/** Renders a whole page; dashboard pages are never cached (they carry data and CSRF tokens). */
export function page(
  c: Context<DashboardEnv>,
  options: PageOptions,
  body: Child,
  status: ContentfulStatusCode = 200,
) {
  c.header('cache-control', 'no-store');
  const nonce = c.get('secureHeadersNonce') ?? '';
  return c.html(
    html`<!DOCTYPE html>${(
      <Shell {...options} nonce={nonce}>
        {body}
      </Shell>
    )}`,
    status,
  );
}
