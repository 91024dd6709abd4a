import { batch, computed, signal } from '@preact/signals-react';
import { isLeft } from 'fp-ts/lib/Either.js';
import {
  changedFields,
  checkRequired,
  readSurveyDesign,
  SURVEY_PROCESSED,
  SURVEY_TEMPLATE,
  type Entity,
  type EntityRecord,
  type FieldValue,
  type FormField,
  type LookupValue,
} from '../core.js';
import type { ApiClient } from '../api/client.js';

export type SurveyResponseApi = Pick<ApiClient, 'fetch' | 'saveSurveyToTarget'>;
export type SurveyResponseState = 'idle' | 'loading' | 'ready' | 'error';

const parsed = (v: unknown): EntityRecord => {
  if (typeof v !== 'string' || v === '') return {};
  try {
    const o: unknown = JSON.parse(v);
    return o && typeof o === 'object' && !Array.isArray(o) ? (o as EntityRecord) : {};
  } catch {
    return {};
  }
};

/**
 * The survey response panel's state (issue 20): the answers of one inu_survey_record shown with
 * the target entity's editors in the survey's order, edited, saved with the record (its `body`,
 * through the form's Save) or saved to the target (POST /api/surveytarget: the target record is
 * created or updated, the survey record gets status Processed and its targetid).
 */
export const surveyResponseModel = (deps: { api: SurveyResponseApi; entityOf: (name: string) => Entity | undefined }) => {
  const state = signal<SurveyResponseState>('idle');
  const error = signal('');
  const template = signal<EntityRecord | null>(null);
  const answers = signal<EntityRecord>({});
  /** The answers as stored (the record's body): what `dirty` compares with. */
  const stored = signal<EntityRecord>({});
  const missing = signal<ReadonlySet<string>>(new Set());
  const saving = signal(false);
  /** The target written by the last 'save to target' of this panel. */
  const savedTarget = signal<string | null>(null);
  let loadedFor: string | null = null;

  const entity = computed(() => {
    const name = template.value?.object_name;
    return typeof name === 'string' ? deps.entityOf(name) : undefined;
  });
  /** The survey's fields as a Fields panel lists them, with the survey's Required. */
  const fields = computed<FormField[]>(() => {
    const t = template.value;
    if (!t) return [];
    let meta: unknown = null;
    try {
      meta = typeof t.meta === 'string' ? JSON.parse(t.meta) : null;
    } catch {
      meta = null;
    }
    const design = readSurveyDesign(meta, entity.value);
    return design.fields.map((f) => ({ name: f.name, required: f.required === 'Required', ...(f.width === 'Wide' ? { gridColumn: '1 / -1' } : {}) }));
  });
  const dirty = computed(() => changedFields(stored.value, answers.value).length > 0);

  return {
    state,
    error,
    template,
    entity,
    fields,
    answers,
    missing,
    saving,
    savedTarget,
    dirty,
    /** Reads the record's template and answers (again when another record or template is shown). */
    async load(record: EntityRecord): Promise<void> {
      const templateId = (record.templateid as LookupValue | null | undefined)?.id ?? null;
      const key = `${String(record.id ?? '')}|${templateId ?? ''}|${String(record.versionnumber ?? '')}`;
      if (key === loadedFor) return;
      loadedFor = key;
      batch(() => {
        answers.value = parsed(record.body);
        stored.value = answers.value;
        missing.value = new Set();
        error.value = '';
      });
      if (!templateId) {
        batch(() => {
          template.value = null;
          state.value = 'ready';
        });
        return;
      }
      if (template.value?.id === templateId) return;
      state.value = 'loading';
      try {
        const found = await deps.api.fetch({
          entity: { name: SURVEY_TEMPLATE, allattrs: true, filter: { type: 'and', conditions: [{ attribute: 'id', operator: 'eq', value: templateId }] } },
          page: 1,
          pageSize: 1,
        });
        batch(() => {
          template.value = (found.records[0] as EntityRecord | undefined) ?? null;
          state.value = 'ready';
        });
      } catch (e) {
        batch(() => {
          error.value = e instanceof Error ? e.message : String(e);
          state.value = 'error';
        });
      }
    },
    setAnswer(field: string, v: FieldValue): void {
      const next = { ...answers.value };
      if (v === null || v === undefined || v === '') delete next[field];
      else next[field] = v;
      answers.value = next;
      if (missing.value.has(field)) missing.value = new Set([...missing.value].filter((f) => f !== field));
    },
    /** What the form's Save sends with the record: the edited answers as its body. */
    patch(): EntityRecord | undefined {
      return dirty.value ? { body: JSON.stringify(answers.value) } : undefined;
    },
    /** After the record saved: the answers sent are the stored ones. */
    saved(): void {
      stored.value = answers.value;
    },
    /**
     * 'Save to target': the survey's required fields first (the core's rule, marked like the
     * form marks them), then the server writes the target and marks the record Processed.
     * Answers the target's id, or null when nothing was written (error and missing tell why).
     */
    async saveToTarget(recordId: string): Promise<string | null> {
      const e = entity.value;
      if (!e) return null;
      const complete = checkRequired(
        e.properties.filter((p) => fields.value.some((f) => f.name === p.logicalName)),
        answers.value,
        fields.value,
      );
      if (isLeft(complete)) {
        missing.value = new Set(complete.left.fields);
        return null;
      }
      batch(() => {
        saving.value = true;
        error.value = '';
      });
      try {
        const target = await deps.api.saveSurveyToTarget(recordId, answers.value);
        batch(() => {
          stored.value = answers.value;
          savedTarget.value = target;
        });
        return target;
      } catch (err) {
        error.value = err instanceof Error ? err.message : String(err);
        return null;
      } finally {
        saving.value = false;
      }
    },
    processed: (record: EntityRecord): boolean => Number(record.status) === SURVEY_PROCESSED,
  };
};
export type SurveyResponseModel = ReturnType<typeof surveyResponseModel>;
