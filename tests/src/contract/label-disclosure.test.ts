import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isLeft, type Either } from 'fp-ts/lib/Either.js';
import {
  csvExportChunks,
  DEFAULT_EXPORT_OPTIONS,
  exportPages,
  systemCaller,
  type DomainError,
  type FetchRequest,
} from '@tessera/core/internal';
import { lookup, STORES, userCaller, userId, type StoreUnderTest } from './record-store-fixture.js';

/**
 * Issue 22 item 6: a user at owner level linked a contact to another team's account by its id and
 * then read the account's name through the lookup's label, in a group-by and in the export's Label
 * column. Every store must: refuse writing a reference to a record the user may not read (the same
 * answer as for a record that does not exist), and give null as the label of such a record.
 */
const sys = systemCaller();
const ok = <T>(e: Either<DomainError, T>): T => {
  if (isLeft(e)) throw new Error(`expected a value, got ${e.left.code}: ${e.left.message}`);
  return e.right;
};
const err = <T>(e: Either<DomainError, T>): DomainError => {
  if (!isLeft(e)) throw new Error(`expected an error, got ${JSON.stringify(e.right).slice(0, 200)}`);
  return e.left;
};

const EVA = userId(1);
const ADAM = userId(2);
const NORTH = '7ea70000-0000-4000-8000-000000000001';
const SOUTH = '7ea70000-0000-4000-8000-000000000002';
const OURS = 'a0000000-0000-4000-8000-000000000001';
const THEIRS = 'a0000000-0000-4000-8000-000000000002';
const MISSING = 'a0000000-0000-4000-8000-0000000000ff';
const LEAKED = 'c0000000-0000-4000-8000-000000000001';
const account = (id: string) => ({ id, name: 'account' });

/** Eva: North team; accounts at team level, her contacts at owner level, every user's name. */
const eva = userCaller(1, { account: [0, 2, 0, 0], contact: [1, 1, 1, 0], systemuser: [0, 3, 0, 0] }, [NORTH]);
/** An organization-level reader sees every label. */
const boss = userCaller(3, { account: [0, 3, 0, 0], contact: [0, 3, 0, 0], systemuser: [0, 3, 0, 0] });

const seed = async (s: StoreUnderTest): Promise<void> => {
  ok(await s.store.create(sys, 'systemuser', { id: EVA, name: 'Eva' }));
  ok(await s.store.create(sys, 'systemuser', { id: ADAM, name: 'Adam' }));
  ok(await s.store.create(sys, 'team', { id: NORTH, name: 'North' }));
  ok(await s.store.create(sys, 'team', { id: SOUTH, name: 'South' }));
  ok(await s.store.create(sys, 'account', { id: OURS, name: 'North Co', ownerid: { id: ADAM, name: 'systemuser' }, teamid: { id: NORTH, name: 'team' } }));
  ok(await s.store.create(sys, 'account', { id: THEIRS, name: 'South Secret', ownerid: { id: ADAM, name: 'systemuser' }, teamid: { id: SOUTH, name: 'team' } }));
  // A reference written before the rule (or by someone who may read it): its label must still not leak.
  ok(await s.store.create(sys, 'contact', { id: LEAKED, name: 'Old link', ownerid: { id: EVA, name: 'systemuser' }, parentcustomerid: account(THEIRS) }));
};

const contacts: FetchRequest = {
  entity: { name: 'contact', attributes: [{ attribute: 'name' }, { attribute: 'parentcustomerid' }], orders: [{ attribute: 'name' }] },
};
const byAccount: FetchRequest = {
  entity: { name: 'contact', attributes: [{ attribute: 'parentcustomerid', groupBy: true, alias: 'account' }, { attribute: 'id', aggregate: 'count', alias: 'n' }] },
};

