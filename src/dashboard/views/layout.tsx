/** The page shell: head with the inline stylesheet (CSP nonce), skip link, navigation, sign-out, main. */
import type { Context } from 'hono';
import { html } from 'hono/html';
import type { Child } from 'hono/jsx';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { DashboardEnv } from '../context';
import type { Session } from '../session';
import { CSS } from '../styles';

export type Section = 'tenants' | 'routes' | 'providers' | 'usage' | 'logs';

export interface PageOptions {
  title: string;
  session: Session | null;
  section?: Section;
  /** Load the copy-button script (the secret page only). */
  copyScript?: boolean;
}

const NAV: { section: Section; href: string; label: string }[] = [
  { section: 'tenants', href: '/dashboard/tenants', label: 'Tenants & keys' },
  { section: 'routes', href: '/dashboard/routes', label: 'Routes' },
  { section: 'providers', href: '/dashboard/providers', label: 'Providers' },
  { section: 'usage', href: '/dashboard/usage', label: 'Usage' },
  { section: 'logs', href: '/dashboard/logs', label: 'Logs' },
];

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
                  {NAV.map((n) => (
                    <li>
                      <a href={n.href} aria-current={n.section === section ? 'page' : undefined}>
                        {n.label}
                      </a>
                    </li>
                  ))}
                </ul>
              </nav>
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
