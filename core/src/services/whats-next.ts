import { isLeft, right, type Either } from 'fp-ts/lib/Either.js';
import { errorText, type DomainError } from '../errors.js';
import { checkTimeZone } from '../dates/zoned.js';
import { isLinkEntity, type Entity, type EntityRecord, type FieldValue } from '../metadata/entity.js';
import { FIELD_TYPES } from '../metadata/field-types.js';
import { mayAccessSome } from '../permissions/access.js';
import type { Caller } from '../permissions/types.js';
import type { Clock } from '../ports/clock.js';
import { isSystemCaller, systemCaller, type RecordStore } from '../ports/record-store.js';
import type { ScriptHost, ScriptJson, ScriptSandbox } from '../ports/script-sandbox.js';
import { FetchRequestBody } from '../api/records.js';
import { decode } from '../decode.js';
import { MAX_NESTING_DEPTH, nestsDeeperThan } from '../nesting-depth.js';
import { scriptSource } from '../scripts/script-names.js';
import { refineByScript, ruleScriptInput, RULE_SCRIPT_TIME_MS, type RuleScriptRecord } from '../whatsnext/rule-script.js';
import type { Condition, ConditionValue, FetchRequest } from '../query/query.js';
import { STATE_ACTIVE } from '../metadata/system-fields.js';
import {
  categoriesOf,
  combineFollowUps,
  isDue,
  NEXT_RULE_ENTITY,
  nextRuleOf,
  type FollowUp,
  type NextRule,
  type RuleThresholds,
} from '../whatsnext/next-rule.js';
import { ACTIVITY_ENTITY } from '../activity/feed.js';
import { dueReminderFollowUps } from '../activity/due-reminders.js';
import { ruleAgeThreshold, WHATS_NEXT_PAGE_SIZE, whatsNextReferenceDate, type WhatsNextScheduled } from '../whatsnext/reference-date.js';

/**
 * What's Next (spec 002 sections 2 and 4; docs/whats-next.md): the active rules of inu_nextrule
 * evaluated into the follow-up list of one user. Rules are configuration and are read as the
 * system; the records they list are read as the caller (a user sees only what they may read);
 * the newest related record of each candidate comes from one aggregate query per chunk of
 * candidates (max of createdon grouped by the related field), never a query per record.
 */

export type WhatsNextDeps = {
  store: RecordStore;
  clock: Clock;
  entities: readonly Entity[];
  /** Runs the rules' scripts (docs/whats-next.md "Scripts"); without it a rule with a script lists as if it had none. */
  scripts?: ScriptSandbox;
  /** Told of each script that failed or is missing (the host logs it); the answer's notes say it too. */
  reportScriptError?: (message: string) => void;
};

export type WhatsNextFilters = {
  scheduled: WhatsNextScheduled;
  /** The owner whose follow-ups are listed; null: every owner the caller may read. */
  owner: string | null;
  /** One entity type; null: all. */
  category: string | null;
  /** From 1. */
  page: number;
  /** The IANA zone of the user's days (tomorrow's midnight, whole days back). */
  timeZone: string;
};

export type WhatsNextList = {
  records: FollowUp[];
  /** Listed records of the chosen category in all pages. */
  count: number;
  page: number;
  pageSize: number;
  moreRecords: boolean;
  /** The entity types present before the category filter: the category filter's choices. */
  categories: string[];
  /** The entity of the first rule that allows creation and that the caller may create: the New command's target. */
  createEntity: string | null;
  /** The reference instant the ages were measured from (ISO). */
  reference: string;
  /** Rules that could not be evaluated, and why (the screen logs them). */
  notes: string[];
};

/** Active rules read at most (a rule set is configuration: a handful, not thousands). */
export const WHATS_NEXT_MAX_RULES = 200;
/** Candidates read per query, and so ids per related aggregate (the query's in-list limit). */
export const WHATS_NEXT_CHUNK = 1000;
/** Candidates checked per rule, newest first; beyond, a note says the rule was cut. */
export const WHATS_NEXT_MAX_CANDIDATES = 10_000;

