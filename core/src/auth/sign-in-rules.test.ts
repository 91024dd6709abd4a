import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { normalizeOrganizationName, passwordProblem } from './sign-in-rules.js';
import { AppErrorLog, ERROR_LOG_MAX_CHARS } from '../services/app-error-log.js';
import { magicLinkUrl } from '../services/sign-in.js';

describe('organization names', () => {
  it('a valid name is letters, digits and dashes: no path tricks, and normalizing is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 70 }), (raw) => {
        const n = normalizeOrganizationName(raw);
        if (n === null) return;
        expect(n).toMatch(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/);
        expect(n.length).toBeLessThanOrEqual(63);
        expect(normalizeOrganizationName(n)).toBe(n);
      }),
    );
    for (const bad of ['', '..', '../x', 'a/b', 'a\\b', 'a.b', '-a', 'a-', 'con', 'x'.repeat(64), 'a b'])
      expect(normalizeOrganizationName(bad), bad).toBeNull();
    expect(normalizeOrganizationName(' Acme-1 ')).toBe('acme-1');
  });
});

describe('passwords', () => {
  it('a new password is required and has at least 8 characters', () => {
    expect(passwordProblem('')).toBe('A new password is required.');
    expect(passwordProblem('short')).toMatch(/at least 8/);
    expect(passwordProblem('long enough')).toBeNull();
  });
});

describe('the error log', () => {
  it('stays under 1,000,000 characters: past that the older half is trimmed and the newest entry kept', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 200_000 }), { minLength: 1, maxLength: 40 }), (sizes) => {
        const log = new AppErrorLog();
        sizes.forEach((n, i) => log.append(`${i}:`.padEnd(n, 'x')));
        expect(log.length).toBeLessThan(ERROR_LOG_MAX_CHARS);
        expect(log.text().endsWith(`${sizes.length - 1}:`.padEnd(sizes[sizes.length - 1], 'x'))).toBe(true);
      }),
    );
  });
});

describe('magic links', () => {
  it('point at /magic with o, u, q and, when given, reason and ret (spec 000 section 2)', () => {
    expect(magicLinkUrl('http://localhost:8080/', { o: 'acme', u: 'a+b@x.test', q: 'ml_t', reason: 'INVITE' })).toBe(
      'http://localhost:8080/magic?o=acme&u=a%2Bb%40x.test&q=ml_t&reason=INVITE',
    );
  });
});
