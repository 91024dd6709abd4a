import { isLeft } from 'fp-ts/lib/Either.js';
import { hasFlag, isLinkEntity, type Entity, type EntityRecord, type FieldValue, type Property } from '../metadata/entity.js';
import { EURO } from '../metadata/currency.js';
import { fieldTemplateOf } from '../metadata/field-template.js';
import { planLineItemSave, type LineItemDraft } from '../money/line-items.js';
import { dietDays, routeTotals, type Leg } from '../travel/route.js';
import { MEAL_LUNCH } from '../travel/meal-allowance.js';
import { systemCaller, type RecordStore, type WriteItem } from '../ports/record-store.js';
import { MAX_BATCH_SIZE } from '../query/validate-query.js';
import { demoReportImages, demoReportTemplates } from '../templates/demo-templates.js';
import { AUTO_NUMBER_ENTITY } from '../store/auto-number.js';
import { demoAutoNumbers, lineItemParents } from './demo-auto-numbers.js';
import {
  BUDGET_LINE_TYPES,
  CATALOGUE,
  CITIES,
  COMPANY,
  FIRST_NAMES,
  HARDWARE,
  JOB_TITLES,
  KIND,
  LAST_NAMES,
  LEAD_COMPANY,
  LEAD_TOPICS,
  SOFTWARE,
  SPARE_PART,
  VILLAGES,
  type CatalogueItem,
  type City,
} from './demo-vocabulary.js';

/**
 * The demo organization's records (`tessera demo`, docs/metadata.md "Demo data"): records a
 * domain expert would believe. Work orders end after they start, invoices total their lines (the
 * line-item maths of money/line-items.ts) and fall due after they are issued, account, product,
 * work order and invoice numbers are filled the way an auto number would fill them (ACC-00001,
 * numbered in the order the records came to be), open opportunities close in the future and
 * decided ones in the past, a contact works at an account and in its city. Every user, the
 * administrator too, owns records of their own trade, so every "Mine" list has rows.
 *
 * The set is pure: it depends only on the pack, the owners, the seed and `now` (the clock's time,
 * passed in), and it names its own ids, so tests read it without a store.
 */

/**
 * A user who owns demo records: `works` says which records (sales: accounts, contacts, leads,
 * opportunities, invoices; service: equipment, work orders, travel reports; absent: both, as the
 * administrator). `teamId` is the team the records are shared with (none for a user in no team).
 */
export type DemoWork = 'sales' | 'service';
export type DemoOwner = { userId: string; teamId?: string; works?: DemoWork };

export type DemoOptions = { seed?: number; now: Date };

/** The records of one entity, in the order they are written. */
export type DemoEntityRecords = { entity: string; records: EntityRecord[] };

