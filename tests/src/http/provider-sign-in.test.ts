import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import Provider, { type ClientMetadata, type JWK } from 'oidc-provider';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphUserKey, solvePuzzle, Tokens } from '@tessera/core/internal';
import { safeRedirectPath } from '@tessera/adapters-http';
import { CliTokens, defaultHostConfig, packsFor, resolve, startServer, type RunningServer } from '@tessera/cli';
import { Api, isLeft, MemoryMailer, testHasher } from './http-harness.js';

/**
 * Provider sign-in (spec 000 sections 2 and 7) against a real OpenID provider: `oidc-provider`
 * on a loopback port, with registered clients for "google" and "apple" (form_post), whose login
 * and consent the test completes for the account it chooses. The browser is fetch with a cookie
 * jar that follows redirects and submits auto-post forms.
 */

type Account = { email: string; email_verified: boolean; name?: string };

const listen = (server: Server): Promise<number> =>
  new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok((server.address() as AddressInfo).port));
  });

/** A browser enough for redirects: cookies per host:port, manual redirects, auto-submitted forms. */
class Browser {
  private readonly jar = new Map<string, Map<string, string>>();
  /** Every address the browser was sent to, in order. */
  readonly visited: string[] = [];

  cookies(url: string): Map<string, string> {
    const host = new URL(url).host;
    let m = this.jar.get(host);
    if (!m) this.jar.set(host, (m = new Map()));
    return m;
  }

  private store(url: string, res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const gone = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]) < Date.now()));
      if (gone) this.cookies(url).delete(name);
      else this.cookies(url).set(name, pair.slice(eq + 1).trim());
    }
  }

  async request(url: string, init: { method?: string; body?: URLSearchParams } = {}): Promise<Response> {
    this.visited.push(url);
    const jar = this.cookies(url);
    const res = await fetch(url, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: {
        ...(jar.size > 0 ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...(init.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: init.body,
    });
    this.store(url, res);
    return res;
  }

  /**
   * Follows redirects and auto-submitted forms while `follow(url)` says so; answers the last
   * response and, when it is a redirect not followed, where it points.
   */
  async go(
    url: string,
    follow: (next: string) => boolean,
    init: { method?: string; body?: URLSearchParams } = {},
    /** Added to every auto-submitted form (what Apple adds to its form POST). */
    extraFormFields: Record<string, string> = {},
  ): Promise<{ res: Response; location: string | null; text: string }> {
    let res = await this.request(url, init);
    let current = url;
    for (let hop = 0; hop < 20; hop += 1) {
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        const next = new URL(location, current).href;
        if (!follow(next)) return { res, location: next, text: await res.text() };
        current = next;
        res = await this.request(next);
        continue;
      }
      const text = await res.text();
      const form = /<form[^>]*method="post"[^>]*action="([^"]+)"/i.exec(text);
      if (res.status === 200 && form && follow(new URL(form[1], current).href)) {
        const fields = new URLSearchParams();
        for (const m of text.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/gi)) fields.set(m[1], m[2].replace(/&#x2F;/g, '/').replace(/&amp;/g, '&'));
        for (const [k, v] of Object.entries(extraFormFields)) fields.set(k, v);
        current = new URL(form[1], current).href;
        res = await this.request(current, { method: 'POST', body: fields });
        continue;
      }
      return { res, location: null, text };
    }
    throw new Error('too many redirects');
  }
}

