import { createHash } from 'node:crypto';
import * as t from 'io-ts';
import { PROVIDER_NAMES, type ProviderName } from '@tessera/core/internal';
import { SealedCookie, type SealOptions } from '../auth/sealed-cookie.js';

/** How long a provider sign-in may take from the button to the callback. */
export const PROVIDER_FLOW_VALIDITY_MS = 10 * 60 * 1000;

/** What a provider sign-in carries from its start to its callback, sealed in a cookie of the browser that started it. */
export const ProviderFlow = t.intersection(
  [
    t.type({
      provider: t.keyof(Object.fromEntries(PROVIDER_NAMES.map((n) => [n, null])) as Record<ProviderName, null>),
      mode: t.keyof({ signin: null, signup: null }),
      org: t.string,
      /** Where the browser goes at the end: an allowed origin and a path of it. */
      origin: t.string,
      redirectUrl: t.string,
      /** The callback address given to the provider (the code is bound to it). */
      redirectUri: t.string,
      state: t.string,
      nonce: t.string,
      codeVerifier: t.string,
      expires: t.number,
    }),
    /** The sign-up puzzle, checked at the start and used up at the callback. */
    t.partial({ puzzle: t.type({ id: t.string, expires: t.number }) }),
  ],
  'ProviderFlow',
);
export type ProviderFlow = t.TypeOf<typeof ProviderFlow>;

/** The cookie of one flow: named by its state, so sign-ins in two tabs do not overwrite each other. */
export const flowCookieName = (state: string): string => `tessera_auth_${createHash('sha256').update(state).digest('base64url').slice(0, 16)}`;

/**
 * Seals flows into their cookie (SealedCookie: a JWE that expires with the flow): the browser
 * keeps the PKCE verifier and nonce without being able to read or change them, and the server
 * keeps no state per started sign-in (so starting many costs it no memory).
 */
export class ProviderFlowSeal {
  private readonly sealed: SealedCookie<ProviderFlow>;

  constructor(options: SealOptions = {}) {
    this.sealed = new SealedCookie('provider flow', ProviderFlow, options);
  }

  seal(flow: ProviderFlow): Promise<string> {
    return this.sealed.seal(flow, flow.expires);
  }

  /** null when the value was not sealed here, was changed, or has expired. */
  open(value: string): Promise<ProviderFlow | null> {
    return this.sealed.open(value);
  }
}

/**
 * The path the browser returns to: a path of this site only (`/`, `/!/list/account?x=1`), never
 * another site (`https://evil.example`, `//evil.example`, `/\evil.example`), never a script
 * (`javascript:`). Its own fragment is dropped: the fragment carries the token. null when refused.
 */
export const safeRedirectPath = (raw: string): string | null => {
  const text = raw === '' ? '/' : raw;
  if (text.length > 2000 || !text.startsWith('/') || text.startsWith('//') || text.startsWith('/\\')) return null;
  // Control characters and backslashes can turn a path into a host in some browsers.
  if ([...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f || c === '\\')) return null;
  let url: URL;
  try {
    url = new URL(text, 'https://same.invalid');
  } catch {
    return null;
  }
  // `/..//x` normalizes to `//x`, which alone would name another host.
  if (url.origin !== 'https://same.invalid' || url.pathname.startsWith('//')) return null;
  return `${url.pathname}${url.search}`;
};

/** `scheme://host[:port]` of an absolute http(s) URL, or null. */
export const originOf = (raw: string): string | null => {
  try {
    const u = new URL(raw);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
};

/** The value of a cookie of the request's Cookie header, or ''. */
export const cookieOf = (header: string | undefined, name: string): string => {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return '';
};