/** How many records each demo entity gets (invoices and their lines follow from completed work and won deals). */
export const DEMO_COUNTS: Readonly<Record<string, number>> = {
  account: 60,
  contact: 100,
  lead: 50,
  opportunity: 40,
  equipment: 30,
  workorder: 50,
  invoice: 30,
};
export const DEFAULT_DEMO_COUNT = 8;
const DAY_MS = 86_400_000;

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
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  /** A value by weight: [[value, weight], ...]. */
  const weighted = <T>(xs: ReadonlyArray<readonly [T, number]>): T => {
    let x = next() * xs.reduce((s, [, w]) => s + w, 0);
    for (const [v, w] of xs) if ((x -= w) < 0) return v;
    return xs[xs.length - 1][0];
  };
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(next() * 16).toString(16)).join('');
  /** A version-4 shaped UUID drawn from the seed: the demo names its own ids so the set is complete before it is written. */
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[Math.floor(next() * 4)]}${hex(3)}-${hex(12)}`;
  return { next, int, pick, weighted, uuid };
};
type Random = ReturnType<typeof random>;

const lookup = (id: string, entity: string): FieldValue => ({ id, name: entity });
const lookupId = (v: unknown): string | undefined => (v && typeof v === 'object' && 'id' in v ? String((v as { id: unknown }).id) : undefined);
const isoDay = (d: Date): string => d.toISOString().slice(0, 10);
const addDays = (d: Date, days: number): Date => new Date(d.getTime() + days * DAY_MS);
const atHour = (d: Date, hour: number, minute = 0): Date => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), hour, minute));
const addYears = (d: Date, years: number): Date => new Date(Date.UTC(d.getUTCFullYear() + years, d.getUTCMonth(), d.getUTCDate()));
/** An auto number as issue 16's feature would give it: prefix and five digits. */
export const autoNumber = (prefix: string, n: number): string => `${prefix}-${String(n).padStart(5, '0')}`;
/** Latin letters for e-mail addresses and web domains (Košice -> kosice). */
const ascii = (s: string): string => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
const domainOf = (company: string): string => `${ascii(company).replace(/[^a-z0-9]+/g, '-')}.example`;
/** A landline (+421 2 123 4567) and a mobile number (+421 912 345 678) of a city's country. */
const landline = (r: Random, city: City): string => `${city.phone} ${r.int(100, 999)} ${r.int(1000, 9999)}`;
const mobile = (r: Random, city: City): string => `${city.mobile}${r.int(10, 99)} ${r.int(100, 999)} ${r.int(100, 999)}`;
/** Road kilometres between two cities: the great-circle distance and a fifth more for the roads. */
const roadKm = (a: City, b: City): number => {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
  return Math.round(2 * 6371 * Math.asin(Math.sqrt(h)) * 1.2);
};

type Address = { street: string; city: City; zip: string; latitude: number; longitude: number };
const addressIn = (r: Random, city: City): Address => ({
  street: `${r.pick(city.streets)} ${r.int(1, 120)}`,
  city,
  zip: r.pick(city.zips),
  latitude: Math.round((city.latitude + (r.next() - 0.5) / 25) * 1e6) / 1e6,
  longitude: Math.round((city.longitude + (r.next() - 0.5) / 25) * 1e6) / 1e6,
});
const addressFields = (a: Address): EntityRecord => ({
  address1_street: a.street,
  address1_city: a.city.name,
  address1_zip: a.zip,
  address1_country: a.city.country,
  address1_latitude: a.latitude,
  address1_longitude: a.longitude,
});

/** Owner, team and currency of a record owned by `o`. */
const owned = (o: DemoOwner, currency = true): EntityRecord => ({
  ownerid: lookup(o.userId, 'systemuser'),
  ...(o.teamId ? { teamid: lookup(o.teamId, 'team') } : {}),
  ...(currency ? { currencyid: lookup(EURO.id, 'currency') } : {}),
});
const ownerOf = (rec: EntityRecord, owners: readonly DemoOwner[]): DemoOwner => owners.find((o) => o.userId === lookupId(rec.ownerid)) ?? owners[0];

/** The line items of a sale or a job, with the totals of the core's line-item maths. */
type Line = { product: EntityRecord; quantity: number; discount: number };
const priceLines = (lines: readonly Line[]) => {
  const drafts: LineItemDraft[] = lines.map((l) => ({ quantity: l.quantity, discount: l.discount, listprice: l.product.listprice as number }));
  const plan = planLineItemSave(drafts, 0);
  if (isLeft(plan)) throw new Error(`demo line items: ${plan.left.message}`);
  const totals = plan.right.operations.map((op) => ('totals' in op ? op.totals : undefined)).filter((t) => t !== undefined);
  return { totals, total: plan.right.parentTotalamount };
};

type Context = {
  r: Random;
  now: Date;
  today: Date;
  owners: readonly DemoOwner[];
  /** The owners of a trade, the administrator among them. */
  sales: readonly DemoOwner[];
  service: readonly DemoOwner[];
  made: Map<string, EntityRecord[]>;
  /** What a work order or a won opportunity sold, for its invoice. */
  lines: Map<string, Line[]>;
  count: (entity: string) => number;
};

const byId = (ctx: Context, entity: string, id: string | undefined): EntityRecord | undefined =>
  (ctx.made.get(entity) ?? []).find((x) => x.id === id);
const contactsOf = (ctx: Context, accountId: string): EntityRecord[] =>
  (ctx.made.get('contact') ?? []).filter((c) => lookupId(c.parentcustomerid) === accountId);
const productNamed = (ctx: Context, name: string): EntityRecord => (ctx.made.get('product') ?? []).find((p) => p.name === name)!;
const productsOf = (ctx: Context, category: number): EntityRecord[] => (ctx.made.get('product') ?? []).filter((p) => p.category === category);
const accountCity = (a: EntityRecord): City => CITIES.find((c) => c.name === a.address1_city) ?? CITIES[0];
const accountAddress = (a: EntityRecord): Address => ({
  street: String(a.address1_street),
  city: accountCity(a),
  zip: String(a.address1_zip),
  latitude: a.address1_latitude as number,
  longitude: a.address1_longitude as number,
});

const products = (ctx: Context): EntityRecord[] =>
  CATALOGUE.map((p: CatalogueItem, i) => ({
    id: ctx.r.uuid(),
    name: p.name,
    productnumber: autoNumber('PRD', i + 1),
    category: p.category,
    listprice: p.listprice,
    vatrate: 20,
    unit: p.unit,
    ...(p.weight !== undefined ? { weight: p.weight } : {}),
    ...owned(ctx.owners[i % ctx.owners.length]),
  }));

/** Accounts: four in five are head offices with distinct names, the rest branches of one of them in another city (same name, parent set). */
const accounts = (ctx: Context): EntityRecord[] => {
  const { r, today } = ctx;
  const n = ctx.count('account');
  const names = COMPANY.flatMap((c) => KIND.map(([k, industry]) => ({ name: `${c} ${k}`, industry })));
  for (let i = names.length - 1; i > 0; i--) {
    const j = r.int(0, i);
    [names[i], names[j]] = [names[j], names[i]];
  }
  const out: EntityRecord[] = [];
  const heads = Math.ceil(n * 0.8);
  for (let i = 0; i < n; i++) {
    const branchOf = i >= heads ? out[r.int(0, heads - 1)] : undefined;
    const { name, industry } = branchOf ? { name: String(branchOf.name), industry: branchOf.industry as number } : names[i % names.length];
    const city = branchOf ? r.pick(CITIES.filter((c) => c.name !== branchOf.address1_city)) : r.pick(CITIES);
    const owner = ctx.sales[i % ctx.sales.length];
    const employees = r.weighted([[r.int(5, 40), 5], [r.int(41, 250), 4], [r.int(251, 1200), 1]] as const);
    const revenue = Math.round((employees * r.int(60, 180)) / 10) * 10_000;
    // A branch has the relationship of its head office.
    const customertype = branchOf ? (branchOf.customertype as number) : r.weighted([[2, 50], [1, 25], [3, 15], [4, 10]] as const);
    const domain = domainOf(name);
    out.push({
      id: r.uuid(),
      name,
      accountnumber: autoNumber('ACC', i + 1),
      industry,
      customertype,
      revenue,
      ...(customertype === 2 || customertype === 3 ? { creditlimit: Math.max(5_000, Math.round(revenue / 20 / 1000) * 1000) } : {}),
      numberofemployees: employees,
      website: `https://www.${domain}`,
      telephone1: landline(r, city),
      emailaddress1: branchOf ? `${ascii(city.name)}@${domain}` : `info@${domain}`,
      established: isoDay(addDays(addYears(today, -r.int(2, 60)), -r.int(0, 364))),
      ...addressFields(addressIn(r, city)),
      ...(branchOf ? { parentaccountid: lookup(String(branchOf.id), 'account'), description: `${city.name} branch of ${name}.` } : {}),
      ...owned(owner),
    });
  }
  return out;
};