const DEFAULT_OWNER_FIELD = 'ownerid';
/** A record without an ownerid belongs to who created it. */
const FALLBACK_OWNER_FIELD = 'createdby';

const idOf = (v: FieldValue | undefined): string | null =>
  typeof v === 'string' ? v.toLowerCase() : v && typeof v === 'object' && typeof v.id === 'string' ? v.id.toLowerCase() : null;
const textOf = (v: FieldValue | undefined): string | null => (typeof v === 'string' ? v : null);

/** A statusvalues text as a condition value of the status field's type, or null when it is not one. */
const statusValueOf = (compared: string, v: string): string | number | boolean | null => {
  if (compared === 'number') return Number.isFinite(Number(v)) ? Number(v) : null;
  if (compared === 'boolean') return v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : null;
  return v;
};

type Evaluation = { items: FollowUp[]; notes: string[]; records?: RuleScriptRecord[] };

/** One rule's follow-ups for the filters: the listed records of its entity, each decided by isDue. */
const evaluateRule = async (deps: WhatsNextDeps, caller: Caller, rule: NextRule, f: WhatsNextFilters, reference: Date): Promise<Evaluation> => {
  const entityOf = (name: string) => deps.entities.find((e) => e.logicalName === name);
  const entity = entityOf(rule.objectName);
  const note = (why: string): Evaluation => ({ items: [], notes: [`Rule ${rule.name}: ${why}`] });
  if (!entity) return note(`No Object:${rule.objectName}`);
  if (isLinkEntity(entity)) return note(`${rule.objectName} is a link entity`);
  // Records the caller may not read at all: nothing to list, and nothing to tell.
  if (!isSystemCaller(caller) && !mayAccessSome(caller, 'read', rule.objectName)) return { items: [], notes: [] };
  const has = (e: Entity, field: string) => e.properties.find((p) => p.logicalName === field);

  const thresholds: RuleThresholds = {
    related: rule.related && rule.relatedMaxAge !== null ? ruleAgeThreshold(reference, rule.relatedMaxAge, f.timeZone) : null,
    nullRelated: rule.nullRelatedMaxAge !== null ? ruleAgeThreshold(reference, rule.nullRelatedMaxAge, f.timeZone) : null,
  };
  if (thresholds.related === null && thresholds.nullRelated === null) return { items: [], notes: [] };

  const conditions: Condition[] = [];
  if (rule.statusValues.length > 0) {
    const status = has(entity, rule.statusField);
    if (!status) return note(`Field not found:${rule.objectName}.${rule.statusField}`);
    const compared = FIELD_TYPES[status.type].compared;
    const values = rule.statusValues.map((v) => statusValueOf(compared, v));
    if (values.some((v) => v === null)) return note(`statusvalues "${rule.statusValues.join(';')}" do not fit ${rule.objectName}.${rule.statusField}`);
    conditions.push({ attribute: rule.statusField, operator: 'in', value: values as ConditionValue });
  }
  if (f.owner !== null) {
    const ownerField = has(entity, DEFAULT_OWNER_FIELD) ? DEFAULT_OWNER_FIELD : FALLBACK_OWNER_FIELD;
    if (has(entity, ownerField)) conditions.push({ attribute: ownerField, operator: 'eq', value: f.owner });
  }

  let related: { entity: Entity; field: string; sameObject: boolean } | null = null;
  if (rule.related) {
    const re = entityOf(rule.related.entity);
    if (!re) return note(`No Object:${rule.related.entity}`);
    const field = has(re, rule.related.field);
    if (!field) return note(`Field not found:${rule.related.entity}.${rule.related.field}`);
    // A Guid beside an objectname (activity.objectid, document.objectid) points at records of any entity.
    related = { entity: re, field: field.logicalName, sameObject: field.type === 'Guid' && has(re, 'objectname') !== undefined };
  } else if (thresholds.nullRelated !== null) {
    // Without related records every record "has none": the age condition goes into the query.
    conditions.push({ attribute: 'createdon', operator: 'lt', value: thresholds.nullRelated.toISOString() });
  }

  const items: FollowUp[] = [];
  const records: RuleScriptRecord[] = [];
  const notes: string[] = [];
  // A rule with a script gives it the status it read (the script may sort on it).
  const statusRead = rule.script !== null && rule.statusValues.length > 0 ? rule.statusField : null;
  const pages = WHATS_NEXT_MAX_CANDIDATES / WHATS_NEXT_CHUNK;
  for (let page = 1; page <= pages; page++) {
    const request: FetchRequest = {
      entity: {
        name: rule.objectName,
        attributes: [{ attribute: 'id' }, { attribute: 'name' }, { attribute: 'createdon' }, ...(statusRead ? [{ attribute: statusRead }] : [])],
        ...(conditions.length > 0 ? { filter: { type: 'and', conditions } } : {}),
        orders: [{ attribute: 'createdon', descending: true }],
      },
      page,
      pageSize: WHATS_NEXT_CHUNK,
    };
    const found = await deps.store.retrieveMultiple(caller, request);
    if (isLeft(found)) return found.left.code === 'ERR_PERMISSION' ? { items: [], notes: [] } : note(errorText(found.left));
    const candidates = found.right.records as EntityRecord[];
    const newest = related ? await newestRelated(deps.store, related, rule.objectName, candidates) : right(new Map<string, string>());
    if (isLeft(newest)) return note(errorText(newest.left));
    for (const c of candidates) {
      const id = String(c.id);
      const createdon = textOf(c.createdon);
      if (!isDue(thresholds, createdon, newest.right.get(id.toLowerCase()) ?? null)) continue;
      items.push({ id, objectName: rule.objectName, name: textOf(c.name), createdon, info: rule.info, rule: rule.id });
      if (rule.script !== null) {
        const last = newest.right.get(id.toLowerCase()) ?? null;
        records.push({ id, name: textOf(c.name), createdon, ...(statusRead ? { [statusRead]: (c[statusRead] ?? null) as ScriptJson } : {}), ...(related ? { lastrelated: last } : {}) });
      }
    }
    if (!found.right.moreRecords) break;
    if (page === pages) notes.push(`Rule ${rule.name}: only the newest ${WHATS_NEXT_MAX_CANDIDATES} records were checked`);
  }
  return { items, notes, records };
};

