import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { EntityRecord } from '../metadata/entity.js';

/** The entity of the follow-up rules (spec 002 section 8 "What's Next rule"). */
export const NEXT_RULE_ENTITY = 'inu_nextrule';
/** The status field a rule reads when it names none. */
export const DEFAULT_STATUS_FIELD = 'statuscode';

/**
 * One follow-up rule of inu_nextrule, read once from its record (docs/whats-next.md):
 * records of `objectName` whose `statusField` is one of `statusValues` are listed when their
 * newest `related` record is older than `relatedMaxAge` days, or, having none, they are older
 * than `nullRelatedMaxAge` days. An age that is not set lists nothing by its clause.
 */
export type NextRule = {
  readonly id: string;
  readonly name: string;
  readonly objectName: string;
  /** `entity.field` of a child pointing at the record (a lookup, or a Guid beside an objectname). */
  readonly related: { readonly entity: string; readonly field: string } | null;
  readonly relatedMaxAge: number | null;
  readonly nullRelatedMaxAge: number | null;
  readonly statusField: string;
  /** The semicolon-separated statusvalues as texts; empty: any status. */
  readonly statusValues: readonly string[];
  /** The name of a script refining the rule's rows (whatsnext/rule-script.ts; docs/whats-next.md "Scripts"). */
  readonly script: string | null;
  readonly canCreate: boolean;
  /** The rule's description: the info text of the Action column ('Help' without one). */
  readonly info: string | null;
};

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const days = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? Math.max(0, Math.floor(v)) : null);

/** `entity.field`, or why it is not one. */
export const parseRelated = (v: string): Either<string, { entity: string; field: string }> => {
  const m = /^\s*([A-Za-z_][\w]*)\.([A-Za-z_][\w]*)\s*$/.exec(v);
  return m ? right({ entity: m[1], field: m[2] }) : left(`related "${v}" is not entity.field`);
};

/** The statusvalues text as its values: split on semicolons, trimmed, empty parts dropped. */
export const parseStatusValues = (v: string | null): string[] =>
  (v ?? '')
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** A rule from its inu_nextrule record, or the problem that makes it unusable (named after the rule). */
export const nextRuleOf = (r: EntityRecord): Either<string, NextRule> => {
  const id = String(r.id ?? '');
  const name = text(r.name) ?? text(r.label) ?? id;
  const objectName = text(r.objectname);
  if (!objectName) return left(`Rule ${name}: no objectname`);
  const relatedText = text(r.related);
  let related: NextRule['related'] = null;
  if (relatedText) {
    const parsed = parseRelated(relatedText);
    if (parsed._tag === 'Left') return left(`Rule ${name}: ${parsed.left}`);
    related = parsed.right;
  }
  return right({
    id,
    name,
    objectName,
    related,
    relatedMaxAge: days(r.relatedmaxage),
    nullRelatedMaxAge: days(r.nullrelatedmaxage),
    statusField: text(r.statusfield) ?? DEFAULT_STATUS_FIELD,
    statusValues: parseStatusValues(text(r.statusvalues)),
    script: text(r.script),
    canCreate: r.can_create === true,
    info: text(r.description),
  });
};

/** The instants a rule's ages reach back to from the reference: older (strictly earlier) is listed. */
export type RuleThresholds = { readonly related: Date | null; readonly nullRelated: Date | null };

/**
 * The decision of spec 002 section 4 for one record: with related records, its newest one
 * (`newestRelated`, the max of their createdon) must be older than the related threshold; with
 * none, the record itself (`createdon`) older than the no-related threshold. "Older" is strictly
 * earlier: a record exactly N days old is not yet listed. An unset age never lists.
 */
export const isDue = (thresholds: RuleThresholds, createdon: string | null, newestRelated: string | null): boolean => {
  if (newestRelated !== null) return thresholds.related !== null && Date.parse(newestRelated) < thresholds.related.getTime();
  return thresholds.nullRelated !== null && createdon !== null && Date.parse(createdon) < thresholds.nullRelated.getTime();
};

/** One listed record: which rule listed it and what the table shows. */
export type FollowUp = {
  readonly id: string;
  readonly objectName: string;
  readonly name: string | null;
  readonly createdon: string | null;
  readonly info: string | null;
  readonly rule: string;
  /** A virtual record (id "0"): the initial values its form opens with (rules with scripts make them). */
  readonly init?: Record<string, unknown>;
};

const instantOf = (f: FollowUp): number => (f.createdon === null ? -Infinity : Date.parse(f.createdon));
/** The order of two follow-ups with their instants read once (a sort of thousands compares each many times). */
const compareKeyed = (a: { f: FollowUp; at: number }, b: { f: FollowUp; at: number }): number => {
  if (a.at !== b.at) return b.at > a.at ? 1 : -1;
  if (a.f.objectName !== b.f.objectName) return a.f.objectName < b.f.objectName ? -1 : 1;
  return a.f.id < b.f.id ? -1 : a.f.id > b.f.id ? 1 : 0;
};

/** Newest first (createdon descending; a record without one last), then by entity and id for a stable page. */
export const compareFollowUps = (a: FollowUp, b: FollowUp): number => compareKeyed({ f: a, at: instantOf(a) }, { f: b, at: instantOf(b) });

/**
 * How rules combine (docs/whats-next.md): the union of what each rule lists, a record once (the
 * first rule in rule order that lists it gives its info text), newest first. A virtual record
 * (id "0") is never merged with another.
 */
export const combineFollowUps = (perRule: ReadonlyArray<readonly FollowUp[]>): FollowUp[] => {
  const seen = new Set<string>();
  const out: FollowUp[] = [];
  for (const list of perRule)
    for (const f of list) {
      const key = `${f.objectName}/${f.id.toLowerCase()}`;
      if (f.id !== '0') {
        if (seen.has(key)) continue;
        seen.add(key);
      }
      out.push(f);
    }
  return out
    .map((f) => ({ f, at: instantOf(f) }))
    .sort(compareKeyed)
    .map((x) => x.f);
};

/** The entity types present in the follow-ups, in name order: the category filter's choices. */
export const categoriesOf = (items: readonly FollowUp[]): string[] => [...new Set(items.map((f) => f.objectName))].sort();
