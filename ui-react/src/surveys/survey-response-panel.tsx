import { useEffect, useMemo } from 'react';
import { Link } from 'react-router';
import { useSignals } from '@preact/signals-react/runtime';
import type { Entity, EntityRecord } from '../core.js';
import { useApi } from '../api/context.js';
import { useT } from '../i18n.js';
import type { CustomPanelProps } from '../form/custom-panels.js';
import { FieldRow } from '../form/field-row.js';
import type { PanelContext } from '../form/panel-context.js';
import { useWidth } from '../form/use-width.js';
import { objectChangedEvent } from '../state/realtime.js';
import { session } from '../state/session.js';
import { Icon } from '../ui/icons.js';
import { toast } from '../ui/toast.js';
import { surveyResponseModel } from './survey-response-model.js';

/** Below this width the answers take one column (the Fields panel's default minimum). */
const ONE_COLUMN_BELOW = 480;

/**
 * The answers' field names inside the form: prefixed, so their editors' ids and labels differ
 * from the survey record's own fields (both may have a `name`).
 */
const ANSWER = 'answer_';
const asAnswers = (entity: Entity): Entity => ({ ...entity, properties: entity.properties.map((p) => ({ ...p, logicalName: ANSWER + p.logicalName })) });
const prefixed = (r: EntityRecord): EntityRecord => Object.fromEntries(Object.entries(r).map(([k, v]) => [ANSWER + k, v]));

/**
 * The survey response panel (customComponent `surveyresponse`, on inu_survey_record; issue 20):
 * the answers shown with the target entity's editors in the survey's order, editable; they save
 * with the record (its body), and 'Save to target' creates or updates the target record and
 * marks the answers Processed (spec 001 "Survey record").
 */
export const SurveyResponsePanel = ({ panel, ctx }: CustomPanelProps) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const model = useMemo(() => surveyResponseModel({ api, entityOf: (n) => session.value?.entities[n] }), [api]);
  const [ref, width] = useWidth<HTMLElement>();
  const record = ctx.record;

  useEffect(() => void model.load(record), [model, record.id, record.templateid, record.versionnumber]);
  useEffect(
    () =>
      ctx.participate({
        beforeSave: async () => {
          const patch = model.patch();
          return patch ? { patch } : {};
        },
        afterSave: async () => model.saved(),
        dirty: model.dirty,
      }),
    [model, ctx.participate],
  );

  const entity = model.entity.value;
  const state = model.state.value;
  const targetId = model.savedTarget.value ?? (typeof record.targetid === 'string' && record.targetid ? record.targetid : null);
  const appParam = ctx.appParam;

  const save = async () => {
    if (!ctx.recordId) return;
    const target = await model.saveToTarget(ctx.recordId);
    if (!target) return;
    toast(t('SurveySavedToTarget'));
    // The record changed on the server (status, targetid, version): the form takes it now, as on a realtime change.
    window.dispatchEvent(new CustomEvent(objectChangedEvent(ctx.entity.logicalName), { detail: { id: ctx.recordId } }));
  };

  let body: React.ReactNode;
  if (state === 'loading' || state === 'idle') body = <p className="muted">{t('MsgLoading')}</p>;
  else if (state === 'error') body = <p className="error-text" role="alert">{model.error.value}</p>;
  else if (!model.template.value) body = <p className="muted">{t('SurveyNoTemplate')}</p>;
  else if (!entity) body = <p className="error-text">{t('MsgCheckConfiguration')}</p>;
  else {
    // The answers render with the form's own field rows, over the answers instead of the record.
    const answersCtx: PanelContext = {
      ...ctx,
      entity: asAnswers(entity),
      record: prefixed(model.answers.value),
      missing: new Set([...model.missing.value].map((f) => ANSWER + f)),
      review: undefined,
      setValue: (field, v) => model.setAnswer(field.slice(ANSWER.length), v),
    };
    body = (
      <>
        {model.fields.value.length === 0 ? (
          <p className="muted">{t('SurveyNoFields')}</p>
        ) : (
          <div className="field-grid" style={{ gridTemplateColumns: width > 0 && width < ONE_COLUMN_BELOW ? '1fr' : 'repeat(2, minmax(0, 1fr))' }}>
            {model.fields.value.map((f) => (
              <FieldRow key={f.name} f={{ ...f, name: ANSWER + f.name, ...(width > 0 && width < ONE_COLUMN_BELOW ? { gridColumn: undefined } : {}) }} ctx={answersCtx} />
            ))}
          </div>
        )}
        {model.error.value && (
          <p className="error-text survey-response-error" role="alert">
            {model.error.value}
          </p>
        )}
        <div className="survey-response-actions">
          <button type="button" className="btn btn-primary" disabled={ctx.readOnly || !ctx.recordId || model.saving.value || model.fields.value.length === 0} onClick={() => void save()}>
            <Icon name="save" size={16} /> {model.saving.value ? t('MsgSaving') : t('SurveySaveToTarget')}
          </button>
          {!ctx.recordId && <span className="hint">{t('SurveySaveRecordFirst')}</span>}
          {targetId && (
            <Link className="btn btn-plain" to={`/${appParam}/edit/${entity.logicalName}/${targetId}`}>
              <Icon name="external" size={16} /> {t('SurveyOpenTarget', { entity: entity.displayName ?? entity.logicalName })}
            </Link>
          )}
        </div>
      </>
    );
  }

  return (
    <section ref={ref} className="panel survey-response" aria-label={panel.label}>
      {panel.label && <h2 className="panel-title">{panel.label}</h2>}
      {(model.savedTarget.value || model.processed(record)) && (
        <p className="notice success survey-processed" role="status">
          <Icon name="check" size={16} /> {t('SurveyProcessed')}
        </p>
      )}
      {body}
    </section>
  );
};

export default SurveyResponsePanel;