/** A rule script's API: `fetch` as the caller; What's Next only reads, so writes are refused. */
const readOnlyHost = (store: RecordStore, caller: Caller): ScriptHost => {
  const refused = async () => ({ error: "ERR_PERMISSION: a What's Next script may only read (fetch)" });
  return {
    fetch: async (arg) => {
      if (nestsDeeperThan(arg, MAX_NESTING_DEPTH)) return { error: `ERR_INPUT: nested deeper than ${MAX_NESTING_DEPTH}` };
      const q = decode(FetchRequestBody, arg);
      if (isLeft(q)) return { error: errorText(q.left) };
      const r = await store.retrieveMultiple(caller, q.right);
      return isLeft(r) ? { error: errorText(r.left) } : { value: r.right as unknown as ScriptJson };
    },
    update: refused,
    executeMultiple: refused,
  };
};

/** The scripts (inu_view kind script) the rules name, read once per call as the system: configuration, like the rules. */
const loadRuleScripts = async (store: RecordStore, entities: readonly Entity[], rules: readonly NextRule[]): Promise<Either<DomainError, Map<string, string>>> => {
  const out = new Map<string, string>();
  const named = rules.some((r) => r.script !== null);
  if (!named || !entities.some((e) => e.logicalName === 'inu_view')) return right(out);
  const r = await store.retrieveMultiple(systemCaller(), {
    entity: {
      name: 'inu_view',
      attributes: [{ attribute: 'name' }, { attribute: 'kind' }, { attribute: 'body' }],
      filter: { conditions: [{ attribute: 'kind', operator: 'eq', value: 'script' }] },
      orders: [{ attribute: 'name' }],
    },
    pageSize: 5000,
  });
  if (isLeft(r)) return r;
  const gui = (r.right.records as EntityRecord[]).map((v) => ({ kind: 'script' as const, name: String(v.name ?? ''), body: typeof v.body === 'string' ? v.body : '' }));
  for (const rule of rules) {
    if (rule.script === null) continue;
    const source = scriptSource(gui, rule.script);
    if (source !== undefined) out.set(rule.script.toLowerCase(), source);
  }
  return right(out);
};

