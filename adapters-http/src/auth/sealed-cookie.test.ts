import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as t from 'io-ts';
import { SealedCookie } from './sealed-cookie.js';
import { PuzzleSeal } from './puzzle-seal.js';
import { ProviderFlowSeal, type ProviderFlow } from '../routes/provider-flow.js';

const secret = new Uint8Array(32).fill(7);
const at = (ms: number) => ({ now: () => new Date(ms) });
const NOW = Date.UTC(2026, 0, 1);
const Note = t.type({ text: t.string, n: t.number });

/**
 * Flips one bit of one byte of the JWE (header, iv, ciphertext or tag). Bytes, not characters: the
 * last character of a base64url part carries unused bits, and changing only those changes nothing.
 */
const tamper = (jwe: string, index: number): string => {
  const parts = jwe.split('.');
  const bytes = parts.map((p) => Buffer.from(p, 'base64url'));
  const total = bytes.reduce((n, b) => n + b.length, 0);
  let at = index % (total * 8);
  const part = bytes.findIndex((b) => (at < b.length * 8 ? true : ((at -= b.length * 8), false)));
  bytes[part][at >> 3] ^= 1 << (at & 7);
  parts[part] = bytes[part].toString('base64url');
  return parts.join('.');
};

describe('issue 12 point 9: one seal for what the browser carries (JWE dir/A256GCM with exp, payload decoded by a codec)', () => {
  it('opens to exactly what was sealed; any changed character does not open', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), fc.integer(), fc.nat(), async (text, n, flip) => {
        const seal = new SealedCookie('test', Note, { secret, clock: at(NOW) });
        const sealed = await seal.seal({ text, n }, NOW + 60_000);
        expect(await seal.open(sealed)).toEqual({ text, n });
        expect(await seal.open(tamper(sealed, flip))).toBeNull();
      }),
      { numRuns: 100 },
    );
  });

  it('an expired value does not open (its exp is checked against the clock)', async () => {
    const sealed = await new SealedCookie('test', Note, { secret, clock: at(NOW) }).seal({ text: 'a', n: 1 }, NOW + 60_000);
    expect(await new SealedCookie('test', Note, { secret, clock: at(NOW + 59_000) }).open(sealed)).toEqual({ text: 'a', n: 1 });
    expect(await new SealedCookie('test', Note, { secret, clock: at(NOW + 61_000) }).open(sealed)).toBeNull();
  });

  it('a value sealed under another key, or for another purpose, does not open', async () => {
    const sealed = await new SealedCookie('test', Note, { secret, clock: at(NOW) }).seal({ text: 'a', n: 1 }, NOW + 60_000);
    expect(await new SealedCookie('test', Note, { secret: new Uint8Array(32).fill(8), clock: at(NOW) }).open(sealed)).toBeNull();
    expect(await new SealedCookie('test', Note, { clock: at(NOW) }).open(sealed)).toBeNull();
    expect(await new SealedCookie('other purpose', Note, { secret, clock: at(NOW) }).open(sealed)).toBeNull();
  });

  it('a payload of the wrong shape does not open, even under the right key and purpose', async () => {
    const loose = new SealedCookie<unknown>('test', t.unknown, { secret, clock: at(NOW) });
    const strict = new SealedCookie('test', Note, { secret, clock: at(NOW) });
    expect(await strict.open(await loose.seal({ text: 'a' }, NOW + 60_000))).toBeNull();
    expect(await strict.open(await loose.seal({ text: 'a', n: '1' }, NOW + 60_000))).toBeNull();
    expect(await strict.open('not a JWE')).toBeNull();
    expect(await strict.open('')).toBeNull();
  });
});

describe('the sealed sign-up puzzle (/api/formpuzzle cookie and iv)', () => {
  const state = { id: 'p1', salt: 'ab12', hash: 'abcd', difficulty: 4, expires: NOW + 60_000 };

  it('opens with its own iv only, and not once expired', async () => {
    const seal = new PuzzleSeal({ secret, clock: at(NOW) });
    const { cookie, iv } = await seal.seal(state);
    expect(await seal.open(cookie, iv)).toEqual(state);
    const other = await seal.seal(state);
    expect(await seal.open(cookie, other.iv)).toBeNull();
    expect(await seal.open(cookie, '')).toBeNull();
    expect(await new PuzzleSeal({ secret, clock: at(NOW + 120_000) }).open(cookie, iv)).toBeNull();
    expect(await new PuzzleSeal({ clock: at(NOW) }).open(cookie, iv)).toBeNull();
  });

  it('a sealed puzzle fits the form fields the sign-up reads (cookie 4096, iv 100 characters)', async () => {
    const { cookie, iv } = await new PuzzleSeal({ secret }).seal({ ...state, salt: 'f'.repeat(32), hash: 'e'.repeat(64) });
    expect(cookie.length).toBeLessThan(4096);
    expect(iv.length).toBeLessThan(100);
  });
});

describe('the sealed provider sign-in flow', () => {
  const flow: ProviderFlow = {
    provider: 'google',
    mode: 'signup',
    org: 'acme',
    origin: 'http://localhost:8080',
    redirectUrl: '/',
    redirectUri: 'http://localhost:8080/auth/callback/google',
    state: 's',
    nonce: 'n',
    codeVerifier: 'v'.repeat(43),
    puzzle: { id: 'p', expires: NOW + 60_000 },
    expires: NOW + 600_000,
  };

  it('opens to the flow; a puzzle sealed with the same secret does not open as a flow', async () => {
    const flows = new ProviderFlowSeal({ secret, clock: at(NOW) });
    expect(await flows.open(await flows.seal(flow))).toEqual(flow);
    const { cookie } = await new PuzzleSeal({ secret, clock: at(NOW) }).seal({ id: 'p', salt: 's', hash: 'h', difficulty: 4, expires: NOW + 60_000 });
    expect(await flows.open(cookie)).toBeNull();
    expect(await new ProviderFlowSeal({ secret, clock: at(NOW + 601_000) }).open(await flows.seal(flow))).toBeNull();
  });
});
