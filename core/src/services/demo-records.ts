import { isLeft } from 'fp-ts/lib/Either.js';
import { hasFlag, isLinkEntity, type Entity, type EntityRecord, type FieldValue, type Property } from '../metadata/entity.js';
import { EURO } from '../metadata/currency.js';
import { fieldTemplateOf } from '../metadata/field-template.js';
import { systemCaller, type RecordStore, type WriteItem } from '../ports/record-store.js';

/** A user who owns demo records, with the team the records are shared with. */
export type DemoOwner = { userId: string; teamId: string };

/** How many records each demo entity gets (others: DEFAULT_DEMO_COUNT). A few hundred in all. */
export const DEMO_COUNTS: Readonly<Record<string, number>> = {
  account: 60,
  contact: 100,
  lead: 50,
  opportunity: 40,
  product: 20,
  equipment: 30,
  workorder: 50,
  invoice: 30,
  invoicedetail: 60,
};
export const DEFAULT_DEMO_COUNT = 8;

const FIRST = ['Anna', 'Ben', 'Clara', 'David', 'Eva', 'Filip', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Katarina', 'Lukas', 'Mira', 'Noah', 'Olga', 'Peter'];
const LAST = ['Novak', 'Schmidt', 'Horvath', 'Muller', 'Kovac', 'Weber', 'Varga', 'Fischer', 'Balaz', 'Wagner', 'Toth', 'Becker'];
const COMPANY = ['Alpine', 'Blue River', 'Cedar', 'Danube', 'Evergreen', 'Falcon', 'Granite', 'Harbor', 'Iron Peak', 'Juniper', 'Kestrel', 'Lumen'];
const KIND = ['Systems', 'Logistics', 'Foods', 'Energy', 'Works', 'Partners', 'Labs', 'Trading'];
const CITY: Array<[string, string, number, number]> = [
  ['Bratislava', 'Slovakia', 48.1486, 17.1077],
  ['Vienna', 'Austria', 48.2082, 16.3738],
  ['Brno', 'Czechia', 49.1951, 16.6068],
  ['Munich', 'Germany', 48.1351, 11.582],
  ['Kosice', 'Slovakia', 48.7164, 21.2611],
  ['Graz', 'Austria', 47.0707, 15.4395],
];

/** A small deterministic generator (mulberry32), so `tessera demo` makes the same data each time. */
const random = (seed: number) => {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)), pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] };
};
type Random = ReturnType<typeof random>;

const day = (r: Random, spanDays: number): Date => new Date(Date.UTC(2026, 0, 1) + r.int(-spanDays, spanDays) * 86_400_000);

const optionValues = (p: Property): number[] =>
  [...(p.richOptions ?? []), ...((p.options ?? []) as Array<{ value?: unknown }>)].map((o) => o.value).filter((v): v is number => typeof v === 'number');

/** Entities in an order where lookup targets come first (cycles broken by pack order). */
const dependencyOrder = (entities: readonly Entity[]): Entity[] => {
  const names = new Set(entities.map((e) => e.logicalName));
  const done = new Set<string>();
  const out: Entity[] = [];
  const visit = (e: Entity, path: Set<string>): void => {
    if (done.has(e.logicalName) || path.has(e.logicalName)) return;
    path.add(e.logicalName);
    for (const p of e.properties)
      for (const t of p.type === 'Lookup' ? (p.targets ?? []) : [])
        if (names.has(t) && t !== e.logicalName) visit(entities.find((x) => x.logicalName === t)!, path);
    done.add(e.logicalName);
    out.push(e);
  };
  for (const e of entities) visit(e, new Set());
  return out;
};

const recordName = (entity: string, r: Random, i: number): string => {
  if (entity === 'account' || entity === 'lead') return `${r.pick(COMPANY)} ${r.pick(KIND)}`;
  if (entity === 'contact' || entity === 'fi_osoba') return `${r.pick(FIRST)} ${r.pick(LAST)}`;
  return `${entity.replace(/^(fi|route)_/, '').replace(/_/g, ' ')} ${i + 1}`;
};