/**
 * A rule's rows refined by its script (docs/whats-next.md "Scripts"). A script that is missing,
 * fails (syntax, throw, time limit) or answers something else leaves the rule's rows as they
 * were: What's Next never breaks for a script; the failure is a note and is reported.
 */
const refineRule = async (deps: WhatsNextDeps, caller: Caller, rule: NextRule, e: Evaluation, sources: Map<string, string>): Promise<Evaluation> => {
  if (rule.script === null || !deps.scripts || e.records === undefined) return e;
  const failed = (message: string): Evaluation => {
    deps.reportScriptError?.(`Rule ${rule.name}: ${message}`);
    return { items: e.items, notes: [...e.notes, `Rule ${rule.name}: ${message}`] };
  };
  const source = sources.get(rule.script.toLowerCase());
  if (source === undefined) return failed(`No Object:${rule.script}`);
  const outcome = await deps.scripts.run({
    name: rule.script,
    source,
    input: ruleScriptInput(rule, e.records),
    host: readOnlyHost(deps.store, caller),
    limits: { timeMs: RULE_SCRIPT_TIME_MS },
  });
  if (outcome._tag === 'ScriptFailed') return failed(outcome.message);
  const refined = refineByScript(rule, e.items, outcome.value);
  if (isLeft(refined)) return failed(`Script ${rule.script}: ${refined.left}`);
  // A proposed record opens a new form: only for users who may create the rule's entity.
  const creates = isSystemCaller(caller) || mayAccessSome(caller, 'create', rule.objectName);
  const items = creates ? refined.right.items : refined.right.items.filter((f) => f.id !== '0');
  return { items, notes: [...e.notes, ...refined.right.notes] };
};

/**
 * The newest related record per candidate: one aggregate query (max createdon grouped by the
 * related field) over the candidates' ids, read as the system: a follow-up by a colleague counts
 * even where the caller may not read it (only its date is used, nothing of it is shown).
 */
const newestRelated = async (
  store: RecordStore,
  related: { entity: Entity; field: string; sameObject: boolean },
  objectName: string,
  candidates: readonly EntityRecord[],
): Promise<Either<DomainError, Map<string, string>>> => {
  const out = new Map<string, string>();
  if (candidates.length === 0) return right(out);
  const conditions: Condition[] = [{ attribute: related.field, operator: 'in', value: candidates.map((c) => String(c.id)) }];
  if (related.sameObject) conditions.push({ attribute: 'objectname', operator: 'eq', value: objectName });
  const r = await store.retrieveMultiple(systemCaller(), {
    entity: {
      name: related.entity.logicalName,
      attributes: [
        { attribute: related.field, groupBy: true, alias: 'ref' },
        { attribute: 'createdon', aggregate: 'max', alias: 'newest' },
      ],
      filter: { type: 'and', conditions },
    },
    page: 1,
    pageSize: candidates.length,
  });
  if (isLeft(r)) return r;
  for (const row of r.right.records as EntityRecord[]) {
    const id = idOf(row.ref);
    const newest = textOf(row.newest);
    if (id !== null && newest !== null) out.set(id, newest);
  }
  return right(out);
};

