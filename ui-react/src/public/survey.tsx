import { useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import type { Property, PropertyType } from '@tessera/core/internal';
import { useApi } from '../api/context.js';
import { useT, type T } from '../i18n.js';
import { Icon } from '../ui/icons.js';
import { PublicLayout } from './public-layout.js';

/** A survey as the page renders it: the template's texts and its fields as properties (with the survey's `width`). */
export type Survey = { title: string; submit_button?: string; css_style?: string; properties: Property[] };

const parseJson = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return undefined;
  }
};

/** A survey field as the template writes it: a name, or a property (with `required` true or 'Required'). */
const toProperty = (p: unknown): Property[] => {
  if (typeof p === 'string') return [{ logicalName: p, displayName: p, type: 'String' }];
  if (!p || typeof p !== 'object') return [];
  const o = p as Partial<Property> & { name?: string; label?: string; required?: unknown };
  const logicalName = o.logicalName ?? o.name;
  if (!logicalName) return [];
  const flags = [...(o.flags ?? [])];
  if ((o.required === true || o.required === 'Required') && !flags.includes('Required')) flags.push('Required');
  return [{ ...o, logicalName, displayName: o.displayName ?? o.label ?? logicalName, type: o.type ?? 'String', flags } as Property];
};

export const toSurvey = (body: unknown): Survey => {
  const b = (body ?? {}) as Record<string, unknown>;
  const meta = parseJson(b.meta) as { properties?: unknown[] } | undefined;
  // Spec 002 section 8: an invalid survey field panel is logged (the page shows no fields).
  if (b.meta != null && b.meta !== '' && !Array.isArray(meta?.properties)) console.error('Invalid survey field panel', b.meta);
  return {
    title: String(b.title ?? ''),
    submit_button: typeof b.submit_button === 'string' ? b.submit_button : undefined,
    css_style: typeof b.css_style === 'string' ? b.css_style : undefined,
    properties: Array.isArray(meta?.properties) ? meta.properties.flatMap(toProperty) : [],
  };
};

/** The outcome texts of spec 000 section 8: completed, expired, invalid link, anything else with the raw text. */
export const surveyOutcome = (text: string, t: T): { text: string; kind: 'done' | 'sorry' } => {
  if (text.includes('SurveyCompleted')) return { text: t('SurveyCompleted'), kind: 'done' };
  if (text.includes('SurveyExpired')) return { text: t('SurveyExpired'), kind: 'sorry' };
  if (text.includes('SurveyLinkInvalid')) return { text: t('SurveyLinkInvalid'), kind: 'sorry' };
  return { text: `${t('SurveyError')} ${text}`.trim(), kind: 'sorry' };
};

const flag = (p: Property, f: string) => (p.flags ?? []).includes(f as never);

/** The form control of each property type on a survey (a new type is a compile error until it has one). */
const SURVEY_CONTROLS = {
  String: 'text',
  Integer: 'integer',
  Decimal: 'number',
  Float: 'number',
  Money: 'number',
  DateTime: 'date',
  Guid: 'text',
  Lookup: 'text',
  Boolean: 'checkbox',
  Binary: 'text',
  VersionNumber: 'text',
} satisfies Record<PropertyType, 'text' | 'integer' | 'number' | 'date' | 'checkbox'>;
const controlOf = (p: Property) => SURVEY_CONTROLS[p.type];
const isNumberControl = (p: Property): boolean => controlOf(p) === 'integer' || controlOf(p) === 'number';

const SurveyInput = ({ p }: { p: Property }) => {
  const t = useT();
  const id = `sv-${p.logicalName}`;
  const required = flag(p, 'Required');
  const options = p.richOptions ?? ((p.options ?? []) as Array<{ value: number; label: string }>).filter((o) => 'label' in o);
  let input: React.ReactNode;
  if (controlOf(p) === 'checkbox') input = <input id={id} name={p.logicalName} type="checkbox" />;
  else if (options.length > 0)
    input = (
      <select id={id} name={p.logicalName} required={required} defaultValue="">
        <option value="">{t('LblNone')}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    );
  else if (flag(p, 'MultiLine')) input = <textarea id={id} name={p.logicalName} required={required} maxLength={p.max} rows={4} />;
  else {
    const type = controlOf(p) === 'date' ? (flag(p, 'DateOnly') ? 'date' : 'datetime-local') : isNumberControl(p) ? 'number' : flag(p, 'Email') ? 'email' : flag(p, 'Url') ? 'url' : flag(p, 'Phone') ? 'tel' : 'text';
    input = <input id={id} name={p.logicalName} type={type} required={required} maxLength={p.max} step={controlOf(p) === 'integer' ? 1 : 'any'} />;
  }
  const wide = (p as { width?: unknown }).width === 'Wide';
  return (
    <div className={`field ${controlOf(p) === 'checkbox' ? 'field-check' : ''} ${wide ? 'survey-field-wide' : ''}`}>
      <label htmlFor={id}>
        {p.displayName}
        {required && (
          <span className="required" title={t('MsgRequired')} aria-label={t('MsgRequired')}>
            *
          </span>
        )}
      </label>
      {input}
    </div>
  );
};