describe.each(STORES)('issue 22 item 6, what labels disclose: $name', (factory) => {
  let s: StoreUnderTest;
  beforeEach(async () => {
    s = await factory.make();
    await seed(s);
  });
  afterEach(() => s.close());

  it('writing a reference to a record the user may not read is 400 ERR_INPUT, as for one that does not exist', async () => {
    const theirs = err(await s.store.create(eva, 'contact', { name: 'Probe', parentcustomerid: account(THEIRS) }));
    expect(theirs).toMatchObject({ code: 'ERR_INPUT', message: `Invalid value for contact.parentcustomerid: account ${THEIRS} not found` });
    const missing = err(await s.store.create(eva, 'contact', { name: 'Probe', parentcustomerid: account(MISSING) }));
    expect(missing).toMatchObject({ code: 'ERR_INPUT', message: `Invalid value for contact.parentcustomerid: account ${MISSING} not found` });

    const id = ok(await s.store.create(eva, 'contact', { name: 'Mine', parentcustomerid: account(OURS) }));
    expect(err(await s.store.update(eva, 'contact', { id, parentcustomerid: account(THEIRS) })).message).toBe(
      `Invalid value for contact.parentcustomerid: account ${THEIRS} not found`,
    );
    // In a batch the refused item fails (and rolls an atomic batch back), like any invalid value.
    const batch = ok(await s.store.executeMultiple(eva, [
      { operation: 'create', name: 'contact', object: { name: 'Fine', parentcustomerid: account(OURS) } },
      { operation: 'create', name: 'contact', object: { name: 'Probe', parentcustomerid: account(THEIRS) } },
    ], { atomic: true }));
    expect(batch[1]).toEqual({ error: `ERR_INPUT: Invalid value for contact.parentcustomerid: account ${THEIRS} not found` });
    expect(ok(await s.store.retrieveMultiple(sys, { entity: { name: 'contact', filter: { conditions: [{ attribute: 'name', operator: 'eq', value: 'Fine' }] } } })).records).toEqual([]);
  });

  it('what the user may write stays allowed: a readable record, clearing a reference, themselves and their own team', async () => {
    const id = ok(await s.store.create(eva, 'contact', { name: 'Mine', parentcustomerid: account(OURS), teamid: { id: NORTH, name: 'team' } }));
    ok(await s.store.update(eva, 'contact', { id, parentcustomerid: null, ownerid: { id: EVA, name: 'systemuser' } }));
    // An unchanged reference is not a new one: an update of other fields of the old link passes.
    ok(await s.store.update(eva, 'contact', { id: LEAKED, name: 'Old link renamed', parentcustomerid: account(THEIRS) }));
    // The system caller is not limited by it.
    ok(await s.store.create(sys, 'contact', { name: 'By the system', parentcustomerid: account(MISSING) }));
  });

  it('the label of a record the user may not read is null: in records, ordered by it, and in a group key', async () => {
    ok(await s.store.create(eva, 'contact', { name: 'Mine', parentcustomerid: account(OURS) }));
    const seen = ok(await s.store.retrieveMultiple(eva, contacts)).records;
    expect(seen.map((r) => [r.name, r.parentcustomerid])).toEqual([
      ['Mine', { id: OURS, name: 'account', label: 'North Co' }],
      ['Old link', { id: THEIRS, name: 'account', label: null }],
    ]);
    const groups = ok(await s.store.retrieveMultiple(eva, byAccount)).records;
    expect(groups).toEqual([
      { account: { id: THEIRS, name: 'account', label: null }, n: 1 },
      { account: { id: OURS, name: 'account', label: 'North Co' }, n: 1 },
    ]);
    const all = ok(await s.store.retrieveMultiple(boss, contacts)).records;
    expect(all.map((r) => (r.parentcustomerid as { label: string }).label)).toEqual(['North Co', 'South Secret']);
  });

  it("a version conflict names the modifier only to a user who may read the modifier's user record", async () => {
    const v1 = ok(await s.store.retrieveById(sys, 'account', OURS)).versionnumber;
    ok(await s.store.update(userCaller(2, { account: [3, 3, 3, 3] }), 'account', { id: OURS, versionnumber: v1, name: 'North Co (Adam)' }));
    const onlyHerself = userCaller(1, { account: [0, 2, 2, 0], systemuser: [0, 1, 0, 0] }, [NORTH]);
    const stale = err(await s.store.update(onlyHerself, 'account', { id: OURS, versionnumber: v1, name: 'Eva was here' }));
    expect(stale.code).toBe('ERR_8001');
    expect(stale).not.toHaveProperty('modifier');
    const everyone = userCaller(1, { account: [0, 2, 2, 0], systemuser: [0, 3, 0, 0] }, [NORTH]);
    expect(err(await s.store.update(everyone, 'account', { id: OURS, versionnumber: v1, name: 'Eva was here' }))).toMatchObject({ code: 'ERR_8001', modifier: 'Adam' });
  });

  it("the export's Label column of a record the user may not read is empty", async () => {
    const properties = ['name', 'parentcustomerid'].map((n) => lookup('contact')!.properties.find((p) => p.logicalName === n)!);
    let csv = '';
    for await (const chunk of csvExportChunks(properties, exportPages(s.store, eva, contacts, () => undefined), DEFAULT_EXPORT_OPTIONS)) csv += chunk;
    expect(csv).not.toContain('South Secret');
    expect(csv).toContain(THEIRS);
  });
});
