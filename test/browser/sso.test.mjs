// Single sign-on in real headless Chromium against `wrangler dev` and a REAL local OpenID Connect provider
// (the `oidc-provider` package, its development login and consent pages): each of owner, admin, viewer and
// a tenant_admin of one tenant signs in through "Sign in with Local IdP" (authorization code + PKCE), sees
// what its role allows, and signs out; a user whose groups map to nothing is refused in words. The provider
// runs on 127.0.0.2 and the gateway on 127.0.0.1, so the way back from the provider is a cross-site
// navigation, as it is in production. Screenshots go to test-artifacts/.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import Provider from 'oidc-provider';
import { d1Execute, startTestStack } from '../e2e/stack.mjs';
import { launch, shot } from './chromium.mjs';

const GATEWAY_PORT = 22487;
const IDP_HOST = '127.0.0.2';
const IDP_PORT = 22590;
const ISSUER = `http://${IDP_HOST}:${IDP_PORT}`;
const CLIENT_ID = 'edgeway-dashboard';
const CLIENT_SECRET = 'local-idp-client-secret';
/** Tenants made with known ids, so the role map can name them when the stack starts. */
const ACME = 'ten_sso_acme';
const BETA = 'ten_sso_beta';

/** The provider's users: each one's groups decide its role in the gateway. */
const ACCOUNTS = {
  olga: { name: 'Olga Owner', email: 'olga@example.com', groups: ['edgeway-owners', 'staff'] },
  adam: { name: 'Adam Admin', email: 'adam@example.com', groups: ['edgeway-admins'] },
  vera: { name: 'Vera Viewer', email: 'vera@example.com', groups: ['edgeway-viewers'] },
  tess: { name: 'Tess Acme', email: 'tess@acme.example', groups: ['acme-admins'] },
  nina: { name: 'Nina Nobody', email: 'nina@example.com', groups: ['marketing'] },
};

const ROLE_MAP = {
  claim: 'groups',
  rules: [
    { group: 'edgeway-owners', role: 'owner' },
    { group: 'edgeway-admins', role: 'admin' },
    { group: 'edgeway-viewers', role: 'viewer' },
    { group: 'acme-admins', role: 'tenant_admin', tenants: [ACME] },
  ],
};

let idp;
let stack;
let browser;
let page;
const consoleErrors = [];

