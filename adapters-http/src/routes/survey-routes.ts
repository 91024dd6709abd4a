import { Router, type Response } from 'express';
import { isLeft } from 'fp-ts/lib/Either.js';
import { normalizeOrganizationName, systemCaller, type EntityRecord, type LookupValue, type OrganizationDirectory, type RecordStore } from '@tessera/core/internal';
import { sendDomainError, sendText } from '../http-errors.js';
import type { TenantRegistry as Tenants } from '@tessera/core/internal';

export const SURVEY_TEMPLATE = 'inu_survey_template';
export const SURVEY_RECORD = 'inu_survey_record';
/** inu_survey_record.status once the answers were written to the target (spec 002 section 3: Processed). */
export const SURVEY_PROCESSED = 1;

/** The outcomes the survey page shows (spec 000 section 8). */
export const SurveyOutcome = { completed: 'SurveyCompleted', expired: 'SurveyExpired', invalid: 'SurveyLinkInvalid' } as const;

const KEY = /^[A-Za-z0-9_-]{8,100}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Survey = { template: EntityRecord; record: EntityRecord | null; store: RecordStore };

const json = (text: unknown): unknown => {
  if (typeof text !== 'string' || text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** The fields a survey asks for: `meta.properties`, as names or `{ name | logicalName, required }`. */
const surveyFields = (meta: unknown): Array<{ name: string; required: boolean }> => {
  const props = meta && typeof meta === 'object' ? (meta as { properties?: unknown }).properties : undefined;
  if (!Array.isArray(props)) return [];
  return props.flatMap((p) => {
    if (typeof p === 'string') return [{ name: p, required: false }];
    if (p && typeof p === 'object') {
      const o = p as { name?: unknown; logicalName?: unknown; required?: unknown };
      const name = typeof o.logicalName === 'string' ? o.logicalName : typeof o.name === 'string' ? o.name : null;
      return name ? [{ name, required: o.required === true || o.required === 'Required' }] : [];
    }
    return [];
  });
};

const one = async (store: RecordStore, entity: string, attribute: string, value: string): Promise<EntityRecord | null> => {
  const found = await store.retrieveMultiple(systemCaller(), {
    entity: { name: entity, allattrs: true, filter: { conditions: [{ attribute, operator: 'eq', value }] } },
    pageSize: 1,
  });
  return isLeft(found) ? null : ((found.right.records[0] as EntityRecord | undefined) ?? null);
};

/**
 * GET and POST /api/survey/{org}/{key}: public, no session. The key is a survey template's `key`
 * (an open survey: each answer makes a new record) or the id of one inu_survey_record (a
 * personal survey: answered once). Answers go only to the template's entity, only to the fields
 * its meta lists.
 */
export const surveyRoutes = (deps: { tenants: Tenants; directory: OrganizationDirectory }): Router => {
  const r = Router();

  const find = async (orgRaw: string, key: string): Promise<Survey | typeof SurveyOutcome.invalid> => {
    const org = normalizeOrganizationName(orgRaw);
    if (!org || !KEY.test(key) || (await deps.directory.status(org)) !== 'ready') return SurveyOutcome.invalid;
    const { store } = await deps.tenants.open(org);
    const template = await one(store, SURVEY_TEMPLATE, 'key', key);
    if (template) return { template, record: null, store };
    if (!UUID.test(key)) return SurveyOutcome.invalid;
    const record = await one(store, SURVEY_RECORD, 'id', key);
    const templateId = record ? ((record.templateid as LookupValue | null)?.id ?? null) : null;
    const linked = templateId ? await one(store, SURVEY_TEMPLATE, 'id', templateId) : null;
    return record && linked ? { template: linked, record, store } : SurveyOutcome.invalid;
  };

  const outcome = (s: Survey): string | null => {
    if (s.record && Number(s.record.status) === SURVEY_PROCESSED) return SurveyOutcome.completed;
    const expires = s.template.expireson;
    if (typeof expires === 'string' && Date.parse(expires) <= Date.now()) return SurveyOutcome.expired;
    return null;
  };

  const refuse = (res: Response, text: string): void => sendText(res, text === SurveyOutcome.invalid ? 404 : 410, text);

  r.get('/survey/:org/:key', async (req, res) => {
    const s = await find(req.params.org, req.params.key);
    if (typeof s === 'string') return refuse(res, s);
    const done = outcome(s);
    if (done) return refuse(res, done);
    const t = s.template;
    res.json({
      title: t.title ?? t.name ?? '',
      submit_button: t.submit_button ?? null,
      css_style: t.css_style ?? null,
      object_name: t.object_name ?? null,
      meta: json(t.meta),
      panel: json(t.panel),
      answers: s.record ? json(s.record.body) : null,
    });
  });

  r.post('/survey/:org/:key', async (req, res) => {
    const s = await find(req.params.org, req.params.key);
    if (typeof s === 'string') return refuse(res, s);
    const done = outcome(s);
    if (done) return refuse(res, done);
    const entity = String(s.template.object_name ?? '');
    const fields = surveyFields(json(s.template.meta));
    const answers = (req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {}) as Record<string, unknown>;
    const allowed = new Set(fields.map((f) => f.name));
    const stray = Object.keys(answers).filter((k) => !allowed.has(k));
    if (!entity || stray.length > 0) return sendText(res, 400, `ERR_INPUT: Field not found:${entity}.${stray[0] ?? ''}`);
    const missing = fields.find((f) => f.required && (answers[f.name] === undefined || answers[f.name] === null || answers[f.name] === ''));
    if (missing) return sendText(res, 400, `ERR_INPUT: ${missing.name} is required`);
    const sys = systemCaller();
    const target = s.record && typeof s.record.targetid === 'string' && s.record.targetid ? s.record.targetid : null;
    const written = target
      ? await s.store.update(sys, entity, { id: target, ...(answers as EntityRecord) })
      : await s.store.create(sys, entity, answers as EntityRecord);
    if (isLeft(written)) return sendDomainError(res, written.left);
    const body = JSON.stringify(answers);
    const saved = s.record
      ? await s.store.update(sys, SURVEY_RECORD, { id: String(s.record.id), targetid: written.right, body, status: SURVEY_PROCESSED })
      : await s.store.create(sys, SURVEY_RECORD, {
          name: String(s.template.name ?? 'survey'),
          templateid: { id: String(s.template.id), name: SURVEY_TEMPLATE },
          targetid: written.right,
          body,
          status: SURVEY_PROCESSED,
        });
    if (isLeft(saved)) return sendDomainError(res, saved.left);
    sendText(res, 200, SurveyOutcome.completed);
  });

  return r;
};
