import { useEffect, useMemo, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import type { EntityRecord } from '../core.js';
import { useT } from '../i18n.js';
import { fromLocalInput, toLocalInput } from '../form/editors.js';
import type { CustomPanelProps } from '../form/custom-panels.js';
import { toSurvey, SurveyForm } from '../public/survey.js';
import { session } from '../state/session.js';
import { Icon } from '../ui/icons.js';
import { toast } from '../ui/toast.js';
import { randomSurveyKey, surveyDesignModel, type SurveyDesignModel } from './survey-design-model.js';

/** Entities a survey may write to: the organization's own records, not the product's configuration. */
const targetEntities = () =>
  Object.values(session.value?.entities ?? {})
    .filter((e) => e.type !== 'many' && !e.logicalName.startsWith('inu_') && !['audit', 'systemuser', 'team', 'report_template', 'hr_doc_template', 'currency'].includes(e.logicalName))
    .sort((a, b) => (a.displayName ?? a.logicalName).localeCompare(b.displayName ?? b.logicalName));

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The survey's fields in order: Required and Wide choices, drag or Alt+Arrow keys to order, remove. */
const FieldList = ({ model, readOnly }: { model: SurveyDesignModel; readOnly: boolean }) => {
  useSignals();
  const t = useT();
  const [dragged, setDragged] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const fields = model.design.value.fields;
  const moveAndFocus = (from: number, to: number) => {
    model.move(from, to);
    // Keep the keyboard on the moved field.
    requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-survey-field="${fields[from]?.name}"]`)?.focus());
  };
  if (fields.length === 0) return <p className="muted survey-design-empty">{t('SurveyNoFields')}</p>;
  return (
    <ol className="survey-design-fields" aria-label={t('SurveyFields')}>
      {fields.map((f, i) => {
        const p = model.propertyOf(f.name);
        const label = p?.displayName ?? f.name;
        return (
          <li
            key={f.name}
            className={`survey-design-field ${over === i && dragged !== null && dragged !== i ? 'drop-target' : ''} ${dragged === i ? 'dragging' : ''}`}
            data-survey-field={f.name}
            tabIndex={0}
            draggable={!readOnly}
            aria-label={`${label}, ${i + 1} / ${fields.length}`}
            aria-describedby="survey-order-hint"
            onDragStart={(e) => {
              setDragged(i);
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', f.name);
            }}
            onDragOver={(e) => {
              if (dragged === null) return;
              e.preventDefault();
              setOver(i);
            }}
            onDragLeave={() => setOver((o) => (o === i ? null : o))}
            onDrop={(e) => {
              e.preventDefault();
              if (dragged !== null) model.move(dragged, i);
              setDragged(null);
              setOver(null);
            }}
            onDragEnd={() => {
              setDragged(null);
              setOver(null);
            }}
            onKeyDown={(e) => {
              if (readOnly || !e.altKey || e.target !== e.currentTarget) return;
              if (e.key === 'ArrowUp' && i > 0) {
                e.preventDefault();
                moveAndFocus(i, i - 1);
              } else if (e.key === 'ArrowDown' && i < fields.length - 1) {
                e.preventDefault();
                moveAndFocus(i, i + 1);
              }
            }}
          >
            <span className="survey-drag" aria-hidden="true">
              ⋮⋮
            </span>
            <span className="survey-design-label">{label}</span>
            <label className="survey-choice">
              <span className="sr-only">{t('SurveyRequired', { field: label })}</span>
              <select value={f.required} disabled={readOnly} onChange={(e) => model.setRequired(f.name, e.target.value as 'Normal' | 'Required')}>
                <option value="Normal">{t('SurveyOptionalField')}</option>
                <option value="Required">{t('SurveyRequiredField')}</option>
              </select>
            </label>
            <label className="survey-choice">
              <span className="sr-only">{t('SurveyWidth', { field: label })}</span>
              <select value={f.width} disabled={readOnly} onChange={(e) => model.setWidth(f.name, e.target.value as 'Normal' | 'Wide')}>
                <option value="Normal">{t('SurveyNormalWidth')}</option>
                <option value="Wide">{t('SurveyWideWidth')}</option>
              </select>
            </label>
            <span className="survey-design-actions">
              <button type="button" className="btn btn-plain btn-icon" disabled={readOnly || i === 0} onClick={() => model.move(i, i - 1)} aria-label={t('SurveyMoveUp', { field: label })} title={t('SurveyMoveUp', { field: label })}>
                <Icon name="chevronDown" size={16} className="flip" />
              </button>
              <button type="button" className="btn btn-plain btn-icon" disabled={readOnly || i === fields.length - 1} onClick={() => model.move(i, i + 1)} aria-label={t('SurveyMoveDown', { field: label })} title={t('SurveyMoveDown', { field: label })}>
                <Icon name="chevronDown" size={16} />
              </button>
              <button type="button" className="btn btn-plain btn-icon" disabled={readOnly} onClick={() => model.remove(f.name)} aria-label={t('SurveyRemoveField', { field: label })} title={t('SurveyRemoveField', { field: label })}>
                <Icon name="close" size={16} />
              </button>
            </span>
          </li>
        );
      })}
    </ol>
  );
};

/** The key link: publish (a key and an expiry), the address to copy, the expiry, a new key. */
const LinkBox = ({ model, record, readOnly, setValue }: { model: SurveyDesignModel; record: EntityRecord; readOnly: boolean; setValue: (f: string, v: string | null) => void }) => {
  const t = useT();
  const link = model.link(record, session.value?.context.orgName ?? '', window.location.origin);
  const expired = model.expired(record);
  const copy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link);
      toast(t('SurveyLinkCopied'));
    } catch {
      // No clipboard (plain http, denied): select the address for Ctrl+C.
      const input = document.getElementById('survey-link') as HTMLInputElement | null;
      input?.select();
      toast(t('SurveyCopyByHand'), 'info');
    }
  };
  return (
    <div className="survey-link-box">
      <div className="field">
        <label htmlFor="survey-expires">{t('SurveyExpiresOn')}</label>
        <input id="survey-expires" type="datetime-local" disabled={readOnly} value={text(record.expireson) ? toLocalInput(text(record.expireson)) : ''} onChange={(e) => setValue('expireson', fromLocalInput(e.target.value))} />
      </div>
      {link ? (
        <div className="field survey-link-field">
          <label htmlFor="survey-link">
            {t('SurveyLink')} {expired && <span className="badge survey-expired-badge">{t('SurveyLinkExpired')}</span>}
          </label>
          <div className="survey-link-row">
            <input id="survey-link" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
            <button type="button" className="btn btn-outline" onClick={() => void copy()}>
              <Icon name="copy" size={16} /> {t('SurveyCopyLink')}
            </button>
            <a className="btn btn-plain" href={link} target="_blank" rel="noopener noreferrer" aria-label={t('SurveyOpenLink')} title={t('SurveyOpenLink')}>
              <Icon name="external" size={16} />
            </a>
          </div>
          <div className="survey-link-actions">
            <button type="button" className="btn btn-plain" disabled={readOnly} onClick={() => model.newKey()}>
              <Icon name="refresh" size={16} /> {t('SurveyNewKey')}
            </button>
          </div>
        </div>
      ) : null}
      {(!link || expired) && (
        <button type="button" className="btn btn-primary" disabled={readOnly || model.design.value.fields.length === 0} onClick={() => model.publish(record)}>
          <Icon name="link" size={16} /> {t('SurveyPublish')}
        </button>
      )}
      <p className="hint">{t('SurveyPublishHint')}</p>
    </div>
  );
};

/**
 * The survey designer panel (customComponent `surveydesign`, on inu_survey_template; issue 20):
 * the target entity, the survey's fields from its properties, title, submit button text and CSS,
 * a preview rendered by the public page's own form, and the key link with its expiry. Everything
 * is a field of the template, so it saves with the record.
 */
export const SurveyDesignPanel = ({ panel, ctx }: CustomPanelProps) => {
  useSignals();
  const t = useT();
  const model = useMemo(() => surveyDesignModel({ entityOf: (n) => session.value?.entities[n], setValue: ctx.setValue, newKey: randomSurveyKey, now: () => new Date() }), []);
  const record = ctx.record;
  const readOnly = ctx.readOnly;
  // Read the template when it opens and when its target changes outside the designer.
  useEffect(() => {
    if (text(record.object_name) !== model.entityName.value || model.design.value.fields.length === 0) model.load(record);
  }, [ctx.recordId, record.object_name, record.meta === undefined]);
  const [toAdd, setToAdd] = useState('');
  const targets = useMemo(targetEntities, [session.value]);
  const preview = toSurvey({ title: record.title ?? record.name ?? '', submit_button: record.submit_button, css_style: record.css_style, meta: record.meta });
  const css = text(record.css_style);
  const available = model.available.value;

  return (
    <section className="panel survey-designer" aria-label={panel.label}>
      {panel.label && <h2 className="panel-title">{panel.label}</h2>}
      <div className="survey-designer-grid">
        <div className="survey-designer-edit stack">
          <div className="field-grid survey-texts">
            <div className="field">
              <label htmlFor="survey-target">{t('SurveyTarget')}</label>
              <select id="survey-target" value={model.entityName.value} disabled={readOnly} onChange={(e) => model.setTarget(e.target.value)}>
                <option value="">{t('LblNone')}</option>
                {targets.map((e) => (
                  <option key={e.logicalName} value={e.logicalName}>
                    {e.displayName ?? e.logicalName}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="survey-title">{t('SurveyTitle')}</label>
              <input id="survey-title" disabled={readOnly} maxLength={200} value={text(record.title)} onChange={(e) => ctx.setValue('title', e.target.value || null)} />
            </div>
            <div className="field">
              <label htmlFor="survey-submit">{t('SurveySubmitText')}</label>
              <input id="survey-submit" disabled={readOnly} maxLength={100} placeholder={t('CmdSubmit')} value={text(record.submit_button)} onChange={(e) => ctx.setValue('submit_button', e.target.value || null)} />
            </div>
            <label className="field field-check survey-review">
              <input type="checkbox" disabled={readOnly} checked={model.design.value.review} onChange={(e) => model.setReview(e.target.checked)} />
              <span>{t('SurveyReview')}</span>
            </label>
          </div>

          <h3 className="survey-subtitle">{t('SurveyFields')}</h3>
          {!model.entity.value ? (
            <p className="muted">{t('SurveyChooseTarget')}</p>
          ) : (
            <>
              <p className="hint" id="survey-order-hint">
                {t('SurveyOrderHint')}
              </p>
              <FieldList model={model} readOnly={readOnly} />
              {available.length > 0 && (
                <div className="survey-add">
                  <label className="sr-only" htmlFor="survey-add-field">
                    {t('SurveyAddField')}
                  </label>
                  <select id="survey-add-field" value={toAdd} disabled={readOnly} onChange={(e) => setToAdd(e.target.value)}>
                    <option value="">{t('SurveyAddField')}</option>
                    {available.map((p) => (
                      <option key={p.logicalName} value={p.logicalName}>
                        {p.displayName}
                      </option>
                    ))}
                  </select>
                  <button
                    type="button"
                    className="btn btn-outline"
                    disabled={readOnly || !toAdd}
                    onClick={() => {
                      model.add(toAdd);
                      setToAdd('');
                    }}
                  >
                    <Icon name="plus" size={16} /> {t('SurveyAdd')}
                  </button>
                </div>
              )}
            </>
          )}

          <div className="field">
            <label htmlFor="survey-css">{t('SurveyCss')}</label>
            <textarea id="survey-css" className="mono" rows={4} disabled={readOnly} maxLength={10000} spellCheck={false} value={css} onChange={(e) => ctx.setValue('css_style', e.target.value || null)} />
          </div>

          <h3 className="survey-subtitle">{t('SurveyPublishTitle')}</h3>
          <LinkBox model={model} record={record} readOnly={readOnly} setValue={ctx.setValue} />
        </div>

        <div className="survey-preview-frame" aria-label={t('SurveyPreview')} role="region">
          <h3 className="survey-subtitle">{t('SurveyPreview')}</h3>
          <div className="public-card wide survey-preview">
            {/* The survey's CSS applies to the preview only (the public page applies it to its whole page). */}
            {css && <style>{`@scope (.survey-preview) {\n${css}\n}`}</style>}
            {preview.title && <h1 className="public-title">{preview.title}</h1>}
            <SurveyForm survey={preview} onSubmit={(e) => e.preventDefault()} />
          </div>
        </div>
      </div>
    </section>
  );
};

export default SurveyDesignPanel;