/** Contacts: every account has at least one, at its address; owned by the account's owner. The account's first is its primary contact. */
const contacts = (ctx: Context): EntityRecord[] => {
  const { r, today } = ctx;
  const accs = ctx.made.get('account') ?? [];
  const out: EntityRecord[] = [];
  for (let i = 0; i < ctx.count('contact'); i++) {
    const account = i < accs.length ? accs[i] : r.pick(accs);
    const [firstname, gender] = r.pick(FIRST_NAMES);
    const lastname = r.pick(LAST_NAMES);
    const city = accountCity(account);
    const donotemail = r.next() < 0.1;
    const languages = (1 << city.language) | (city.language !== 0 && r.next() < 0.6 ? 1 : 0);
    out.push({
      id: r.uuid(),
      firstname,
      lastname,
      parentcustomerid: lookup(String(account.id), 'account'),
      jobtitle: r.pick(JOB_TITLES),
      emailaddress1: `${ascii(firstname)}.${ascii(lastname)}@${String(account.website).replace('https://www.', '')}`,
      mobilephone: mobile(r, city),
      birthdate: isoDay(addDays(addYears(today, -r.int(23, 64)), -r.int(0, 364))),
      gendercode: gender === 'm' ? 1 : 2,
      preferredcontactmethodcode: donotemail ? r.pick([3, 4]) : r.pick([1, 2, 3]),
      languages,
      donotemail,
      ...addressFields(accountAddress(account)),
      ...owned(ownerOf(account, ctx.owners), false),
    });
    if (i < accs.length) account.primarycontactid = lookup(String(out[i].id), 'contact');
  }
  return out;
};

/** Leads: new companies (not yet accounts); open ones have a next contact in the future, decided ones none. */
const leads = (ctx: Context): EntityRecord[] => {
  const { r, now } = ctx;
  return Array.from({ length: ctx.count('lead') }, (_, i) => {
    const company = `${r.pick(LEAD_COMPANY)} ${r.pick(KIND)[0]}`;
    const [firstname] = r.pick(FIRST_NAMES);
    const lastname = r.pick(LAST_NAMES);
    // Each salesperson's first two leads are New: the Leads list opens on New and Mine.
    const status = i < 2 * ctx.sales.length ? 1 : r.weighted([[1, 30], [2, 30], [3, 25], [4, 15]] as const);
    const rating = status === 3 ? r.pick([1, 2]) : status === 4 ? 3 : r.pick([1, 2, 3]);
    const city = r.pick(CITIES);
    const open = status === 1 || status === 2;
    return {
      id: r.uuid(),
      name: `${company}: ${r.pick(LEAD_TOPICS)}`,
      firstname,
      lastname,
      companyname: company,
      emailaddress1: `${ascii(firstname)}.${ascii(lastname)}@${domainOf(company)}`,
      telephone1: landline(r, city),
      leadsource: r.int(1, 5),
      rating,
      status,
      estimatedvalue: r.int(4, 240) * 500,
      ...(open ? { nextcontact: atHour(addDays(now, r.int(1, 21)), r.int(7, 15)).toISOString() } : {}),
      ...owned(ctx.sales[i % ctx.sales.length]),
    };
  });
};

/**
 * Opportunities: owned by the account's owner, the contact one of the account's. Open ones close today or
 * later with the probability of their stage; won ones closed in the past at the value of
 * their lines (the invoice bills the same lines); lost ones closed in the past at probability 0.
 */
const opportunities = (ctx: Context): EntityRecord[] => {
  const { r, today } = ctx;
  const accs = (ctx.made.get('account') ?? []).filter((a) => a.customertype !== 4);
  const sellable = [...productsOf(ctx, HARDWARE), ...productsOf(ctx, SOFTWARE)];
  const endOfMonth = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 0));
  const daysLeft = Math.round((endOfMonth.getTime() - today.getTime()) / DAY_MS);
  return Array.from({ length: ctx.count('opportunity') }, (_, i) => {
    // Each salesperson's first two deals are open and close this month: the Opportunities list opens on "Closes: This month" and Mine.
    const forced = i < 2 * ctx.sales.length ? ctx.sales[i % ctx.sales.length].userId : undefined;
    const outcome = forced ? 1 : r.weighted([[1, 55], [2, 25], [3, 20]] as const);
    // A won deal made the account a customer (or it is a partner): no prospect has bought.
    const candidates = accs.filter((a) => (!forced || lookupId(a.ownerid) === forced) && (outcome !== 2 || a.customertype === 2 || a.customertype === 3));
    const account = r.pick(candidates);
    const contact = r.pick(contactsOf(ctx, String(account.id))) as EntityRecord | undefined;
    const lines: Line[] = Array.from({ length: r.int(1, 3) }, () => {
      const product = r.pick(sellable);
      return { product, quantity: product.category === SOFTWARE ? 1 : r.int(1, 6), discount: r.pick([0, 0, 5, 10]) };
    });
    const { total } = priceLines(lines);
    const estimatedvalue = Math.max(500, Math.round((total * (0.9 + r.next() * 0.3)) / 100) * 100);
    const id = r.uuid();
    const main = lines[0].product.name;
    const base = {
      id,
      name: `${String(main).replace(/ \(.*\)$/, '')} for ${String(account.name)}`,
      customerid: lookup(String(account.id), 'account'),
      ...(contact ? { contactid: lookup(String(contact.id), 'contact') } : {}),
      estimatedvalue,
      ...owned(ownerOf(account, ctx.owners)),
    };
    if (outcome === 1) {
      const stage = r.int(1, 4);
      return { ...base, outcome, stage, process_stage_index: stage - 1, closeprobability: [10, 30, 60, 80][stage - 1], estimatedclosedate: isoDay(addDays(today, forced || r.next() < 0.3 ? r.int(0, daysLeft) : r.int(daysLeft + 1, daysLeft + 150))) };
    }
    const closed = addDays(today, -r.int(3, 200));
    const estimated = isoDay(addDays(closed, r.int(-20, 20)));
    if (outcome === 2) {
      ctx.lines.set(id, lines);
      return { ...base, outcome, stage: 4, process_stage_index: 3, closeprobability: 100, estimatedclosedate: estimated, actualclosedate: isoDay(closed), actualvalue: total };
    }
    const stage = r.int(1, 4);
    return { ...base, outcome, stage, process_stage_index: stage - 1, closeprobability: 0, estimatedclosedate: estimated, actualclosedate: isoDay(closed) };
  });
};

