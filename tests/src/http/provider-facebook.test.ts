import { createHash, createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startHarness, type Harness } from './http-harness.js';

/**
 * Facebook sign-in (issue 18: "Facebook goes through its OAuth 2 flow; it is not a standard OpenID
 * provider") against a loopback fake that answers as Facebook documents its manual login flow:
 * the login dialog redirects back with `code` and `state`; `GET /oauth/access_token` redeems the
 * code (client_id, client_secret, redirect_uri, code, and the PKCE code_verifier) for
 * `{ access_token, token_type, expires_in }`; `GET /me?fields=id,name,email` answers the person,
 * with `appsecret_proof`; errors are `{ error: { message, type, code } }`. Also the
 * administrators' provider settings call and the failure page's link back to /login.
 */

const PW = 'facebook-test-password-1';
const SECRET = 'facebook-app-secret-for-tests';

type Person = { id: string; name?: string; email?: string };

const listen = (server: Server): Promise<number> =>
  new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok((server.address() as AddressInfo).port));
  });

describe('Facebook sign-in through its OAuth 2 flow, and the provider settings (issue 18)', () => {
  let h: Harness;
  let fb: Server;
  let fbUrl: string;
  /** Who the fake's login dialog signs in as; what the fake saw. */
  let person: Person = { id: '1001', name: 'Alice Facebook', email: 'alice@fb-org.test' };
  const codes = new Map<string, { redirectUri: string; challenge: string; person: Person }>();
  const tokens = new Map<string, Person>();
  const seen: { tokenQueries: URLSearchParams[]; meQueries: URLSearchParams[]; meAuth: string[] } = { tokenQueries: [], meQueries: [], meAuth: [] };
  let admin: Api;
  let sally: Api;

  beforeAll(async () => {
    fb = createServer((req, res) => {
      const u = new URL(req.url ?? '/', fbUrl);
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (u.pathname === '/v21.0/dialog/oauth') {
        // The person logs in and allows the app at once.
        const code = `code-${codes.size + 1}`;
        codes.set(code, { redirectUri: u.searchParams.get('redirect_uri')!, challenge: u.searchParams.get('code_challenge')!, person });
        const back = new URL(u.searchParams.get('redirect_uri')!);
        back.searchParams.set('code', code);
        back.searchParams.set('state', u.searchParams.get('state')!);
        res.writeHead(302, { location: back.href });
        return res.end();
      }
      if (u.pathname === '/v21.0/oauth/access_token') {
        const q = u.searchParams;
        seen.tokenQueries.push(q);
        const c = codes.get(q.get('code') ?? '');
        if (q.get('client_id') !== 'fb-app' || q.get('client_secret') !== SECRET) return json(400, { error: { message: 'Error validating client secret.', type: 'OAuthException', code: 1 } });
        if (!c || c.redirectUri !== q.get('redirect_uri')) return json(400, { error: { message: 'This authorization code has been used.', type: 'OAuthException', code: 100 } });
        if (createHash('sha256').update(q.get('code_verifier') ?? '').digest('base64url') !== c.challenge) return json(400, { error: { message: 'Invalid code verifier', type: 'OAuthException', code: 100 } });
        codes.delete(q.get('code')!);
        const token = `token-${tokens.size + 1}`;
        tokens.set(token, c.person);
        return json(200, { access_token: token, token_type: 'bearer', expires_in: 5183944 });
      }
      if (u.pathname === '/v21.0/me') {
        seen.meQueries.push(u.searchParams);
        const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        seen.meAuth.push(token);
        const p = tokens.get(token);
        if (!p) return json(401, { error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } });
        if (u.searchParams.get('appsecret_proof') !== createHmac('sha256', SECRET).update(token).digest('hex')) return json(400, { error: { message: 'Invalid appsecret_proof', type: 'GraphMethodException', code: 100 } });
        return json(200, p);
      }
      json(404, { error: { message: 'Unknown path', type: 'OAuthException', code: 803 } });
    });
    fbUrl = `http://127.0.0.1:${await listen(fb)}`;
    h = await startHarness({
      env: {
        TESSERA_AUTH_FACEBOOK_CLIENT_ID: 'fb-app',
        TESSERA_AUTH_FACEBOOK_CLIENT_SECRET: SECRET,
        TESSERA_AUTH_FACEBOOK_AUTHORIZE_URL: `${fbUrl}/v21.0/dialog/oauth`,
        TESSERA_AUTH_FACEBOOK_GRAPH_URL: `${fbUrl}/v21.0`,
        TESSERA_AUTH_GOOGLE_CLIENT_ID: '',
        TESSERA_AUTH_GOOGLE_CLIENT_SECRET: '',
        TESSERA_AUTH_APPLE_CLIENT_ID: '',
        TESSERA_AUTH_AZURE_CLIENT_ID: '',
      },
    });
    await h.createOrg('fb-org', { email: 'alice@fb-org.test', password: PW, name: 'Alice' }, ['demo']);
    admin = new Api(h.url);
    await admin.login('fb-org', 'alice@fb-org.test', PW);
    const roles = await admin.fetchRecords({ entity: { name: 'inu_role', attributes: [{ attribute: 'id' }, { attribute: 'name' }] } });
    const roleId = roles.records.find((r) => r.name === 'Salesperson')!.id as string;
    const id = await admin.create('systemuser', { name: 'Sally', emailaddress: 'sally@fb-org.test' });
    await admin.create('systemuserroles', { systemuserid: { id, name: 'systemuser' }, roleid: { id: roleId, name: 'inu_role' } });
    await admin.form('changepassword', { userId: id, newPassword: `${PW}x` });
    sally = new Api(h.url);
    const r = await sally.form('mustchangepassword', { organization: 'fb-org', username: 'sally@fb-org.test', password: `${PW}x`, newPassword: PW });
    sally.token = r.headers.get('x-accessptoken')!;
  }, 120_000);

  afterAll(async () => {
    await h?.close();
    await new Promise<void>((ok) => fb.close(() => ok()));
    fb.closeAllConnections();
  });

  /** A browser enough for this flow: one cookie jar per host, redirects by hand. */
  const browser = () => {
    const jar = new Map<string, string>();
    const go = async (url: string, headers: Record<string, string> = {}) => {
      const res = await fetch(url, { redirect: 'manual', headers: { ...headers, ...(jar.size && url.startsWith(h.url) ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {}) } });
      if (url.startsWith(h.url)) for (const line of res.headers.getSetCookie()) jar.set(line.split('=')[0], line.split(';')[0].slice(line.indexOf('=') + 1));
      return res;
    };
    return { go };
  };
  const start = (org = 'fb-org') => `${h.url}/auth/facebook/${org}?redirectUrl=${encodeURIComponent('/!/')}&origin=${encodeURIComponent(h.url)}`;

  /** Start, the fake's dialog, then the callback: the callback's answer. */
  const signIn = async (headers: Record<string, string> = {}, org = 'fb-org') => {
    const b = browser();
    const first = await b.go(start(org), headers);
    expect(first.status).toBe(302);
    const dialog = new URL(first.headers.get('location')!);
    const back = await b.go(dialog.href);
    expect(back.status).toBe(302);
    return { dialog, done: await b.go(back.headers.get('location')!, headers) };
  };

  it("the login dialog is Facebook's OAuth 2 authorization: client_id, redirect_uri, state, scope email, a PKCE S256 challenge", async () => {
    const res = await browser().go(start());
    const q = new URL(res.headers.get('location')!).searchParams;
    expect(res.headers.get('location')!.startsWith(`${fbUrl}/v21.0/dialog/oauth?`)).toBe(true);
    expect(q.get('client_id')).toBe('fb-app');
    expect(q.get('redirect_uri')).toBe(`${h.url}/auth/callback/facebook`);
    expect(q.get('response_type')).toBe('code');
    expect(q.get('scope')).toBe('email public_profile');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('state')?.length).toBeGreaterThanOrEqual(43);
  });

  it('the code is redeemed at the Graph API token endpoint, /me?fields=id,name,email read with appsecret_proof, and the user with that e-mail is signed in', async () => {
    person = { id: '1001', name: 'Alice Facebook', email: 'Alice@FB-org.test' };
    const { done } = await signIn();
    expect(done.status).toBe(303);
    const location = done.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^${h.url}/!/#token=[\\w-]{40,}&org=fb-org$`));
    const tq = seen.tokenQueries.at(-1)!;
    expect([tq.get('client_id'), tq.get('redirect_uri'), tq.get('code_verifier')?.length]).toEqual(['fb-app', `${h.url}/auth/callback/facebook`, 43]);
    expect(seen.meQueries.at(-1)!.get('fields')).toBe('id,name,email');
    const api = new Api(h.url);
    api.token = new URLSearchParams(new URL(location).hash.slice(1)).get('token')!;
    const ctx = (await (await api.get('getusercontext')).json()) as { user: { emailaddress: string } };
    expect(ctx.user.emailaddress).toBe('alice@fb-org.test');
  });

  it('a Facebook account without an e-mail, or with one no user has, is refused as the other providers refuse', async () => {
    person = { id: '1002', name: 'No Mail' };
    const a = await signIn();
    expect(a.done.status).toBe(401);
    expect(await a.done.text()).toMatch(/^ERR_LOGIN: Invalid Username or password: facebook gave no e-mail address/);
    person = { id: '1003', name: 'Mallory', email: 'mallory@elsewhere.test' };
    const b = await signIn();
    expect(b.done.status).toBe(401);
    expect(await b.done.text()).toContain('no active user of this organization has the e-mail address mallory@elsewhere.test');
  });

  it('a person who cancels at Facebook (error=access_denied) is refused; a code redeemed twice is refused by Facebook', async () => {
    const b = browser();
    const first = await b.go(start());
    const state = new URL(first.headers.get('location')!).searchParams.get('state')!;
    const cancelled = await b.go(`${h.url}/auth/callback/facebook?error=access_denied&error_reason=user_denied&error_description=Permissions+error&state=${state}`);
    expect(cancelled.status).toBe(401);
    expect(await cancelled.text()).toBe('ERR_LOGIN: facebook sign-in failed: access_denied: Permissions error');
  });

  it('issue 18: in a browser the failure is a page that links back to /login of the organization', async () => {
    person = { id: '1004', name: 'Nobody', email: 'nobody@elsewhere.test' };
    const { done } = await signIn({ accept: 'text/html,application/xhtml+xml', 'accept-language': 'sk-SK,sk;q=0.9' });
    expect(done.status).toBe(401);
    expect(done.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await done.text();
    expect(page).toContain('Prihlásenie zlyhalo');
    expect(page).toContain(`<a href="${h.url}/login?org=fb-org" id="back-to-login">Späť na prihlásenie</a>`);
    expect(page).toContain('nobody@elsewhere.test');
    // A refusal before any flow (an unknown provider) links to this server's /login.
    const unknown = await fetch(`${h.url}/auth/myspace/fb-org`, { headers: { accept: 'text/html' } });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('href="/login"');
  });

  it('GET /api/admin/providers: an administrator sees which providers are configured and how; the secret never', async () => {
    const r = await admin.get('admin/providers');
    expect(r.status).toBe(200);
    const text = await r.text();
    expect(text).not.toContain(SECRET);
    const body = JSON.parse(text) as { providers: Array<Record<string, unknown>>; publicUrl: string | null; allowedOrigins: string[] };
    expect(body.providers.map((p) => [p.provider, p.configured, p.protocol])).toEqual([
      ['google', false, 'openid-connect'],
      ['facebook', true, 'oauth2-facebook'],
      ['apple', false, 'openid-connect'],
      ['azure', false, 'openid-connect'],
    ]);
    const f = body.providers[1];
    expect(f).toMatchObject({ clientId: 'fb-app', clientSecretSet: true, tokenUrl: `${fbUrl}/v21.0/oauth/access_token`, profileUrl: `${fbUrl}/v21.0/me?fields=id,name,email`, callbackUrl: `${h.url}/auth/callback/facebook`, trustEmail: true });
    expect(f.variables).toContain('TESSERA_AUTH_FACEBOOK_CLIENT_SECRET');
    expect(body.providers[0]).toMatchObject({ clientId: null, clientSecretSet: false, issuer: 'https://accounts.google.com' });
    expect(body.publicUrl).toBeNull();
  });

  it('the provider settings are for administrators: another user 403 ERR_PERMISSION, no session 401', async () => {
    const r = await sally.get('admin/providers');
    expect([r.status, (await r.text()).split(':')[0]]).toEqual([403, 'ERR_PERMISSION']);
    const anon = await fetch(`${h.url}/api/admin/providers`);
    expect(anon.status).toBe(401);
  });
});