const fieldValue = (p: Property, r: Random, i: number, owner: DemoOwner, created: Map<string, string[]>): FieldValue | undefined => {
  const n = p.logicalName;
  if (p.secret || hasFlag(p, 'AutoNumber') || hasFlag(p, 'Image') || hasFlag(p, 'File') || hasFlag(p, 'Json')) return undefined;
  const city = CITY[i % CITY.length];
  switch (p.type) {
    case 'Lookup': {
      const target = p.targets?.[0] ?? '';
      if (n === 'ownerid') return { id: owner.userId, name: 'systemuser' };
      if (n === 'teamid') return { id: owner.teamId, name: 'team' };
      if (n === 'currencyid') return { id: EURO.id, name: 'currency' };
      const ids = created.get(target) ?? [];
      if (ids.length === 0) return undefined;
      return { id: r.pick(ids), name: target };
    }
    case 'Integer': {
      const values = optionValues(p);
      if (hasFlag(p, 'MultiSelect')) return values.length ? values.filter(() => r.next() < 0.4).reduce((m, v) => m | (1 << v), 0) : 0;
      if (hasFlag(p, 'OptionSet')) return values.length ? r.pick(values) : undefined;
      if (hasFlag(p, 'Duration')) return r.int(1, 16) * 30;
      if (n.includes('probability')) return r.int(1, 9) * 10;
      return r.int(1, 500);
    }
    case 'Money':
      return Math.round(r.next() * 50_000) + 100;
    case 'Decimal':
      return n.includes('rate') ? 20 : Math.round(r.next() * 1000) / 10;
    case 'Float':
      if (n.includes('latitude')) return city[2] + (r.next() - 0.5) / 20;
      if (n.includes('longitude')) return city[3] + (r.next() - 0.5) / 20;
      return Math.round(r.next() * 1000) / 10;
    case 'Boolean':
      return r.next() < 0.3;
    case 'DateTime': {
      const d = day(r, 300);
      if (hasFlag(p, 'DateOnly')) return d.toISOString().slice(0, 10);
      d.setUTCHours(r.int(7, 17));
      return d.toISOString();
    }
    case 'String': {
      if (hasFlag(p, 'MultiSelect')) return undefined;
      if (hasFlag(p, 'Email')) return `${r.pick(FIRST).toLowerCase()}.${i}@example.com`;
      if (hasFlag(p, 'Phone')) return `+421 9${r.int(10, 99)} ${r.int(100, 999)} ${r.int(100, 999)}`;
      if (hasFlag(p, 'Url')) return `https://example.com/${i}`;
      if (n.includes('city')) return city[0];
      if (n.includes('country')) return city[1];
      if (n.includes('zip')) return String(r.int(10000, 99999));
      if (n.includes('street') || n === 'address') return `${r.pick(LAST)}ova ${r.int(1, 120)}`;
      if (n === 'firstname') return r.pick(FIRST);
      if (n === 'lastname') return r.pick(LAST);
      if (n === 'serialnumber') return `SN-${100000 + i}`;
      if (hasFlag(p, 'MultiLine')) return `Notes on record ${i + 1}.`;
      return p.max !== undefined && p.max < 12 ? 'x' : `${p.displayName} ${i + 1}`;
    }
    default:
      return undefined;
  }
};

/**
 * Generates the demo organization's records (`tessera demo`): for every non-link entity of the
 * pack a number of plausible records, owned in turn by the given users and shared with their
 * teams, lookups pointing at records made before. Returns the count per entity.
 */
export const generateDemoRecords = async (
  store: RecordStore,
  entities: readonly Entity[],
  owners: readonly DemoOwner[],
  seed = 42,
): Promise<Record<string, number>> => {
  const r = random(seed);
  const created = new Map<string, string[]>();
  const counts: Record<string, number> = {};
  for (const e of dependencyOrder(entities)) {
    if (isLinkEntity(e)) continue;
    const n = DEMO_COUNTS[e.logicalName] ?? DEFAULT_DEMO_COUNT;
    const items: WriteItem[] = [];
    for (let i = 0; i < n; i++) {
      const owner = owners[i % owners.length];
      const object: EntityRecord = {};
      for (const p of e.properties) {
        if (['id', 'versionnumber', 'createdon', 'createdby', 'modifiedon', 'modifiedby', 'statuscode', 'statecode'].includes(p.logicalName)) continue;
        // A composed field (a contact's name) is left to the store, which fills it from its sources.
        if (fieldTemplateOf(p) !== undefined) continue;
        const v = p.logicalName === 'name' ? recordName(e.logicalName, r, i) : fieldValue(p, r, i, owner, created);
        if (v !== undefined) object[p.logicalName] = v;
      }
      items.push({ operation: 'create', name: e.logicalName, object });
    }
    const result = await store.executeMultiple(systemCaller(owners[0]?.userId), items, { atomic: true });
    if (isLeft(result)) throw new Error(`${e.logicalName}: ${result.left.message}`);
    const ids = result.right.flatMap((x) => ('id' in x ? [x.id] : []));
    const failed = result.right.find((x) => 'error' in x);
    if (failed && 'error' in failed) throw new Error(`${e.logicalName}: ${failed.error}`);
    created.set(e.logicalName, ids);
    counts[e.logicalName] = ids.length;
  }
  return counts;
};