/** Equipment: hardware installed in the past at a customer's address; warranty from the product; condition by age. */
const equipment = (ctx: Context): EntityRecord[] => {
  const { r, today } = ctx;
  const accs = (ctx.made.get('account') ?? []).filter((a) => a.customertype === 2 || a.customertype === 3 || a.customertype === 4);
  const hardware = productsOf(ctx, HARDWARE);
  return Array.from({ length: ctx.count('equipment') }, (_, i) => {
    const account = r.pick(accs);
    const product = r.pick(hardware);
    const item = CATALOGUE.find((c) => c.name === product.name)!;
    const ageDays = r.int(20, 3000);
    const installed = addDays(today, -ageDays);
    const condition = ageDays > 2500 ? r.pick([3, 4]) : r.weighted([[1, 75], [2, 20], [3, 5]] as const);
    return {
      id: r.uuid(),
      name: `${String(product.name)}, ${String(account.name)}`,
      serialnumber: `${item.code}-${installed.getUTCFullYear()}-${String(10_000 + i * 137 + r.int(0, 99)).padStart(5, '0')}`,
      productid: lookup(String(product.id), 'product'),
      accountid: lookup(String(account.id), 'account'),
      installedon: isoDay(installed),
      warrantyend: isoDay(addYears(installed, item.warrantyYears ?? 2)),
      condition,
      // Duration is in minutes: running hours per day since installation.
      operatinghours: Math.round(ageDays * r.int(4, 16)) * 60,
      ...addressFields(accountAddress(account)),
      ...owned(ctx.service[i % ctx.service.length], false),
    };
  });
};

const WORK_TYPES: Record<number, string> = { 1: 'Installation', 2: 'Repair', 3: 'Maintenance', 4: 'Inspection' };

/**
 * Work orders: a job at a customer, on its equipment where it has some. Completed ones lie in the
 * past (end after start, completed at the end) and bill a visit, the hours and maybe a part;
 * scheduled ones lie in the future; one in progress started before now and ends after it.
 * Numbered in the order of their start.
 */
const workorders = (ctx: Context): EntityRecord[] => {
  const { r, now, today } = ctx;
  // Retired equipment, and a former customer's, gets no more work.
  const kit = (ctx.made.get('equipment') ?? []).filter((e) => e.condition !== 4 && byId(ctx, 'account', lookupId(e.accountid))?.customertype !== 4);
  const customers = (ctx.made.get('account') ?? []).filter((a) => a.customertype === 2 || a.customertype === 3);
  const out = Array.from({ length: ctx.count('workorder') }, (_, i): EntityRecord => {
    // Each technician's first two jobs are Scheduled: the Work Orders list opens on Scheduled and Mine.
    const status = i < 2 * ctx.service.length ? 2 : r.weighted([[4, 40], [2, 25], [3, 10], [1, 15], [5, 10]] as const);
    // Work without equipment is an installation still to come; everything else is done on a customer's equipment.
    const onKit = (status === 1 || status === 2) && r.next() < 0.35 ? undefined : r.pick(kit);
    const account = onKit ? byId(ctx, 'account', lookupId(onKit.accountid))! : r.pick(customers);
    const type = onKit ? r.pick([2, 3, 4]) : 1;
    const minutes = r.int(2, 16) * 30;
    // Work on equipment comes after it was installed.
    const age = onKit ? Math.round((today.getTime() - Date.parse(String(onKit.installedon))) / DAY_MS) : 1000;
    let start: Date | undefined;
    if (status === 4) start = atHour(addDays(today, -r.int(1, Math.min(150, age - 1))), r.int(7, 13));
    else if (status === 2) start = atHour(addDays(today, r.int(1, 45)), r.int(7, 13));
    else if (status === 3) start = new Date(Math.floor((now.getTime() - r.int(1, Math.max(1, minutes / 30 - 1)) * 1_800_000) / 1_800_000) * 1_800_000);
    else if (status === 5) start = atHour(addDays(today, r.int(-Math.min(60, age - 1), 30)), r.int(7, 13));
    const end = start ? new Date(start.getTime() + minutes * 60_000) : undefined;
    const warranty = onKit && start ? String(onKit.warrantyend) >= isoDay(start) : false;
    const subtype = type * 10 + (type === 2 ? (warranty ? 1 : 2) : type === 3 ? (r.next() < 0.2 ? 2 : 1) : r.int(1, 2));
    const priority = subtype === 32 ? r.pick([3, 4]) : type === 2 ? r.pick([2, 3, 4]) : r.pick([1, 2, 2]);
    const contact = r.pick(contactsOf(ctx, String(account.id))) as EntityRecord | undefined;
    const what = onKit ? String(onKit.name).split(',')[0] : String(r.pick(productsOf(ctx, HARDWARE)).name);
    const id = r.uuid();
    const record: EntityRecord = {
      id,
      name: `${WORK_TYPES[type]}: ${what}, ${String(account.name)}`,
      customerid: lookup(String(account.id), 'account'),
      ...(contact ? { contactid: lookup(String(contact.id), 'contact') } : {}),
      ...(onKit ? { equipmentid: lookup(String(onKit.id), 'equipment') } : {}),
      workordertype: type,
      subtype,
      priority,
      status,
      process_stage_index: { 1: 0, 2: 1, 3: 2, 4: 3, 5: 0 }[status],
      duration: minutes,
      ...(start && end ? { scheduledstart: start.toISOString(), scheduledend: end.toISOString() } : {}),
      ...addressFields(onKit ? accountAddress(onKit) : accountAddress(account)),
      ...owned(ctx.service[i % ctx.service.length]),
    };
    if (status === 4 && end) {
      const visit = type === 3 ? 'Annual Maintenance' : type === 4 ? 'Safety Inspection' : 'Service Visit';
      const lines: Line[] = [{ product: productNamed(ctx, visit), quantity: 1, discount: 0 }];
      if (subtype !== 21) lines.push({ product: productNamed(ctx, 'Labour (hour)'), quantity: minutes / 60, discount: 0 });
      if (type === 2 || r.next() < 0.3) lines.push({ product: r.pick(productsOf(ctx, SPARE_PART)), quantity: r.int(1, 3), discount: 0 });
      // A warranty repair is billed to no one: it has no lines and no total.
      if (subtype !== 21) {
        ctx.lines.set(id, lines);
        record.totalamount = priceLines(lines).total;
      }
      record.completedon = end.toISOString();
    }
    return record;
  });
  const started = (w: EntityRecord) => (typeof w.scheduledstart === 'string' ? w.scheduledstart : '9999');
  out.sort((a, b) => started(a).localeCompare(started(b)));
  out.forEach((w, i) => (w.workordernumber = autoNumber('WO', i + 1)));
  return out;
};