describe('provider sign-in with a real OpenID provider', () => {
  const accounts = new Map<string, Account>([
    ['alice', { email: 'Alice@Acme.test', email_verified: true, name: 'Alice Provider' }],
    ['mallory', { email: 'mallory@elsewhere.test', email_verified: true, name: 'Mallory' }],
    ['unverified', { email: 'bob@acme.test', email_verified: false, name: 'Bob' }],
    ['founder', { email: 'founder@newco.test', email_verified: true, name: 'Nova Founder' }],
    ['nameless', { email: 'ada@appleco.test', email_verified: true }],
  ]);
  /** The account the provider's login completes with, set by each test. */
  let signInAs = 'alice';
  let oidcServer: Server;
  let issuer: string;
  let tessera: RunningServer;
  let url: string;
  let dataDir: string;

  beforeAll(async () => {
    oidcServer = createServer();
    issuer = `http://127.0.0.1:${await listen(oidcServer)}`;
    dataDir = mkdtempSync(join(tmpdir(), 'tessera-provider-'));
    const env = {
      TESSERA_AUTH_GOOGLE_ISSUER: issuer,
      TESSERA_AUTH_GOOGLE_CLIENT_ID: 'tessera-google',
      TESSERA_AUTH_GOOGLE_CLIENT_SECRET: 'google-client-secret-for-tests',
      TESSERA_AUTH_APPLE_ISSUER: issuer,
      TESSERA_AUTH_APPLE_CLIENT_ID: 'tessera-apple',
      TESSERA_AUTH_APPLE_CLIENT_SECRET: 'apple-client-secret-for-tests',
      // Configured with a secret the provider does not know: its token requests are refused.
      TESSERA_AUTH_AZURE_ISSUER: issuer,
      TESSERA_AUTH_AZURE_CLIENT_ID: 'tessera-azure',
      TESSERA_AUTH_AZURE_CLIENT_SECRET: 'not-the-registered-secret',
    };
    const config = { ...defaultHostConfig(dataDir, {}), logLevel: 'silent' };
    tessera = await startServer(
      { ...config, port: 0, host: '127.0.0.1', staticDir: join(dataDir, 'no-ui'), env },
      { mailer: new MemoryMailer(), logger: pino({ level: 'silent' }), hasher: testHasher },
    );
    url = `http://127.0.0.1:${tessera.port}`;
    const orgs = resolve(tessera.container, CliTokens.Organizations);
    const created = await orgs.createWithPacks({ orgName: 'acme', admin: { name: 'Alice', email: 'alice@acme.test', password: 'alice-password' } }, packsFor([]));
    if (isLeft(created)) throw new Error(created.left.message);

    const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }) as JWK;
    const client = (id: string, secret: string, provider: string): ClientMetadata => ({
      client_id: id,
      client_secret: secret,
      redirect_uris: [`${url}/auth/callback/${provider}`],
      response_types: ['code'],
      grant_types: ['authorization_code'],
      token_endpoint_auth_method: 'client_secret_post',
    });
    const oidc = new Provider(issuer, {
      clients: [
        client('tessera-google', 'google-client-secret-for-tests', 'google'),
        client('tessera-apple', 'apple-client-secret-for-tests', 'apple'),
        client('tessera-azure', 'azure-registered-secret', 'azure'),
      ],
      jwks: { keys: [{ ...key, kid: 'test-key', alg: 'RS256', use: 'sig' }] },
      cookies: { keys: ['oidc-test-cookie-key'] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      // The e-mail goes into the ID token itself, as Google, Apple and Microsoft send it.
      conformIdTokenClaims: false,
      ttl: { IdToken: 3600, AccessToken: 3600, AuthorizationCode: 60, Grant: 3600, Interaction: 600, Session: 3600 },
      pkce: { required: () => true },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx, id) => {
        const a = accounts.get(id);
        return a ? { accountId: id, claims: () => ({ sub: id, ...a }) } : undefined;
      },
    });
    // The person "logs in" and consents at once: the interaction is completed for `signInAs`.
    oidcServer.on('request', (req, res) => {
      if (req.url?.startsWith('/interaction/')) {
        void (async () => {
          const details = await oidc.interactionDetails(req, res);
          const grant = new oidc.Grant({ accountId: signInAs, clientId: String(details.params.client_id) });
          grant.addOIDCScope(String(details.params.scope));
          const grantId = await grant.save();
          await oidc.interactionFinished(req, res, { login: { accountId: signInAs }, consent: { grantId } }, { mergeWithLastSubmission: false });
        })().catch((e: unknown) => {
          res.statusCode = 500;
          res.end(String(e));
        });
        return;
      }
      void oidc.callback()(req, res);
    });
  });

  afterAll(async () => {
    await tessera.close();
    await new Promise<void>((ok) => oidcServer.close(() => ok()));
    oidcServer.closeAllConnections();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Everything up to the provider's redirect back to Tessera (the callback not yet visited). */
  const toCallback = async (browser: Browser, start: string): Promise<string> => {
    const first = await browser.request(start);
    expect(first.status, await first.clone().text()).toBe(302);
    const atProvider = first.headers.get('location')!;
    expect(atProvider.startsWith(`${issuer}/`)).toBe(true);
    const back = await browser.go(atProvider, (next) => next.startsWith(issuer));
    expect(back.location ?? '', back.text).toMatch(new RegExp(`^${url}/auth/callback/`));
    return back.location!;
  };

  const tokenOf = (location: string | null): string => new URLSearchParams(new URL(location ?? 'http://x/').hash.slice(1)).get('token') ?? '';

  const signInUrl = (provider: string, org: string, redirectUrl = '/popupLogin', origin = url) =>
    `${url}/auth/${provider}/${org}?redirectUrl=${encodeURIComponent(redirectUrl)}&origin=${encodeURIComponent(origin)}`;

  it('the authorization request uses the code flow with a PKCE S256 challenge, a state and a nonce', async () => {
    const res = await new Browser().request(signInUrl('google', 'acme'));
    expect(res.status).toBe(302);
    const q = new URL(res.headers.get('location')!).searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')?.length).toBe(43);
    expect(q.get('state')?.length).toBeGreaterThanOrEqual(43);
    expect(q.get('nonce')?.length).toBeGreaterThanOrEqual(43);
    expect(q.get('redirect_uri')).toBe(`${url}/auth/callback/google`);
    expect(q.get('scope')).toBe('openid email profile');
    // The flow's secrets stay with the browser that started it, sealed, in an HttpOnly cookie of the callback path.
    expect(res.headers.getSetCookie().join('\n')).toMatch(/^tessera_auth_[\w-]{16}=[\w.-]+; Max-Age=600; Path=\/auth\/callback\/; Expires=.*; HttpOnly; SameSite=Lax$/);
  });

  it('a user of the organization with the verified e-mail is signed in and sent to the redirectUrl with the token in the fragment', async () => {
    signInAs = 'alice';
    const browser = new Browser();
    const callback = await toCallback(browser, signInUrl('google', 'acme', '/popupLogin'));
    const done = await browser.go(callback, () => false);
    expect(done.res.status).toBe(303);
    expect(done.location).toMatch(new RegExp(`^${url}/popupLogin#token=[\\w-]{40,}&org=acme$`));
    expect(done.res.headers.get('cache-control')).toBe('no-store');
    // The flow cookie is used up.
    expect([...browser.cookies(url).keys()].filter((k) => k.startsWith('tessera_auth_'))).toEqual([]);
    const api = new Api(url);
    api.token = tokenOf(done.location);
    const context = (await (await api.get('getusercontext')).json()) as { orgName: string; user: { id: string; emailaddress: string; name: string } };
    expect(context.orgName).toBe('acme');
    expect(context.user.emailaddress).toBe('alice@acme.test');
    // Issue 18: the provider's access token stays with the server (Microsoft's is the on-behalf-of
    // assertion for Graph), keyed by organization and user; the browser never gets it.
    const kept = resolve(tessera.container, Tokens.ProviderTokens).get(graphUserKey('acme', context.user.id), 'google', Date.now());
    expect(kept?.length).toBeGreaterThan(20);
    expect(done.location).not.toContain(kept);
    expect(JSON.stringify(context)).not.toContain(kept);
    // The session is listed like one of /api/login.
    const sessions = (await (await api.get('cache_debug')).json()) as Array<{ username: string; ip: string }>;
    expect(sessions.some((s) => s.username === 'Alice')).toBe(true);
  });

  it('a provider answering by form POST (Apple) signs in through the POST callback', async () => {
    signInAs = 'alice';
    const browser = new Browser();
    const first = await browser.request(signInUrl('apple', 'acme', '/'));
    expect(new URL(first.headers.get('location')!).searchParams.get('response_mode')).toBe('form_post');
    const done = await browser.go(first.headers.get('location')!, (next) => next.startsWith(issuer) || next.startsWith(`${url}/auth/callback/`));
    expect(done.res.status, done.text).toBe(303);
    expect(browser.visited.at(-1)).toBe(`${url}/auth/callback/apple`);
    const api = new Api(url);
    api.token = tokenOf(done.location);
    expect((await api.get('getusercontext')).status).toBe(200);
  });

  it('an e-mail with no user in the organization is refused, and the browser gets no token', async () => {
    signInAs = 'mallory';
    const browser = new Browser();
    const done = await browser.go(await toCallback(browser, signInUrl('google', 'acme')), () => false);
    expect(done.res.status).toBe(401);
    expect(done.text).toBe('ERR_LOGIN: Invalid Username or password: no active user of this organization has the e-mail address mallory@elsewhere.test');
    expect(done.location).toBeNull();
  });

  it('an unknown organization answers exactly like an unknown user', async () => {
    signInAs = 'alice';
    const browser = new Browser();
    const done = await browser.go(await toCallback(browser, signInUrl('google', 'nosuchorg')), () => false);
    expect([done.res.status, done.text]).toEqual([401, 'ERR_LOGIN: Invalid Username or password: no active user of this organization has the e-mail address alice@acme.test']);
  });

  it('an e-mail address the provider has not verified signs nobody in', async () => {
    signInAs = 'unverified';
    const browser = new Browser();
    const done = await browser.go(await toCallback(browser, signInUrl('google', 'acme')), () => false);
    expect([done.res.status, done.text]).toEqual([401, 'ERR_LOGIN: Invalid Username or password: google has not verified the e-mail address bob@acme.test']);
  });

  it('a wrong state, or a callback opened in another browser, is refused before the code is redeemed', async () => {
    signInAs = 'alice';
    const browser = new Browser();
    const callback = await toCallback(browser, signInUrl('google', 'acme'));
    const wrong = new URL(callback);
    wrong.searchParams.set('state', `${wrong.searchParams.get('state')}x`);
    const refused = await browser.go(wrong.href, () => false);
    expect([refused.res.status, refused.text]).toEqual([400, 'ERR_LOGIN: this sign-in was not started in this browser, or it took longer than 10 minutes; please start it again']);
    // Login CSRF: the victim's browser has no flow cookie for the attacker's code.
    const victim = await new Browser().go(callback, () => false);
    expect(victim.res.status).toBe(400);
    expect(victim.location).toBeNull();
    // The right browser may still finish: nothing was spent on the refusals.
    const done = await browser.go(callback, () => false);
    expect(done.res.status).toBe(303);
  });

  it('a replayed authorization code is refused by the provider and opens no session', async () => {
    signInAs = 'alice';
    const browser = new Browser();
    const callback = await toCallback(browser, signInUrl('google', 'acme'));
    const saved = new Map(browser.cookies(url));
    const done = await browser.go(callback, () => false);
    expect(done.res.status).toBe(303);
    const admin = new Api(url);
    admin.token = tokenOf(done.location);
    const sessions = async () => ((await (await admin.get('cache_debug')).json()) as unknown[]).length;
    const before = await sessions();
    // An attacker holding both the callback address and the flow cookie replays them.
    for (const [k, v] of saved) browser.cookies(url).set(k, v);
    const replay = await browser.go(callback, () => false);
    expect(replay.res.status).toBe(401);
    expect(replay.text).toMatch(/^ERR_LOGIN: google sign-in failed: invalid_grant/);
    expect(replay.location).toBeNull();
    expect(await sessions()).toBe(before);
  });

  it('a client secret the provider does not accept fails the sign-in cleanly', async () => {
    signInAs = 'alice';
    const browser = new Browser();
    const done = await browser.go(await toCallback(browser, signInUrl('azure', 'acme')), () => false);
    expect(done.res.status).toBe(401);
    expect(done.text).toMatch(/^ERR_LOGIN: azure sign-in failed: invalid_client/);
  });

  it('a redirectUrl or origin of another site is refused before the provider is asked (no open redirect)', async () => {
    for (const target of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', '/\r\nLocation: https://evil.example', '/..//evil.example', ' /x']) {
      const res = await new Browser().request(signInUrl('google', 'acme', target));
      expect([target, res.status, await res.text()]).toEqual([target, 400, 'ERR_INPUT: redirectUrl must be a path of this site']);
    }
    const foreign = await new Browser().request(signInUrl('google', 'acme', '/', 'https://evil.example'));
    expect([foreign.status, await foreign.text()]).toEqual([400, 'ERR_INPUT: origin is not an address of this site']);
  });

  it('every redirect path accepted stays on the site it is joined to', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webPath(), fc.webUrl(), fc.constantFrom('//', '/\\', '/\t/evil', '/.//evil', '/..//evil')), (raw) => {
        const path = safeRedirectPath(raw);
        if (path === null) return true;
        const joined = new URL(`https://site.test${path}`);
        return joined.origin === 'https://site.test' && path.startsWith('/') && !path.startsWith('//') && !path.includes('#');
      }),
      { numRuns: 2000 },
    );
  });

  it('an unknown provider answers 404 and a provider with no client configured answers 501 ERR_NOT_CONFIGURED', async () => {
    const unknown = await fetch(`${url}/auth/github/acme?redirectUrl=/`, { redirect: 'manual' });
    expect([unknown.status, await unknown.text()]).toEqual([404, 'ERR_NOT_FOUND: no sign-in provider github']);
    const off = await fetch(`${url}/auth/facebook/acme?redirectUrl=/`, { redirect: 'manual' });
    expect([off.status, await off.text()]).toEqual([501, 'ERR_NOT_CONFIGURED: sign-in with facebook is not configured on this server']);
    const badOrg = await fetch(`${url}/auth/google/${encodeURIComponent('../x')}?redirectUrl=/`, { redirect: 'manual' });
    expect(badOrg.status).toBe(400);
  });

  const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
  const solvedPuzzle = async (): Promise<string> => {
    const p = (await (await fetch(`${url}/api/formpuzzle`)).json()) as { salt: string; hash: string; cookie: string; iv: string; difficulty: number };
    const solved = await solvePuzzle(p.salt, p.hash, sha, undefined, p.difficulty);
    if (isLeft(solved)) throw new Error(solved.left.message);
    return JSON.stringify({ cookie: p.cookie, iv: p.iv, solved: solved.right });
  };
  const signUpUrl = (org: string, puzzle: string, provider = 'google') =>
    `${url}/auth/${provider}/signup/${org}?redirectUrl=${encodeURIComponent('/')}&origin=${encodeURIComponent(url)}&puzzle=${encodeURIComponent(puzzle)}`;

  it('provider sign-up needs a solved puzzle, creates the organization with the person as administrator, and signs them in', async () => {
    signInAs = 'founder';
    const unsolved = await new Browser().request(signUpUrl('newco', JSON.stringify({ ...JSON.parse(await solvedPuzzle()), solved: 'zzzz' })));
    expect([unsolved.status, await unsolved.text()]).toEqual([400, 'ERR_INPUT: the puzzle is not solved']);
    const missing = await new Browser().request(signUpUrl('newco', ''));
    expect([missing.status, await missing.text()]).toEqual([400, 'ERR_INPUT: the puzzle is invalid or expired']);
    const taken = await new Browser().request(signUpUrl('acme', await solvedPuzzle()));
    expect([taken.status, await taken.text()]).toEqual([400, 'ERR_INPUT: the organization acme exists already']);

    const puzzle = await solvedPuzzle();
    const browser = new Browser();
    const done = await browser.go(await toCallback(browser, signUpUrl('newco', puzzle)), () => false);
    expect(done.res.status, done.text).toBe(303);
    expect(done.location).toMatch(new RegExp(`^${url}/#token=[\\w-]+&org=newco$`));
    const api = new Api(url);
    api.token = tokenOf(done.location);
    const context = (await (await api.get('getusercontext')).json()) as { orgName: string; user: { emailaddress: string; name: string } };
    expect([context.orgName, context.user.emailaddress, context.user.name]).toEqual(['newco', 'founder@newco.test', 'Nova Founder']);
    // Administrator: may list every session of the organization.
    expect((await api.get('cache_debug')).status).toBe(200);

    // The same solved puzzle does not create a second organization.
    const again = new Browser();
    const reused = await again.go(await toCallback(again, signUpUrl('newco2', puzzle)), () => false);
    expect([reused.res.status, reused.text]).toEqual([400, 'ERR_INPUT: the puzzle was used already']);
    const newco2 = await new Api(url).login('newco2', 'founder@newco.test', 'whatever-password');
    expect(newco2.status).toBe(401);
  });

  it('an Apple sign-up names the new administrator by the name of its form POST when the ID token has none', async () => {
    signInAs = 'nameless';
    const browser = new Browser();
    const first = await browser.request(signUpUrl('appleco', await solvedPuzzle(), 'apple'));
    expect(first.status).toBe(302);
    const user = JSON.stringify({ name: { firstName: 'Ada', lastName: 'Apple' }, email: 'ada@appleco.test' });
    const done = await browser.go(first.headers.get('location')!, (next) => next.startsWith(issuer) || next.startsWith(`${url}/auth/callback/`), {}, { user });
    expect(done.res.status, done.text).toBe(303);
    const api = new Api(url);
    api.token = tokenOf(done.location);
    const context = (await (await api.get('getusercontext')).json()) as { orgName: string; user: { name: string } };
    expect([context.orgName, context.user.name]).toEqual(['appleco', 'Ada Apple']);
  });
});