/**
 * The survey's form: its fields (Normal width in two columns, Wide across; one column on a
 * narrow screen) and the submit button. The public page and the designer's preview render it.
 */
export const SurveyForm = ({
  survey,
  onSubmit,
  busy = false,
  formRef,
}: {
  survey: Survey;
  onSubmit: (e: React.FormEvent<HTMLFormElement>) => void;
  busy?: boolean;
  formRef?: React.Ref<HTMLFormElement>;
}) => {
  const t = useT();
  return (
    <form ref={formRef} onSubmit={onSubmit} className="stack" noValidate>
      <div className="survey-fields">
        {survey.properties.map((p) => (
          <SurveyInput key={p.logicalName} p={p} />
        ))}
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {survey.submit_button || t('CmdSubmit')}
      </button>
    </form>
  );
};

/** /ansu/{orgname}/{key}: the public survey (spec 000 sections 2, 5, 8). */
export const SurveyPage = () => {
  const t = useT();
  const api = useApi();
  const { org = '', key = '' } = useParams();
  const [survey, setSurvey] = useState<Survey | null>(null);
  const [outcome, setOutcome] = useState<{ text: string; kind: 'done' | 'sorry' } | null>(null);
  const [validation, setValidation] = useState('');
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    api
      .getSurvey(org, key)
      .then((res) => (res.ok ? setSurvey(toSurvey(res.body)) : setOutcome(surveyOutcome(res.text, t))))
      .catch(() => setOutcome({ text: t('MsgNetworkError'), kind: 'sorry' }));
  }, [org, key]);

  const submit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    // The browser's form check runs first; its message is shown above the form.
    const invalid = [...form.elements].find((el) => el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement ? !el.checkValidity() : false) as
      | HTMLInputElement
      | undefined;
    if (invalid) {
      const label = form.querySelector(`label[for="${invalid.id}"]`)?.firstChild?.textContent ?? '';
      setValidation(`${label}: ${invalid.validationMessage}`);
      invalid.focus();
      return;
    }
    setValidation('');
    const answers: Record<string, unknown> = {};
    for (const p of survey?.properties ?? []) {
      const el = form.elements.namedItem(p.logicalName) as HTMLInputElement | null;
      if (!el) continue;
      if (controlOf(p) === 'checkbox') answers[p.logicalName] = el.checked;
      else if (el.value === '') continue;
      else if (isNumberControl(p) || (p.options ?? []).length > 0 || (p.richOptions ?? []).length > 0) answers[p.logicalName] = Number(el.value);
      else answers[p.logicalName] = el.value;
    }
    setBusy(true);
    try {
      const res = await api.submitSurvey(org, key, answers);
      setOutcome(res.ok && !/^ERR|Survey(Expired|LinkInvalid)/.test(res.text) ? { text: t('SurveyCompleted'), kind: 'done' } : surveyOutcome(res.text, t));
    } catch {
      setOutcome({ text: t('MsgNetworkError'), kind: 'sorry' });
    }
    setBusy(false);
  };

  if (outcome)
    return (
      <PublicLayout>
        <div className={`outcome outcome-${outcome.kind}`} role="status">
          {outcome.kind === 'done' && <Icon name="heart" size={40} className="heart" />}
          <p>{outcome.text}</p>
        </div>
      </PublicLayout>
    );
  if (!survey)
    return (
      <PublicLayout>
        <div className="spinner" aria-label={t('MsgLoading')} />
      </PublicLayout>
    );
  return (
    <PublicLayout title={survey.title} wide>
      {survey.css_style && <style>{survey.css_style}</style>}
      {validation && (
        <p className="error-text survey-validation" role="alert">
          {validation}
        </p>
      )}
      <SurveyForm survey={survey} formRef={formRef} onSubmit={submit} busy={busy} />
    </PublicLayout>
  );
};