/**
 * Invoices: one for each won opportunity and each billed completed work order (most recent first,
 * up to the count), issued on or after the day the work or the deal was done and never after
 * today; due 14 or 30 days later. Paid or overdue once due; a draft is not sent.
 */
const invoices = (ctx: Context): { invoices: EntityRecord[]; lines: EntityRecord[] } => {
  const { r, today } = ctx;
  const sources = [
    ...(ctx.made.get('opportunity') ?? []).filter((o) => ctx.lines.has(String(o.id))).map((o) => ({ rec: o, done: String(o.actualclosedate), by: 'opportunityid' })),
    ...(ctx.made.get('workorder') ?? []).filter((w) => ctx.lines.has(String(w.id))).map((w) => ({ rec: w, done: String(w.completedon).slice(0, 10), by: 'workorderid' })),
  ]
    .sort((a, b) => b.done.localeCompare(a.done))
    .slice(0, ctx.count('invoice'))
    .reverse();
  const out: EntityRecord[] = [];
  const lines: EntityRecord[] = [];
  sources.forEach(({ rec, done, by }) => {
    const account = byId(ctx, 'account', lookupId(rec.customerid))!;
    const owner = ownerOf(account, ctx.owners);
    const issuedMs = Math.min(new Date(done).getTime() + r.int(0, 7) * DAY_MS, today.getTime());
    const issued = new Date(issuedMs);
    const due = addDays(issued, r.pick([14, 30]));
    const recent = today.getTime() - issuedMs < 5 * DAY_MS;
    const paymentstatus = recent && r.next() < 0.5 ? 1 : due < today ? r.weighted([[3, 80], [4, 20]] as const) : r.weighted([[2, 75], [3, 25]] as const);
    const id = r.uuid();
    const billed = ctx.lines.get(String(rec.id))!;
    const { totals, total } = priceLines(billed);
    out.push({
      id,
      name: String(rec.name),
      customerid: rec.customerid,
      ...(rec.contactid ? { contactid: rec.contactid } : {}),
      [by]: lookup(String(rec.id), by === 'opportunityid' ? 'opportunity' : 'workorder'),
      invoicedate: isoDay(issued),
      duedate: isoDay(due),
      totalamount: total,
      paymentstatus,
      ...(paymentstatus !== 1 ? { senton: atHour(issued, 10).toISOString() } : {}),
      ...owned(owner),
    });
    billed.forEach((l, k) =>
      lines.push({
        id: r.uuid(),
        name: String(l.product.name),
        invoiceid: lookup(id, 'invoice'),
        productid: lookup(String(l.product.id), 'product'),
        ...totals[k],
        ...owned(owner),
      }),
    );
  });
  // Every owner's "Mine" list has rows (issue 23): when no invoice fell to the administrator (the
  // owner of no trade), the newest one and its lines are theirs.
  const admin = ctx.owners.find((o) => o.works === undefined);
  const last = out[out.length - 1];
  if (admin && last && !out.some((i) => lookupId(i.ownerid) === admin.userId)) {
    Object.assign(last, owned(admin));
    for (const l of lines) if (lookupId(l.invoiceid) === last.id) Object.assign(l, owned(admin));
  }
  // Numbered in the order they were issued, as the law of most countries wants of invoices.
  out.sort((a, b) => String(a.invoicedate).localeCompare(String(b.invoicedate)));
  out.forEach((inv, i) => (inv.invoicenumber = autoNumber('INV', i + 1)));
  return { invoices: out, lines };
};

const HOME = CITIES[0];

