import { describe, expect, it } from 'vitest';
import { right } from 'fp-ts/lib/Either.js';
import type { Entity } from '../metadata/entity.js';
import { FULL_MASK } from '../permissions/mask.js';
import type { Caller } from '../permissions/types.js';
import { InMemoryChangeFeed } from '../ports/change-feed.js';
import type { AppliedMetadata, DataAtRisk, SchemaChange, TenantSchema } from '../ports/schema-store.js';
import { describeStep, type MigrationPlan } from '../schema/migration-plan.js';
import { systemPack } from '../packs/packs.js';
import { applyMetadataChange, canEditMetadata, planMetadataChange, proposedMetadata } from './metadata-editor.js';

const admin: Caller = { userId: 'u1', teams: [], permissions: { permissions: { inu_metadata: FULL_MASK }, apps: [], owners: [], needsTeams: false } };
const clerk: Caller = { userId: 'u2', teams: [], permissions: { permissions: { account: FULL_MASK }, apps: [], owners: [], needsTeams: false } };
const clock = { now: () => new Date('2026-11-25T05:00:00Z') };

const account: Entity = {
  logicalName: 'account',
  displayName: 'Account',
  displayNamePlural: 'Accounts',
  properties: [
    { logicalName: 'rating', displayName: 'Rating', type: 'String', max: 20 },
    { logicalName: 'secret_hash', displayName: 'Hash', type: 'String', secret: true },
  ],
};

/** A TenantSchema in memory: the applied metadata, rows at risk per step line, one-statement DDL per step. */
const memorySchema = (entities: Entity[], rows: Record<string, number> = {}) => {
  let applied: AppliedMetadata = { version: 3, appliedOn: '2026-11-24T00:00:00Z', entities: [...systemPack().entities, ...entities] };
  const applies: SchemaChange[] = [];
  const schema: TenantSchema = {
    dialect: 'memory',
    readApplied: async () => applied,
    dataAtRisk: async (plan: MigrationPlan): Promise<DataAtRisk[]> => plan.filter((s) => s.dataLoss).map((step) => ({ step, rows: rows[describeStep(step)] ?? 0 })),
    statements: (_from, plan) => right(plan.map((step) => ({ step, statements: [`-- ${describeStep(step)}`] }))),
    apply: async (change) => {
      applies.push(change);
      applied = { version: applied.version + 1, appliedOn: clock.now().toISOString(), entities: change.entities };
      return right(applied);
    },
  };
  return { schema, applies, applied: () => applied };
};

const withRating = (e: Entity, p: Entity['properties'][number]) => ({ ...e, properties: [...e.properties.filter((x) => x.logicalName !== p.logicalName), p] });

describe('the metadata editor use cases (issue 15, docs/schema.md "Metadata editor")', () => {
  it('only update at organization level on inu_metadata opens the editor', async () => {
    expect(canEditMetadata(admin)).toBe(true);
    expect(canEditMetadata(clerk)).toBe(false);
    const r = await planMetadataChange({ org: 'o', schema: memorySchema([account]).schema }, clerk, { create: [], update: [], remove: [] });
    expect(r).toMatchObject({ _tag: 'Left', left: { code: 'ERR_PERMISSION' } });
  });

  it('the proposed metadata keeps secret properties the client never saw, and checks names, lookups and lengths', () => {
    const applied = [...systemPack().entities, account];
    const noSecret = { ...account, displayName: 'Customer', properties: account.properties.filter((p) => !p.secret) };
    const r = proposedMetadata(applied, { create: [], update: [noSecret], remove: [] });
    expect(r._tag).toBe('Right');
    const next = r._tag === 'Right' ? r.right.find((e) => e.logicalName === 'account')! : undefined;
    expect(next?.displayName).toBe('Customer');
    expect(next?.properties.some((p) => p.logicalName === 'secret_hash')).toBe(true);
    const problem = (change: Parameters<typeof proposedMetadata>[1]) => {
      const x = proposedMetadata(applied, change);
      return x._tag === 'Left' ? x.left.message : 'accepted';
    };
    expect(problem({ create: [account], update: [], remove: [] })).toBe('Entity account exists already');
    expect(problem({ create: [], update: [account], remove: ['account'] })).toBe('Entity account is updated and removed in one change');
    expect(problem({ create: [], update: [withRating(account, { logicalName: 'boss', displayName: 'Boss', type: 'Lookup', targets: ['nobody'] })], remove: [] })).toContain('account.boss: target No Object:nobody');
    expect(problem({ create: [], update: [withRating(account, { logicalName: 'rating', displayName: 'Rating', type: 'String', max: 2.5 })], remove: [] })).toContain('max must be a whole number from 1, got 2.5');
    expect(problem({ create: [{ ...account, logicalName: 'sqlite_x' }], update: [], remove: [] })).toContain('are reserved');
  });

  it('the plan is the DDL text with its heading; a destructive step lists its rows, and apply refuses it until its line is confirmed', async () => {
    const m = memorySchema([account], { 'drop column account.rating': 7 });
    const change = { create: [], update: [{ ...account, properties: account.properties.filter((p) => p.logicalName !== 'rating') }], remove: [] };
    const plan = await planMetadataChange({ org: 'acme', schema: m.schema }, admin, change);
    expect(plan._tag).toBe('Right');
    if (plan._tag !== 'Right') return;
    expect(plan.right.version).toBe(3);
    expect(plan.right.ddl.split('\n').slice(0, 4)).toEqual(['-- metadata editor: acme (applied version 3)', '-- 1 step, 1 can lose data (memory)', '', '-- step 1: drop column account.rating  -- DATA LOSS: column account.rating has values in 7 rows']);
    expect(plan.right.destructive).toEqual([{ step: 'drop column account.rating', kind: 'dropColumn', table: 'account', column: 'rating', rows: 7, description: 'column account.rating has values in 7 rows' }]);
    const feed = new InMemoryChangeFeed();
    const deps = { org: 'acme', schema: m.schema, feed, clock };
    const refused = await applyMetadataChange(deps, admin, { change, version: 3, confirm: [] });
    expect(refused).toMatchObject({ _tag: 'Left', left: { code: 'ERR_DATA_LOSS' } });
    expect(m.applies).toHaveLength(0);
    const moved = await applyMetadataChange(deps, admin, { change, version: 2, confirm: ['drop column account.rating'] });
    expect(moved).toMatchObject({ _tag: 'Left', left: { code: 'ERR_8001' } });
    const done = await applyMetadataChange(deps, admin, { change, version: 3, confirm: ['drop column account.rating'] });
    expect(done).toEqual(right({ version: 4, steps: 1 }));
    expect(m.applies[0].expectedVersion).toBe(3);
    // Every open client hears of it: a change of inu_metadata named by the new version.
    expect(feed.recent()).toEqual([{ entity: 'inu_metadata', id: '4', operation: 'update', stamp: '2026-11-25T05:00:00.000Z' }]);
  });
});