async function startProvider() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'local-1', alg: 'RS256', use: 'sig' };
  const provider = new Provider(ISSUER, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [`http://127.0.0.1:${GATEWAY_PORT}/dashboard/sso/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    // The scopes' claims go into the ID token itself, as Okta's or Keycloak's group claims do.
    conformIdTokenClaims: false,
    findAccount: (_ctx, id) =>
      ACCOUNTS[id]
        ? { accountId: id, claims: () => ({ sub: id, email_verified: true, ...ACCOUNTS[id] }) }
        : undefined,
    jwks: { keys: [jwk] },
    cookies: { keys: ['sso-browser-test-cookie-key'] },
    features: { devInteractions: { enabled: true } },
  });
  const server = createServer(provider.callback());
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(IDP_PORT, IDP_HOST, resolve);
  });
  return server;
}

before(
  async () => {
    idp = await startProvider();
    stack = await startTestStack(GATEWAY_PORT, {
      OIDC_ISSUER: ISSUER,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_PROVIDER_NAME: 'Local IdP',
      OIDC_SCOPES: 'openid email profile groups',
      SSO_ROLE_MAP: JSON.stringify(ROLE_MAP),
    });
    const at = Date.now();
    d1Execute(
      stack,
      `INSERT INTO tenants (id, name, created_at, updated_at) VALUES ('${ACME}', 'Acme SSO', ${at}, ${at}), ('${BETA}', 'Beta SSO', ${at}, ${at})`,
    );
    browser = await launch();
    page = await browser.context.newPage();
    // The gateway's pages only (the development provider's pages fetch fonts from the internet), and not
    // the 403 statuses this file asks for on purpose.
    page.on('console', (msg) => {
      const from = msg.location().url ?? '';
      if (msg.type() !== 'error' || !from.startsWith(stack.url)) return;
      if (/status of 403/.test(msg.text())) return;
      consoleErrors.push(`${from}: ${msg.text()}`);
    });
  },
  { timeout: 180_000 },
);

after(async () => {
  await browser?.close();
  stack?.stop();
  await new Promise((resolve) => (idp ? idp.close(resolve) : resolve()));
});

const url = (path) => `${stack.url}${path}`;
const heading = () => page.getByRole('heading', { level: 1 }).innerText();
const navOf = async () =>
  (await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts()).map((t) =>
    t.trim(),
  );

/** Signs in as `login` at the local provider from the dashboard's sign-in page, starting with no cookies. */
async function signInAs(login) {
  await browser.context.clearCookies();
  await page.goto(url('/dashboard/login'));
  await page.getByRole('link', { name: 'Sign in with Local IdP' }).click();
  await page.waitForURL((u) => u.origin === ISSUER);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  // The development provider asks for consent to the scopes once per sign-in.
  const consent = page.getByRole('button', { name: 'Continue' });
  await Promise.race([
    consent.waitFor().then(() => consent.click()),
    page.waitForURL((u) => u.origin === stack.url),
  ]);
  await page.waitForURL((u) => u.origin === stack.url);
}

/** Signs in as `login` and waits for the dashboard's first page after the callback's hand-over. */
async function signInTo(login) {
  await signInAs(login);
  await page.waitForURL(/\/dashboard\/tenants$/);
}

async function whoIsSignedIn() {
  return (await page.locator('.who').innerText()).trim();
}

async function signOut() {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/dashboard\/login\?signed_out=1$/);
  await page.getByRole('status').filter({ hasText: 'You are signed out.' }).waitFor();
}

test('the sign-in page offers the provider beside the admin token', async () => {
  await page.goto(url('/dashboard/login'));
  assert.equal(await heading(), 'Sign in');
  assert.ok(await page.getByRole('link', { name: 'Sign in with Local IdP' }).isVisible());
  assert.ok(await page.getByLabel('Admin token').isVisible());
  await shot(page, 'sso-sign-in');
});

test('an owner signs in with the provider and sees everything, Admins included', async () => {
  await signInTo('olga');
  assert.equal(new URL(page.url()).pathname, '/dashboard/tenants');
  assert.equal(await whoIsSignedIn(), 'Signed in as Olga Owner (SSO) (owner)');
  assert.ok((await navOf()).includes('Admins'));
  const [cookie] = (await browser.context.cookies(url('/dashboard/'))).filter(
    (c) => c.name === 'edgeway_session',
  );
  assert.equal(cookie.sameSite, 'Strict');
  assert.equal(cookie.httpOnly, true);
  assert.equal(
    (await browser.context.cookies(url('/dashboard/sso/'))).some((c) => c.name === 'edgeway_sso'),
    false,
    'the sign-in flow cookie is gone',
  );
  // Its changes are audited as the SSO identity.
  await page.getByLabel('Tenant name').fill('Made by Olga');
  await page.getByRole('button', { name: 'Create tenant' }).click();
  await page.waitForURL(/\/dashboard\/tenants\/ten_/);
  const audit = await fetch(url('/admin/audit?resource=tenant&limit=1'), {
    headers: { authorization: `Bearer ${stack.adminToken}` },
  }).then((r) => r.json());
  assert.deepEqual(audit.data[0].actor, { id: 'sso:olga@example.com', name: 'Olga Owner (SSO)' });
  await shot(page, 'sso-owner');
  await signOut();
  // Signed out: the dashboard asks for sign-in again.
  await page.goto(url('/dashboard/tenants'));
  assert.equal(await heading(), 'Sign in');
});

test('an admin signs in and manages tenants, without Admins', async () => {
  await signInTo('adam');
  assert.equal(await whoIsSignedIn(), 'Signed in as Adam Admin (SSO) (admin)');
  assert.equal((await navOf()).includes('Admins'), false);
  assert.ok(await page.getByRole('button', { name: 'Create tenant' }).isVisible());
  await page.goto(url('/dashboard/admins'));
  assert.notEqual(await heading(), 'Admins');
  await signOut();
});

test('a viewer signs in and reads, with no forms to change anything', async () => {
  await signInTo('vera');
  assert.equal(await whoIsSignedIn(), 'Signed in as Vera Viewer (SSO) (viewer)');
  const tenants = await page.locator('main').innerText();
  assert.match(tenants, /Acme SSO/);
  assert.match(tenants, /Beta SSO/);
  assert.equal(await page.getByRole('button', { name: 'Create tenant' }).count(), 0);
  await shot(page, 'sso-viewer');
  await signOut();
});

test('a tenant_admin by group sees only its own tenant', async () => {
  await signInTo('tess');
  assert.equal(await whoIsSignedIn(), 'Signed in as Tess Acme (SSO) (tenant_admin)');
  const tenants = await page.locator('main').innerText();
  assert.match(tenants, /Acme SSO/);
  assert.doesNotMatch(tenants, /Beta SSO/);
  await page.goto(url(`/dashboard/tenants/${ACME}`));
  assert.equal(await heading(), 'Acme SSO');
  const other = await page.goto(url(`/dashboard/tenants/${BETA}`));
  assert.equal(other.status(), 403);
  await shot(page, 'sso-tenant-admin');
  await signOut();
});

test('a user whose groups map to no role is refused in words', async () => {
  await signInAs('nina');
  assert.equal(new URL(page.url()).pathname, '/dashboard/sso/callback');
  assert.equal(await heading(), 'No access');
  const text = await page.getByRole('alert').innerText();
  assert.match(text, /nina@example\.com/);
  assert.match(text, /gives that identity no role/);
  await shot(page, 'sso-refused');
  assert.equal(
    (await browser.context.cookies(url('/dashboard/'))).some((c) => c.name === 'edgeway_session'),
    false,
  );
  await page.goto(url('/dashboard/tenants'));
  assert.equal(await heading(), 'Sign in');
});

test('no page logged a console error (CSP included)', () => {
  assert.deepEqual(consoleErrors, []);
});
