import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { ProviderName } from '@tessera/core/internal';

/** How long a provider sign-in may take from the button to the callback. */
export const PROVIDER_FLOW_VALIDITY_MS = 10 * 60 * 1000;

/** What a provider sign-in carries from its start to its callback, sealed in a cookie of the browser that started it. */
export type ProviderFlow = {
  provider: ProviderName;
  mode: 'signin' | 'signup';
  org: string;
  /** Where the browser goes at the end: an allowed origin and a path of it. */
  origin: string;
  redirectUrl: string;
  /** The callback address given to the provider (the code is bound to it). */
  redirectUri: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  /** The sign-up puzzle, checked at the start and used up at the callback. */
  puzzle?: { id: string; expires: number };
  expires: number;
};

/** The cookie of one flow: named by its state, so sign-ins in two tabs do not overwrite each other. */
export const flowCookieName = (state: string): string => `tessera_auth_${createHash('sha256').update(state).digest('base64url').slice(0, 16)}`;

/**
 * Seals flows with AES-256-GCM under a key of this server process: the browser keeps the PKCE
 * verifier and nonce without being able to read or change them, and the server keeps no state
 * per started sign-in (so starting many costs it no memory).
 */
export class ProviderFlowSeal {
  private readonly key: Buffer;

  constructor(secret: Buffer = randomBytes(32)) {
    this.key = createHash('sha256').update('tessera provider flow').update(secret).digest();
  }

  seal(flow: ProviderFlow): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(flow), 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${iv.toString('base64url')}.${body.toString('base64url')}`;
  }

  /** null when the value was not sealed here, or was changed. */
  open(value: string): ProviderFlow | null {
    try {
      const [ivText, bodyText] = value.split('.');
      const iv = Buffer.from(ivText ?? '', 'base64url');
      const body = Buffer.from(bodyText ?? '', 'base64url');
      if (iv.length !== 12 || body.length < 17 || body.length > 4096) return null;
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
      decipher.setAuthTag(body.subarray(body.length - 16));
      const plain = Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString('utf8');
      return JSON.parse(plain) as ProviderFlow;
    } catch {
      return null;
    }
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
