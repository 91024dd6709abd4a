import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { DEFAULT_SAS_VALIDITY_MS, sasRenewalDue, signSas, verifySas, type MacFunction } from './sas.js';

const mac: MacFunction = (secret, text) => createHmac('sha256', secret).update(text, 'utf8').digest('base64url');
const T0 = Date.UTC(2026, 0, 1);
const claims = fc.record({ userId: fc.uuid(), org: fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,20}$/) });

describe('issue 18: the download signature (the sas of the user context) is short-lived and tamper-proof', () => {
  it('a signed sas verifies until its expiry and never after', () => {
    fc.assert(
      fc.property(claims, fc.string({ minLength: 8 }), fc.integer({ min: 1000, max: 10 * 86_400_000 }), fc.integer({ min: 0, max: 20 * 86_400_000 }), (c, secret, validity, later) => {
        const sas = signSas(mac, secret, c, new Date(T0), validity);
        const expires = Math.floor((T0 + validity) / 1000) * 1000;
        const r = verifySas(mac, secret, sas, new Date(T0 + later));
        if (T0 + later < expires) expect(isRight(r) && r.right).toEqual({ userId: c.userId, org: c.org, expires: new Date(expires) });
        else expect(isLeft(r) && r.left._tag).toBe('SasExpired');
      }),
    );
  });

  it('any tampered byte fails (a changed, removed or added character anywhere in the sas)', () => {
    fc.assert(
      fc.property(claims, fc.nat(), fc.integer({ min: 32, max: 126 }), fc.constantFrom('replace', 'remove', 'insert'), (c, at, code, how) => {
        const sas = signSas(mac, 'secret', c, new Date(T0));
        const i = at % sas.length;
        const ch = String.fromCharCode(code);
        const tampered = how === 'replace' ? sas.slice(0, i) + ch + sas.slice(i + 1) : how === 'remove' ? sas.slice(0, i) + sas.slice(i + 1) : sas.slice(0, i) + ch + sas.slice(i);
        fc.pre(tampered !== sas);
        // An addition at the very end is a parameter after the signature's own: not part of it.
        fc.pre(!(how === 'insert' && i === sas.length));
        expect(isRight(verifySas(mac, 'secret', tampered, new Date(T0)))).toBe(false);
      }),
    );
  });

  it('another secret, another user or organization, or garbage: invalid', () => {
    const sas = signSas(mac, 'secret', { userId: 'u1', org: 'acme' }, new Date(T0));
    expect(verifySas(mac, 'other', sas, new Date(T0))).toEqual({ _tag: 'Left', left: { _tag: 'SasInvalid' } });
    expect(isLeft(verifySas(mac, 'secret', sas.replace('su=u1', 'su=u2'), new Date(T0)))).toBe(true);
    expect(isLeft(verifySas(mac, 'secret', sas.replace('so=acme', 'so=evil'), new Date(T0)))).toBe(true);
    for (const junk of ['', 'sv=1', '%%%', 'sv=1&su=%E0&so=a&se=1&sig=x', 'a=1&b=2&c=3&d=4&e=5']) expect(isLeft(verifySas(mac, 'secret', junk, new Date(T0)))).toBe(true);
  });

  it('parameters after the signature are not part of it (e.g. &download=1)', () => {
    const sas = signSas(mac, 'secret', { userId: 'u1', org: 'acme' }, new Date(T0));
    expect(isRight(verifySas(mac, 'secret', `${sas}&download=1`, new Date(T0)))).toBe(true);
  });

  it('by default a sas lives an hour, and a client renews it in its last 10 minutes (short-lived links, long-open tabs)', () => {
    expect(DEFAULT_SAS_VALIDITY_MS).toBe(3600 * 1000);
    const now = Date.parse('2026-11-25T06:00:00Z');
    const sas = signSas(mac, 'secret', { userId: 'u1', org: 'acme' }, new Date(now));
    expect(sasRenewalDue(sas, now)).toBe(false);
    expect(sasRenewalDue(sas, now + 49 * 60_000)).toBe(false);
    expect(sasRenewalDue(sas, now + 50 * 60_000)).toBe(true);
    expect(sasRenewalDue(sas, now + 2 * 3600_000)).toBe(true);
    expect(sasRenewalDue('sv=1&sig=x', now)).toBe(true);
    expect(sasRenewalDue('', now)).toBe(false);
  });
});
