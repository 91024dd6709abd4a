import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { effect } from '@preact/signals-react';
import type { Entity, QuickFilter } from '../../core.js';
import { session, type Session } from '../../state/session.js';
import { fullCaller } from '../../testing/store-client.js';
import { addPersonalFilterOn, listQuickFilters, personalFilters, removePersonalFilterNamed } from './personal-filters.js';

// The session module needs a browser (window, navigator): its two signals the store reads stand in for it.
vi.mock('../../state/session.js', async () => {
  const { computed, signal } = await import('@preact/signals-react');
  const session = signal<{ caller: unknown } | null>(null);
  return { session, caller: computed(() => session.value?.caller ?? null) };
});

const account: Entity = {
  logicalName: 'account',
  displayName: 'Account',
  displayNamePlural: 'Accounts',
  properties: [
    { logicalName: 'name', displayName: 'Name', type: 'String' },
    { logicalName: 'address1_city', displayName: 'City', type: 'String' },
    { logicalName: 'revenue', displayName: 'Revenue', type: 'Money' },
    { logicalName: 'customertype', displayName: 'Relationship', type: 'Integer', flags: ['OptionSet'], options: [{ value: 1, label: 'Prospect' }, { value: 2, label: 'Customer' }] },
  ],
};
const prop = (n: string) => account.properties.find((p) => p.logicalName === n)!;

/** The browser's localStorage, as a map (vitest runs without a DOM). */
const store = new Map<string, string>();
const signInAs = (org: string, userId: string) => {
  session.value = { context: { orgName: org }, caller: fullCaller(userId, ['account']), entities: {}, loadedAt: 0 } as unknown as Session;
};

beforeEach(() => {
  store.clear();
  (globalThis as { localStorage?: unknown }).localStorage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
  };
  signInAs('demo', 'U-1');
});
afterEach(() => {
  delete (globalThis as { localStorage?: unknown }).localStorage;
  session.value = null;
});

describe('personal quick filters in the browser (spec 001 section 2: stored per user in the browser)', () => {
  it('a filter added on a column is kept under the organization, user and entity, after the metadata filters, in the order added', () => {
    addPersonalFilterOn(account, prop('revenue'));
    addPersonalFilterOn(account, prop('address1_city'));
    expect([...store.keys()]).toEqual(['tessera.personalFilters.demo.u-1.account']);
    const meta: QuickFilter[] = [{ name: 'search', type: 'text', propertyName: 'name' }];
    expect(listQuickFilters(account, meta).map((d) => d.name)).toEqual(['search', 'personal.revenue', 'personal.address1_city']);
  });

  it('another user of the organization does not see them; removing one keeps the rest', () => {
    addPersonalFilterOn(account, prop('revenue'));
    addPersonalFilterOn(account, prop('address1_city'));
    signInAs('demo', 'u-2');
    expect(personalFilters(account)).toEqual([]);
    signInAs('demo', 'u-1');
    removePersonalFilterNamed(account, 'personal.revenue');
    expect(personalFilters(account).map((d) => d.name)).toEqual(['personal.address1_city']);
  });

  it('a change re-runs what reads them (the list model reloads with the new bar)', () => {
    const seen: number[] = [];
    const stop = effect(() => void seen.push(personalFilters(account).length));
    addPersonalFilterOn(account, prop('customertype'));
    stop();
    expect(seen).toEqual([0, 1]);
  });

  it('the bar completes every filter: a mustSelect filter without a default falls back to its first option', () => {
    const meta: QuickFilter[] = [{ name: 'rel', type: 'options', propertyName: 'customertype', mustSelect: true }];
    expect(listQuickFilters(account, meta)[0].defaultOption).toBe(1);
  });

  it('signed out, there are none and adding stores nothing', () => {
    session.value = null;
    addPersonalFilterOn(account, prop('revenue'));
    expect(personalFilters(account)).toEqual([]);
    expect(store.size).toBe(0);
  });
});