/** Travel reports: a technician's day trip from the office to a customer's city and back, its legs and totals by the core's route maths. */
const travelReports = (ctx: Context): EntityRecord[] => {
  const { r, today } = ctx;
  const away = CITIES.filter((c) => c !== HOME);
  return Array.from({ length: ctx.count('route_route') }, (_, i) => {
    const to = r.pick(away);
    const day = addDays(today, -r.int(3, 120));
    const km = roadKm(HOME, to);
    const [t7, t15, t18] = [7, 15, 18].map((h) => atHour(day, h).toISOString());
    const home = { address: `Mlynské nivy 5, 821 09 ${HOME.name}`, latitude: HOME.latitude, longitude: HOME.longitude };
    const there = { address: `${r.pick(to.streets)} ${r.int(1, 80)}, ${r.pick(to.zips)} ${to.name}`, latitude: to.latitude, longitude: to.longitude };
    const fuel = Math.round(km * 0.09 * 1.65 * 100) / 100;
    const legs: Leg[] = [
      { id: r.uuid(), startdate: t7, enddate: t7, masstransit: 'no', distance: 0, ...home },
      { id: r.uuid(), startdate: t7, enddate: t15, masstransit: 'no', distance: km, travel_cost: fuel, food_cost: r.int(8, 15), ...there },
      { id: r.uuid(), startdate: t15, enddate: t18, masstransit: 'no', distance: km, travel_cost: fuel, ...home },
    ];
    // The meal allowance days, lunch provided on every other trip (the customer's canteen).
    const days = dietDays(legs, 'Europe/Bratislava');
    const diet = dietDays(legs, 'Europe/Bratislava', days.map((d) => ({ ...d, meals: i % 2 === 0 ? MEAL_LUNCH : 0 })));
    const totals = routeTotals(legs);
    return {
      id: r.uuid(),
      name: `Trip to ${to.name}`,
      report_date: isoDay(day),
      legs_json: JSON.stringify(legs),
      diet_json: JSON.stringify(diet),
      name_locations: totals.name_locations,
      total_distance: totals.total_distance,
      total_expense: totals.total_expense,
      startdate: totals.startdate!,
      enddate: totals.enddate!,
      ...owned(ctx.service[i % ctx.service.length]),
    };
  });
};

/** Addresses: the offices the travel reports start from and go to. */
const addresses = (ctx: Context): EntityRecord[] =>
  CITIES.map((c) => {
    const a = addressIn(ctx.r, c);
    return { id: ctx.r.uuid(), name: `${c.name} office`, address: `${a.street}, ${a.zip} ${c.name}, ${c.country}`, latitude: a.latitude, longitude: a.longitude };
  });

/** Families, their people (two adults and up to three children), the family members, employments and budget lines. */
const familyBudget = (ctx: Context): DemoEntityRecords[] => {
  const { r, today } = ctx;
  const lastNames = [...LAST_NAMES];
  const families: EntityRecord[] = [];
  const people: EntityRecord[] = [];
  const members: EntityRecord[] = [];
  const employments: EntityRecord[] = [];
  const budget: EntityRecord[] = [];
  const types = BUDGET_LINE_TYPES.map(([name, category, type]) => ({ id: r.uuid(), name, category, type }));
  for (let f = 0; f < ctx.count('fi_family'); f++) {
    const owner = ctx.owners[f % ctx.owners.length];
    const last = lastNames.splice(r.int(0, lastNames.length - 1), 1)[0] ?? r.pick(LAST_NAMES);
    const family = { id: r.uuid(), name: `${last} family`, comment: `Household in ${r.pick(VILLAGES)[0]}.`, ...owned(owner) };
    families.push(family);
    const adults = [FIRST_NAMES.filter(([, g]) => g === 'm'), FIRST_NAMES.filter(([, g]) => g === 'f')].map((xs) => ({
      id: r.uuid(),
      name: `${r.pick(xs)[0]} ${last}`,
      birthday: isoDay(addDays(addYears(today, -r.int(25, 50)), -r.int(0, 364))),
      ...owned(owner, false),
    }));
    const children = Array.from({ length: r.int(0, 3) }, () => {
      const born = addDays(addYears(today, -r.int(0, 16)), -r.int(0, 364));
      return { id: r.uuid(), name: `${r.pick(FIRST_NAMES)[0]} ${last}`, birthday: isoDay(born), child_bonus_end: isoDay(addYears(born, 18)), ...owned(owner, false) };
    });
    for (const p of [...adults, ...children]) {
      people.push(p);
      members.push({ id: r.uuid(), familyid: lookup(family.id, 'fi_family'), personid: lookup(p.id, 'fi_osoba') });
    }
    const working: EntityRecord[] = [];
    adults.forEach((p, k) => {
      const type = k === 1 && children.some((c) => String(c.birthday) > isoDay(addYears(today, -3))) ? 4 : r.weighted([[1, 60], [2, 15], [3, 25]] as const);
      if (type === 1 || type === 2) working.push(p);
      employments.push({
        id: r.uuid(),
        name: `${p.name}: ${['', 'employed', 'self-employed', 'unemployed', 'family leave'][type]}`,
        personid: lookup(p.id, 'fi_osoba'),
        type,
        // Family leave ends when the youngest child turns three.
        ...(type === 4 ? { enddate: isoDay(addYears(new Date(String(children.map((c) => c.birthday).sort().reverse()[0])), 3)) } : {}),
        ...owned(owner, false),
      });
    });
    const line = (t: (typeof types)[number], amount: number, person?: EntityRecord) =>
      budget.push({
        id: r.uuid(),
        name: person ? `${t.name}, ${String(person.name)}` : t.name,
        familyid: lookup(family.id, 'fi_family'),
        type: t.type,
        category: t.category,
        amount,
        ...(person ? { personid: lookup(String(person.id), 'fi_osoba') } : {}),
        ...owned(owner),
      });
    const typical = (name: string) => BUDGET_LINE_TYPES.find(([n]) => n === name)![3];
    const typeNamed = (name: string) => types.find((t) => t.name === name)!;
    for (const p of working) line(typeNamed('Salary'), Math.round(typical('Salary') * (0.7 + r.next() * 0.8)), p);
    // No stored child benefit lines: the budget panel computes the child and parental allowances (core/src/budget).
    for (const name of ['Rent', 'Energy', 'Food', 'Transport']) line(typeNamed(name), Math.round(typical(name) * (0.8 + r.next() * 0.4)));
    if (r.next() < 0.4) line(typeNamed('Loan repayment'), Math.round(typical('Loan repayment') * (0.5 + r.next())));
  }
  return [
    { entity: 'fi_budget_line_type', records: types.map((t) => ({ ...t })) },
    { entity: 'fi_family', records: families },
    { entity: 'fi_osoba', records: people },
    { entity: 'fi_family_member', records: members },
    { entity: 'fi_employment', records: employments },
    { entity: 'fi_budget_line', records: budget },
  ];
};

