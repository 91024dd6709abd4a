import { batch, computed, signal } from '@preact/signals-react';
import {
  moveSurveyField,
  newSurveyField,
  readSurveyDesign,
  surveyableProperties,
  surveyExpired,
  surveyMeta,
  surveyPath,
  type Entity,
  type EntityRecord,
  type FieldValue,
  type SurveyDesign,
  type SurveyRequired,
  type SurveyWidth,
} from '../core.js';

/** How long a link published without an expiry stays open (the designer's default; the date can be changed). */
export const DEFAULT_SURVEY_DAYS = 30;

export type SurveyDesignDeps = {
  entityOf: (name: string) => Entity | undefined;
  /** The template's field writes: they save with the record (the form's Save). */
  setValue: (field: string, v: FieldValue) => void;
  newKey: () => string;
  now: () => Date;
};

const parsed = (v: unknown): unknown => {
  if (typeof v !== 'string' || v === '') return null;
  try {
    return JSON.parse(v);
  } catch {
    return null;
  }
};

/**
 * The survey designer's state (issue 20): the target entity, the survey's fields in order with
 * their Normal/Required and Normal/Wide choices, and the key link. Every change writes the
 * template's `meta` (and `panel`) through the form, so the designer saves with the record.
 */
export const surveyDesignModel = (deps: SurveyDesignDeps) => {
  const entityName = signal('');
  const design = signal<SurveyDesign>({ fields: [], review: true });
  const entity = computed(() => (entityName.value ? deps.entityOf(entityName.value) : undefined));
  const available = computed(() => {
    const e = entity.value;
    if (!e) return [];
    const used = new Set(design.value.fields.map((f) => f.name));
    return surveyableProperties(e).filter((p) => !used.has(p.logicalName));
  });
  const propertyOf = (name: string) => entity.value?.properties.find((p) => p.logicalName === name);

  const write = (next: SurveyDesign): void => {
    design.value = next;
    const e = entity.value;
    if (!e) return;
    deps.setValue('meta', JSON.stringify(surveyMeta(next, e)));
    deps.setValue('panel', JSON.stringify({ name: 'survey', type: 'Fields', fields: next.fields.map((f) => f.name) }));
  };

  /** Reads the template (on open, and when another target is chosen elsewhere). A template without meta is reviewed by default. */
  const load = (record: EntityRecord): void => {
    const meta = parsed(record.meta);
    // Spec 002 section 8: an invalid survey field panel is logged; the designer starts empty.
    if (typeof record.meta === 'string' && record.meta !== '' && meta === null) console.error('Invalid survey field panel', record.meta);
    batch(() => {
      entityName.value = typeof record.object_name === 'string' ? record.object_name : '';
      const read = readSurveyDesign(meta, entity.value);
      design.value = meta ? read : { ...read, review: true };
    });
  };

  const edit = (name: string, change: (f: SurveyDesign['fields'][number]) => SurveyDesign['fields'][number]) =>
    write({ ...design.value, fields: design.value.fields.map((f) => (f.name === name ? change(f) : f)) });

  return {
    entityName,
    entity,
    design,
    available,
    propertyOf,
    load,
    /** Another target entity: the fields of the old one no longer apply. */
    setTarget(name: string): void {
      if (name === entityName.value) return;
      batch(() => {
        entityName.value = name;
        deps.setValue('object_name', name || null);
        const e = entity.value;
        write({ fields: e ? surveyableProperties(e).filter((p) => (p.flags ?? []).includes('Required')).map(newSurveyField) : [], review: design.value.review });
      });
    },
    add(name: string): void {
      const p = available.value.find((x) => x.logicalName === name);
      if (p) write({ ...design.value, fields: [...design.value.fields, newSurveyField(p)] });
    },
    remove(name: string): void {
      write({ ...design.value, fields: design.value.fields.filter((f) => f.name !== name) });
    },
    setRequired(name: string, required: SurveyRequired): void {
      edit(name, (f) => ({ ...f, required }));
    },
    setWidth(name: string, width: SurveyWidth): void {
      edit(name, (f) => ({ ...f, width }));
    },
    /** Order by drag, or by keyboard (Alt+Arrow keys, the move buttons). */
    move(from: number, to: number): void {
      if (from === to) return;
      write({ ...design.value, fields: moveSurveyField(design.value.fields, from, to) });
    },
    setReview(review: boolean): void {
      write({ ...design.value, review });
    },
    /** Publish: a key (kept if there is one) and an expiry (DEFAULT_SURVEY_DAYS from now unless set). */
    publish(record: EntityRecord): void {
      batch(() => {
        if (typeof record.key !== 'string' || record.key === '') deps.setValue('key', deps.newKey());
        if (typeof record.expireson !== 'string' || record.expireson === '' || surveyExpired(record.expireson, deps.now()))
          deps.setValue('expireson', new Date(deps.now().getTime() + DEFAULT_SURVEY_DAYS * 86_400_000).toISOString());
      });
    },
    /** A new key: the old link stops working. */
    newKey(): void {
      deps.setValue('key', deps.newKey());
    },
    /** The public address of the template's key link, or null before it has a key. */
    link(record: EntityRecord, orgName: string, origin: string): string | null {
      return typeof record.key === 'string' && record.key !== '' && orgName ? `${origin}${surveyPath(orgName, record.key)}` : null;
    },
    expired(record: EntityRecord): boolean {
      return surveyExpired(record.expireson, deps.now());
    },
  };
};
export type SurveyDesignModel = ReturnType<typeof surveyDesignModel>;

/** A key of 16 letters and digits from the browser's random source (SURVEY_KEY accepts 8 to 100). */
export const randomSurveyKey = (): string => {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
};