/** The active rules in rule order (name, then id), and the problems of those that cannot be read. */
const activeRules = async (deps: WhatsNextDeps): Promise<Either<DomainError, { rules: NextRule[]; notes: string[] }>> => {
  if (!deps.entities.some((e) => e.logicalName === NEXT_RULE_ENTITY)) return right({ rules: [], notes: [] });
  const r = await deps.store.retrieveMultiple(systemCaller(), {
    entity: {
      name: NEXT_RULE_ENTITY,
      allattrs: true,
      filter: { type: 'and', conditions: [{ attribute: 'statecode', operator: 'eq', value: STATE_ACTIVE }] },
      orders: [{ attribute: 'name' }, { attribute: 'id' }],
    },
    page: 1,
    pageSize: WHATS_NEXT_MAX_RULES,
  });
  if (isLeft(r)) return r;
  const rules: NextRule[] = [];
  const notes: string[] = [];
  for (const rec of r.right.records as EntityRecord[]) {
    const rule = nextRuleOf(rec);
    if (isLeft(rule)) notes.push(rule.left);
    else rules.push(rule.right);
  }
  if (r.right.moreRecords) notes.push(`Only the first ${WHATS_NEXT_MAX_RULES} rules were evaluated`);
  return right({ rules, notes });
};

/** POST /api/whatsnext: one page of the caller's follow-up list. */
export const whatsNext = async (deps: WhatsNextDeps, caller: Caller, f: WhatsNextFilters): Promise<Either<DomainError, WhatsNextList>> => {
  const tz = checkTimeZone(f.timeZone);
  if (isLeft(tz)) return tz;
  const loaded = await activeRules(deps);
  if (isLeft(loaded)) return loaded;
  const { rules } = loaded.right;
  const reference = whatsNextReferenceDate(f.scheduled, deps.clock.now(), f.timeZone);
  const perRule: FollowUp[][] = [];
  const notes = [...loaded.right.notes];
  const sources = deps.scripts ? await loadRuleScripts(deps.store, deps.entities, rules) : right(new Map<string, string>());
  if (isLeft(sources)) return sources;
  // Issue 18: the caller's reminders due (activity.scheduledstart) list first, so a record with a reminder shows its text.
  if (deps.entities.some((e) => e.logicalName === ACTIVITY_ENTITY)) {
    const due = await dueReminderFollowUps(deps.store, caller, f.owner, reference);
    if (!isLeft(due)) perRule.push(due.right);
    else if (due.left.code !== 'ERR_PERMISSION') notes.push(`Reminders: ${errorText(due.left)}`);
  }
  for (const rule of rules) {
    const e = await refineRule(deps, caller, rule, await evaluateRule(deps, caller, rule, f, reference), sources.right);
    perRule.push(e.items);
    notes.push(...e.notes);
  }
  const all = combineFollowUps(perRule);
  const shown = f.category === null ? all : all.filter((x) => x.objectName === f.category);
  const start = (f.page - 1) * WHATS_NEXT_PAGE_SIZE;
  const known = (name: string) => deps.entities.some((e) => e.logicalName === name);
  const creatable = rules.find((r) => r.canCreate && known(r.objectName) && (isSystemCaller(caller) || mayAccessSome(caller, 'create', r.objectName)));
  return right({
    records: shown.slice(start, start + WHATS_NEXT_PAGE_SIZE),
    count: shown.length,
    page: f.page,
    pageSize: WHATS_NEXT_PAGE_SIZE,
    moreRecords: shown.length > start + WHATS_NEXT_PAGE_SIZE,
    categories: categoriesOf(all),
    createEntity: creatable?.objectName ?? null,
    reference: reference.toISOString(),
    notes,
  });
};

/** The filters' defaults (spec 002 section 4): scheduled today, the caller's own records, every category, page 1. */
export const defaultWhatsNextFilters = (caller: Caller, timeZone = 'UTC'): WhatsNextFilters => ({
  scheduled: 'today',
  owner: caller.userId,
  category: null,
  page: 1,
  timeZone,
});