/** Communities and one evaluation of each, this year; the first one also last year. */
const communities = (ctx: Context): DemoEntityRecords[] => {
  const { r, today } = ctx;
  const places = VILLAGES.slice(0, ctx.count('fi_community')).map(([name, district, population], i) => ({
    id: r.uuid(),
    name,
    district,
    population,
    ...owned(ctx.owners[i % ctx.owners.length], false),
  }));
  const score = () => r.int(0, 5);
  const evals = places.map((p, i) => ({
    id: r.uuid(),
    name: `${p.name} ${today.getUTCFullYear()}`,
    communityid: lookup(p.id, 'fi_community'),
    housing_eval: score(), salary_eval: score(), usury_eval: score(), work_avail_eval: score(),
    education_eval: score(), transportation_eval: score(), health_eval: score(), city_eval: score(),
    ...owned(ctx.owners[i % ctx.owners.length], false),
  }));
  // The first community was evaluated last year too, so its chart shows an average of two.
  const first = places[0];
  if (first) {
    evals.push({
      id: r.uuid(),
      name: `${first.name} ${today.getUTCFullYear() - 1}`,
      communityid: lookup(first.id, 'fi_community'),
      housing_eval: score(), salary_eval: score(), usury_eval: score(), work_avail_eval: score(),
      education_eval: score(), transportation_eval: score(), health_eval: score(), city_eval: score(),
      ...owned(ctx.owners[0], false),
    });
  }
  return [
    { entity: 'fi_community', records: places },
    { entity: 'fi_community_eval', records: evals },
  ];
};

/** The entities the demo knows, in the order they are made (what a record refers to is made before it). */
const KNOWN: ReadonlyArray<readonly [string, (ctx: Context) => EntityRecord[] | DemoEntityRecords[]]> = [
  ['product', products],
  ['account', accounts],
  ['contact', contacts],
  ['lead', leads],
  ['opportunity', opportunities],
  ['equipment', equipment],
  ['workorder', workorders],
  ['invoice', (ctx) => {
    const { invoices: inv, lines } = invoices(ctx);
    return [{ entity: 'invoice', records: inv }, { entity: 'invoicedetail', records: lines }];
  }],
  ['route_address', addresses],
  ['route_route', travelReports],
  ['fi_family', familyBudget],
  ['fi_community', communities],
  // Issue 20: the invoice and travel report templates of the Print/Generate command.
  ['report_image', (ctx) => demoReportImages(() => ctx.r.uuid())],
  ['report_template', (ctx) => demoReportTemplates(() => ctx.r.uuid())],
];

/** A record of an entity the demo does not know (a pack added later): a name and plain values, no contradictions to keep. */
const plainRecords = (ctx: Context, e: Entity): EntityRecord[] =>
  Array.from({ length: ctx.count(e.logicalName) }, (_, i) => {
    const rec: EntityRecord = { id: ctx.r.uuid(), name: `${e.displayName} ${i + 1}` };
    for (const p of e.properties) {
      const v = plainValue(ctx, p, i);
      if (v !== undefined) rec[p.logicalName] = v;
    }
    return rec;
  });

const optionValues = (p: Property): number[] =>
  [...(p.richOptions ?? []), ...((p.options ?? []) as Array<{ value?: unknown }>)].map((o) => o.value).filter((v): v is number => typeof v === 'number');

const SYSTEM_SET = new Set(['id', 'name', 'versionnumber', 'createdon', 'createdby', 'modifiedon', 'modifiedby', 'statuscode', 'statecode']);
const plainValue = (ctx: Context, p: Property, i: number): FieldValue | undefined => {
  const { r } = ctx;
  if (SYSTEM_SET.has(p.logicalName) || p.secret || fieldTemplateOf(p) !== undefined) return undefined;
  if (hasFlag(p, 'Image') || hasFlag(p, 'File') || hasFlag(p, 'Json') || hasFlag(p, 'MultiSelect')) return undefined;
  if (hasFlag(p, 'AutoNumber')) return autoNumber(p.logicalName.slice(0, 3).toUpperCase(), i + 1);
  switch (p.type) {
    case 'Lookup': {
      const target = p.targets?.[0] ?? '';
      if (p.logicalName === 'ownerid') return lookup(ctx.owners[i % ctx.owners.length].userId, 'systemuser');
      if (target === 'currency') return lookup(EURO.id, 'currency');
      const made = ctx.made.get(target) ?? [];
      return made.length ? lookup(String(r.pick(made).id), target) : undefined;
    }
    case 'Integer': {
      const values = optionValues(p);
      if (hasFlag(p, 'OptionSet')) return values.length ? r.pick(values) : undefined;
      return r.int(1, 100);
    }
    case 'Money':
    case 'Decimal':
    case 'Float':
      return r.int(1, 1000);
    case 'Boolean':
      return r.next() < 0.3;
    case 'DateTime':
      return hasFlag(p, 'DateOnly') ? isoDay(addDays(ctx.today, -r.int(1, 300))) : atHour(addDays(ctx.today, -r.int(1, 300)), r.int(7, 17)).toISOString();
    case 'String':
      return hasFlag(p, 'Email') ? `user.${i + 1}@example.com` : hasFlag(p, 'Url') ? `https://example.com/${i + 1}` : undefined;
    default:
      return undefined;
  }
};

