import { hasFlag, type Entity, type Property, type PropertyFlag } from '../metadata/entity.js';

/**
 * The survey designer's rules (spec 002 "Surveys": a survey field has a required flag, Normal or
 * Required, and a width, Normal or Wide). A survey template's `meta` is `{ properties, review? }`:
 * each entry is a copy of the target entity's property (so the public page renders it without
 * the organization's metadata) plus the survey's `name`, `required` and `width`, in the survey's
 * order. `review: true` keeps answers in inu_survey_record for staff to save to the target.
 */
export type SurveyRequired = 'Normal' | 'Required';
export type SurveyWidth = 'Normal' | 'Wide';
export type SurveyField = { name: string; required: SurveyRequired; width: SurveyWidth };
export type SurveyDesign = { fields: SurveyField[]; review: boolean };

/** A property in a survey's meta: the property's presentation plus the survey's choices. */
export type SurveyMetaProperty = Pick<Property, 'logicalName' | 'displayName' | 'type'> &
  Partial<Pick<Property, 'flags' | 'max' | 'options' | 'richOptions' | 'precision'>> & { name: string; required: SurveyRequired; width: SurveyWidth };
export type SurveyMeta = { properties: SurveyMetaProperty[]; review?: boolean };

/** Written by the server, never by a visitor. */
const SERVER_WRITTEN = new Set(['createdon', 'createdby', 'modifiedon', 'modifiedby', 'versionnumber', 'statecode', 'statuscode', 'ownerid', 'teamid']);
/** Flags whose values a public form cannot give (files, images, numbers the server draws). */
const NOT_ASKED_FLAGS = ['Image', 'File', 'AutoNumber'] as const;

/**
 * The properties of the target entity a survey may ask for: plain values a visitor can type or
 * pick. Lookups, ids, binaries, version numbers, secrets, server-written and auto-numbered
 * fields are left out (a visitor cannot choose another record nor set who owns it).
 */
export const surveyableProperties = (entity: Entity): Property[] =>
  entity.properties.filter(
    (p) =>
      p.type !== 'Lookup' &&
      p.type !== 'Guid' &&
      p.type !== 'Binary' &&
      p.type !== 'VersionNumber' &&
      p.secret !== true &&
      !SERVER_WRITTEN.has(p.logicalName) &&
      !NOT_ASKED_FLAGS.some((f) => hasFlag(p, f)),
  );

/** A new field: Required when the entity requires it, Normal width. */
export const newSurveyField = (p: Property): SurveyField => ({ name: p.logicalName, required: hasFlag(p, 'Required') ? 'Required' : 'Normal', width: 'Normal' });

const requiredOf = (v: unknown): SurveyRequired | null => (v === true || v === 'Required' ? 'Required' : v === false || v === 'Normal' ? 'Normal' : null);

/**
 * The design of a stored meta (parsed JSON): its fields in order, those the entity can still be
 * asked for; entries as names or objects (`name` or `logicalName`, `required` true/false or
 * Normal/Required, `width`). Unknown, repeated or no longer surveyable fields are dropped.
 */
export const readSurveyDesign = (meta: unknown, entity: Entity | undefined): SurveyDesign => {
  const m = meta && typeof meta === 'object' ? (meta as { properties?: unknown; review?: unknown }) : {};
  const allowed = new Map((entity ? surveyableProperties(entity) : []).map((p) => [p.logicalName, p]));
  const seen = new Set<string>();
  const fields: SurveyField[] = [];
  for (const entry of Array.isArray(m.properties) ? m.properties : []) {
    const o = typeof entry === 'string' ? { name: entry } : entry && typeof entry === 'object' ? (entry as Record<string, unknown>) : null;
    const name = o ? (typeof o.logicalName === 'string' ? o.logicalName : typeof o.name === 'string' ? o.name : null) : null;
    const p = name ? allowed.get(name) : undefined;
    if (!o || !name || !p || seen.has(name)) continue;
    seen.add(name);
    fields.push({ name, required: requiredOf(o.required) ?? newSurveyField(p).required, width: o.width === 'Wide' ? 'Wide' : 'Normal' });
  }
  return { fields, review: m.review === true };
};

/** The meta a design is stored as: each field's property copied from the entity, in the design's order. */
export const surveyMeta = (design: SurveyDesign, entity: Entity): SurveyMeta => {
  const byName = new Map(surveyableProperties(entity).map((p) => [p.logicalName, p]));
  const properties = design.fields.flatMap((f): SurveyMetaProperty[] => {
    const p = byName.get(f.name);
    if (!p) return [];
    const { logicalName, displayName, type, flags, max, options, richOptions, precision } = p;
    // The survey's Required replaces the entity's flag on the page (the form override of spec 001 section 5).
    const shown: PropertyFlag[] = (flags ?? []).filter((x) => x !== 'Required');
    if (f.required === 'Required') shown.push('Required');
    return [
      {
        name: f.name,
        logicalName,
        displayName,
        type,
        ...(shown.length ? { flags: shown } : {}),
        ...(max !== undefined ? { max } : {}),
        ...(options !== undefined ? { options } : {}),
        ...(richOptions !== undefined ? { richOptions } : {}),
        ...(precision !== undefined ? { precision } : {}),
        required: f.required,
        width: f.width,
      },
    ];
  });
  return design.review ? { properties, review: true } : { properties };
};

/** The field at `from` moved to `to` (both clamped); the others keep their order. */
export const moveSurveyField = <F>(fields: readonly F[], from: number, to: number): F[] => {
  const out = [...fields];
  if (from < 0 || from >= out.length) return out;
  const target = Math.max(0, Math.min(out.length - 1, to));
  const [moved] = out.splice(from, 1);
  out.splice(target, 0, moved as F);
  return out;
};

/** A survey key: a template's `key`, or the id of one inu_survey_record. */
export const SURVEY_KEY = /^[A-Za-z0-9_-]{8,100}$/;

/** The public page of a key: /ansu/{orgname}/{key} (spec 000 section 2). */
export const surveyPath = (orgName: string, key: string): string => `/ansu/${encodeURIComponent(orgName)}/${encodeURIComponent(key)}`;

/** Whether a survey is past its expiry (`expireson` ISO text; none never expires). */
export const surveyExpired = (expiresOn: unknown, now: Date): boolean => typeof expiresOn === 'string' && expiresOn !== '' && Date.parse(expiresOn) <= now.getTime();
