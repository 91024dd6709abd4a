// Metadata editor benchmark (issue 15): on an organization with the system and demo packs (SQLite
// on disk), the editor's plan of one added field (POST /api/metadata/plan's use case: validation,
// plan, DDL text, rows at risk) and its apply. Goals: plan under 300 ms, apply under 1000 ms; the
// baseline is `tessera schema diff`'s own dry run of the same change (migrateSchema), so the ratio
// is what the editor adds. Medians of 5 runs.
// Run: node --import tsx tests/bench/metadata-editor-bench.ts (or npm run bench).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  applyMetadataChange,
  builtInPacks,
  FULL_MASK,
  InMemoryChangeFeed,
  migrateSchema,
  planMetadataChange,
  systemClock,
  type Caller,
  type Entity,
  type TenantSchema,
} from '@tessera/core/internal';
import { compilePlan, createOrganizationDatabase, KyselySchemaStore, openOrgDatabase, sqliteDdl, sqliteKysely } from '@tessera/adapters-sql';

const RUNS = 5;
const PLAN_GOAL_MS = 300;
const APPLY_GOAL_MS = 1000;
const admin: Caller = { userId: 'bench', teams: [], permissions: { permissions: { inu_metadata: FULL_MASK }, apps: [], owners: [], needsTeams: false } };

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const report = (name: string, ms: number, goal: number, base: number) =>
  process.stdout.write(`bench ${name}: ${ms.toFixed(1)} ms (goal < ${goal} ms; ${(ms / base).toFixed(2)}x schema diff's dry run) ${ms < goal ? 'ok' : 'short'}\n`);

const data = mkdtempSync(join(tmpdir(), 'tessera-meta-bench-'));
try {
  const created = await createOrganizationDatabase(data, 'bench', builtInPacks().flatMap((p) => p.entities), systemClock);
  if (created._tag === 'Left') throw new Error(JSON.stringify(created.left));
  const raw = openOrgDatabase(data, 'bench');
  if (raw._tag === 'Left') throw new Error(raw.left.message);
  const db = sqliteKysely(raw.right);
  const store = new KyselySchemaStore(db, sqliteDdl, systemClock);
  const schema: TenantSchema = {
    dialect: 'sqlite',
    readApplied: () => store.readApplied(),
    dataAtRisk: (plan) => store.dataAtRisk(plan),
    apply: (change, progress) => store.apply(change, progress),
    statements: (from, plan) => compilePlan(sqliteDdl, from, plan),
  };
  const deps = { org: 'bench', schema, feed: new InMemoryChangeFeed(), clock: systemClock };
  const changeFor = async (i: number) => {
    const applied = (await store.readApplied())!;
    const account = applied.entities.find((e) => e.logicalName === 'account')!;
    const next: Entity = { ...account, properties: [...account.properties, { logicalName: `bench${i}`, displayName: `Bench ${i}`, type: 'String', max: 50 }] };
    return { version: applied.version, entities: applied.entities.map((e) => (e.logicalName === 'account' ? next : e)), change: { create: [], update: [next], remove: [] } };
  };
  const diffs: number[] = [];
  const plans: number[] = [];
  const applies: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const c = await changeFor(i);
    let t = performance.now();
    const dry = await migrateSchema(store, c.entities, { dryRun: true, allowDataLoss: true });
    diffs.push(performance.now() - t);
    if (dry._tag === 'Left') throw new Error(JSON.stringify(dry.left));
    t = performance.now();
    const plan = await planMetadataChange(deps, admin, c.change);
    plans.push(performance.now() - t);
    if (plan._tag === 'Left') throw new Error(plan.left.message);
    t = performance.now();
    const done = await applyMetadataChange(deps, admin, { change: c.change, version: c.version, confirm: [] });
    applies.push(performance.now() - t);
    if (done._tag === 'Left') throw new Error(done.left.message);
  }
  const base = median(diffs);
  report('metadata editor plan (demo, one added field)', median(plans), PLAN_GOAL_MS, base);
  report('metadata editor apply (demo, one added field)', median(applies), APPLY_GOAL_MS, base);
  await db.destroy();
} finally {
  rmSync(data, { recursive: true, force: true });
}