/**
 * The demo records of the pack's entities, in the order they are to be written, each with its id.
 * `owners` must hold at least one owner; those without `works` (the administrator) own records of
 * both trades.
 */
export const demoRecordSet = (entities: readonly Entity[], owners: readonly DemoOwner[], { seed = 42, now }: DemoOptions): DemoEntityRecords[] => {
  if (owners.length === 0) throw new Error('demo records need at least one owner');
  const names = new Set(entities.map((e) => e.logicalName));
  const trade = (w: DemoWork) => {
    const xs = owners.filter((o) => o.works === undefined || o.works === w);
    return xs.length ? xs : owners;
  };
  const ctx: Context = {
    r: random(seed),
    now,
    today: atHour(now, 0),
    owners,
    sales: trade('sales'),
    service: trade('service'),
    made: new Map(),
    lines: new Map(),
    count: (e) => DEMO_COUNTS[e] ?? DEFAULT_DEMO_COUNT,
  };
  const out: DemoEntityRecords[] = [];
  const add = (entity: string, records: EntityRecord[]) => {
    ctx.made.set(entity, records);
    out.push({ entity, records });
  };
  for (const [entity, make] of KNOWN) {
    if (!names.has(entity)) continue;
    const made = make(ctx);
    if (made.length > 0 && 'entity' in made[0]) for (const x of made as DemoEntityRecords[]) add(x.entity, x.records);
    else add(entity, made as EntityRecord[]);
  }
  // Only the fields the pack declares are kept: a record never names a field its entity lacks.
  const known = new Set(out.map((x) => x.entity));
  for (const e of entities) if (!known.has(e.logicalName) && !isLinkEntity(e)) add(e.logicalName, plainRecords(ctx, e));
  const byName = new Map(entities.map((e) => [e.logicalName, e]));
  return out
    .filter((x) => byName.has(x.entity))
    .map(({ entity, records }) => {
      const fields = new Set(byName.get(entity)!.properties.map((p) => p.logicalName));
      fields.add('id');
      return { entity, records: records.map((rec) => Object.fromEntries(Object.entries(rec).filter(([k]) => fields.has(k)))) };
    });
};

/**
 * Writes the demo records (`tessera demo`) through the store as the system acting for the first
 * owner, entity by entity in one atomic batch each. A lookup to a record not yet written (an
 * account's primary contact) is left out of the create and set by an update once all exist.
 * Returns the count per entity.
 */
export const generateDemoRecords = async (
  store: RecordStore,
  entities: readonly Entity[],
  owners: readonly DemoOwner[],
  options: DemoOptions,
): Promise<Record<string, number>> => {
  const set = demoRecordSet(entities, owners, options);
  const caller = systemCaller(owners[0]?.userId);
  const demoIds = new Set(set.flatMap(({ records }) => records.map((rec) => String(rec.id))));
  const written = new Set<string>();
  const later: WriteItem[] = [];
  const counts: Record<string, number> = {};
  // A line-item parent's total is its lines' sum: the store's rule adds each line as it is written.
  const sums = lineItemParents(entities);
  const run = async (what: string, items: WriteItem[]) => {
    for (let i = 0; i < items.length; i += MAX_BATCH_SIZE) {
      const result = await store.executeMultiple(caller, items.slice(i, i + MAX_BATCH_SIZE), { atomic: true });
      if (isLeft(result)) throw new Error(`${what}: ${result.left.message}`);
      const failed = result.right.find((x) => 'error' in x);
      if (failed && 'error' in failed) throw new Error(`${what}: ${failed.error}`);
    }
  };
  for (const { entity, records } of set) {
    const items = records.map((rec): WriteItem => {
      const object: EntityRecord = {};
      const deferred: EntityRecord = {};
      for (const [k, v] of Object.entries(rec)) {
        const target = k === 'id' ? undefined : lookupId(v);
        if (target !== undefined && demoIds.has(target) && !written.has(target)) deferred[k] = v;
        else object[k] = v;
      }
      if (sums.has(entity)) object[sums.get(entity)!] = 0;
      if (Object.keys(deferred).length > 0) later.push({ operation: 'update', name: entity, object: { id: rec.id, ...deferred } });
      return { operation: 'create', name: entity, object };
    });
    await run(entity, items);
    for (const rec of records) written.add(String(rec.id));
    counts[entity] = records.length;
  }
  if (later.length > 0) await run('references', later);
  // Auto numbers go on from the demo's numbers (where the organization has the system entity).
  const numbering = demoAutoNumbers(entities, set);
  const known = await store.retrieveMultiple(caller, { entity: { name: AUTO_NUMBER_ENTITY, attributes: [{ attribute: 'objectname' }] }, pageSize: 1 });
  if (numbering.length > 0 && !isLeft(known)) {
    await run(AUTO_NUMBER_ENTITY, numbering.map((object): WriteItem => ({ operation: 'create', name: AUTO_NUMBER_ENTITY, object })));
    counts[AUTO_NUMBER_ENTITY] = numbering.length;
  }
  return counts;
};
