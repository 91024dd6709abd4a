import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import type { Entity, MessageKey, Property, PropertyType } from '../core.js';
import { canEditMetadata, hasFlag } from '../core.js';
import { useApi } from '../api/context.js';
import { useT, type T } from '../i18n.js';
import { caller, refreshSession } from '../state/session.js';
import { toast } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import {
  ADDABLE_TYPES,
  facetsOf,
  FLAGS,
  metadataEditorModel,
  optionLinesOf,
  previewOptions,
  retyped,
  toggledFlag,
  withOptionLines,
  type DestructiveStep,
  type EntityState,
  type MetadataEditorModel,
} from './metadata-editor-model.js';

const STATE_LABEL: Record<Exclude<EntityState, 'same'>, MessageKey> = { new: 'MetaStateNew', changed: 'MetaStateChanged', removed: 'MetaStateRemoved' };

/** What a step that can lose data takes away, with its rows (the plan's counts). */
const lossText = (t: T, d: DestructiveStep): string =>
  d.kind === 'dropTable'
    ? t('MetaLossTable', { table: d.table, n: d.rows })
    : d.kind === 'alterStringLength'
      ? t('MetaLossLength', { table: d.table, column: d.column ?? '', n: d.rows })
      : t('MetaLossColumn', { table: d.table, column: d.column ?? '', n: d.rows });

/**
 * /{appid}/customizemetadata (issue 15, docs/schema.md "Metadata editor"): the entities on the
 * left, the chosen one's fields on the right (editors from the field-type registry), "Review
 * changes" shows the migration plan and its SQL, and a step that deletes data is applied only
 * once it is confirmed. State and calls live in the model.
 */
export const MetadataEditorPage = () => {
  useSignals();
  const t = useT();
  const api = useApi();
  const model = useMemo(() => metadataEditorModel(api, { onApplied: () => void refreshSession(api).catch(() => undefined) }), [api]);
  useEffect(() => void model.load(), [model]);
  const me = caller.value;
  const phase = model.phase.value;
  const count = model.changeCount.value;
  const applied = model.appliedVersion.value;

  useEffect(() => {
    if (applied !== null) toast(t('MetaApplied', { version: applied }));
  }, [applied, t]);
  // Unapplied changes live only in this tab: leaving the page asks first.
  useEffect(() => {
    if (count === 0) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [count]);

  if (me && !canEditMetadata(me))
    return (
      <div className="screen meta-editor">
        <h1 className="screen-title">{t('MenuMetadata')}</h1>
        <p className="meta-note">{t('MetaNotAllowed')}</p>
      </div>
    );

  const reviewing = phase === 'review' || phase === 'applying';
  return (
    <div className="screen meta-editor">
      <div className="screen-head">
        <div className="title-row">
          <h1 className="screen-title">{t('MenuMetadata')}</h1>
          {count > 0 && <span className="badge accent">{t('MetaChangeCount', { n: count })}</span>}
        </div>
        <div className="command-bar" role="toolbar" aria-label={t('MenuMetadata')}>
          <button type="button" className="btn btn-primary" disabled={count === 0 || phase !== 'editing'} onClick={() => void model.review()}>
            <Icon name="check" /> {phase === 'planning' ? t('MetaPlanning') : t('MetaReview')}
          </button>
          <button type="button" className="btn" disabled={count === 0 || phase === 'applying' || phase === 'planning'} onClick={model.discard}>
            <Icon name="undo" /> {t('MetaDiscard')}
          </button>
        </div>
      </div>
      {model.error.value && (
        <div className="meta-error" role="alert">
          <Icon name="alert" /> {phase === 'failed' ? t('MetaLoadFailed', { error: model.error.value }) : model.error.value}
          {phase === 'failed' && (
            <button type="button" className="btn" onClick={() => void model.load()}>
              <Icon name="reload" /> {t('CmdReload')}
            </button>
          )}
        </div>
      )}
      {phase === 'loading' ? (
        <div className="spinner" aria-busy="true" aria-label={t('MetaLoading')} />
      ) : phase === 'failed' ? null : reviewing ? (
        <ReviewPanel model={model} t={t} />
      ) : (
        <div className="meta-body">
          <EntityList model={model} t={t} />
          <div className="meta-main">{model.current.value ? <EntityEditor model={model} entity={model.current.value} t={t} /> : <p className="meta-note">{t('MetaChooseEntity')}</p>}</div>
        </div>
      )}
    </div>
  );
};

const EntityList = ({ model, t }: { model: MetadataEditorModel; t: T }) => {
  useSignals();
  const [creating, setCreating] = useState(false);
  const names = model.names.value;
  return (
    <nav className="meta-entities" aria-label={t('MetaEntities')}>
      <div className="meta-entities-head">
        <input type="search" value={model.search.value} placeholder={t('MetaSearch')} aria-label={t('MetaSearch')} onChange={(e) => (model.search.value = e.target.value)} />
        <button type="button" className="btn" onClick={() => setCreating(!creating)} aria-expanded={creating}>
          <Icon name="plus" /> {t('MetaNewEntity')}
        </button>
      </div>
      {creating && <NewEntityForm model={model} t={t} done={() => setCreating(false)} />}
      {names.length === 0 && <p className="meta-note">{t('MetaNoEntities')}</p>}
      <ul>
        {names.map((n) => {
          const state = model.stateOf(n);
          const e = model.entityOf(n);
          return (
            <li key={n}>
              <button type="button" className={`meta-entity${model.selected.value === n ? ' selected' : ''} ${state}`} aria-current={model.selected.value === n ? 'true' : undefined} onClick={() => model.select(n)}>
                <span className="meta-entity-label">{e?.displayName ?? n}</span>
                <code>{n}</code>
                {state !== 'same' && <span className={`badge meta-state ${state}`}>{t(STATE_LABEL[state])}</span>}
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
};

const NewEntityForm = ({ model, t, done }: { model: MetadataEditorModel; t: T; done: () => void }) => {
  const id = useId();
  const [name, setName] = useState('');
  const [label, setLabel] = useState('');
  const [plural, setPlural] = useState('');
  const [link, setLink] = useState(false);
  const [problem, setProblem] = useState<MessageKey | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = model.createEntity(name.trim(), label.trim(), plural.trim(), link);
    setProblem(p);
    if (!p) done();
  };
  return (
    <form className="meta-new-entity" onSubmit={submit}>
      <label htmlFor={`${id}-n`}>{t('MetaLogicalName')}</label>
      <input id={`${id}-n`} value={name} required autoFocus onChange={(e) => setName(e.target.value)} aria-invalid={problem ? true : undefined} aria-describedby={problem ? `${id}-p` : undefined} />
      <label htmlFor={`${id}-d`}>{t('MetaDisplayName')}</label>
      <input id={`${id}-d`} value={label} onChange={(e) => setLabel(e.target.value)} />
      <label htmlFor={`${id}-p2`}>{t('MetaPluralName')}</label>
      <input id={`${id}-p2`} value={plural} onChange={(e) => setPlural(e.target.value)} />
      <label className="meta-check">
        <input type="checkbox" checked={link} onChange={(e) => setLink(e.target.checked)} /> {t('MetaLinkEntity')}
      </label>
      {problem && (
        <p id={`${id}-p`} className="meta-problem" role="alert">
          {t(problem)}
        </p>
      )}
      <div className="meta-actions">
        <button type="submit" className="btn btn-primary">
          {t('CmdAdd')}
        </button>
        <button type="button" className="btn" onClick={done}>
          {t('CmdCancel')}
        </button>
      </div>
    </form>
  );
};

const EntityEditor = ({ model, entity, t }: { model: MetadataEditorModel; entity: Entity; t: T }) => {
  useSignals();
  const id = useId();
  const [open, setOpen] = useState<string | null>(null);
  const state = model.stateOf(entity.logicalName);
  const removed = state === 'removed';
  return (
    <section className="meta-entity-editor" aria-labelledby={`${id}-h`}>
      <div className="meta-entity-head">
        <h2 id={`${id}-h`}>
          {entity.displayName} <code>{entity.logicalName}</code>
          {state !== 'same' && <span className={`badge meta-state ${state}`}>{t(STATE_LABEL[state])}</span>}
        </h2>
        {removed ? (
          <button type="button" className="btn" onClick={() => model.restoreEntity(entity.logicalName)}>
            <Icon name="undo" /> {t('MetaKeepEntity')}
          </button>
        ) : (
          <button type="button" className="btn btn-danger-outline" onClick={() => model.removeEntity(entity.logicalName)}>
            <Icon name="trash" /> {t('MetaRemoveEntity')}
          </button>
        )}
      </div>
      <fieldset className="meta-entity-names" disabled={removed}>
        <label>
          {t('MetaDisplayName')}
          <input value={entity.displayName} onChange={(e) => model.updateEntity({ displayName: e.target.value })} />
        </label>
        <label>
          {t('MetaPluralName')}
          <input value={entity.displayNamePlural} onChange={(e) => model.updateEntity({ displayNamePlural: e.target.value })} />
        </label>
      </fieldset>
      {!removed && (
        <>
          <h3>{t('MetaFields')}</h3>
          {entity.properties.length === 0 && <p className="meta-note">{t('MetaNoFields')}</p>}
          <ul className="meta-fields">
            {entity.properties.map((p) => (
              <li key={p.logicalName} className={open === p.logicalName ? 'open' : undefined}>
                <button type="button" className="meta-field-row" aria-expanded={open === p.logicalName} onClick={() => setOpen(open === p.logicalName ? null : p.logicalName)} title={t('MetaEditField', { name: p.logicalName })}>
                  <span className="meta-field-label">{p.displayName}</span>
                  <code>{p.logicalName}</code>
                  <span className="meta-field-type">
                    {p.type}
                    {p.max !== undefined ? ` (${p.max})` : ''}
                    {p.targets?.length ? ` → ${p.targets.join(', ')}` : ''}
                  </span>
                  <span className="meta-field-badges">
                    {model.isSystem(entity, p.logicalName) && <span className="badge meta-sys">{t('MetaSystemField')}</span>}
                    {!model.isAppliedProperty(entity.logicalName, p.logicalName) && <span className="badge meta-state new">{t('MetaStateNew')}</span>}
                  </span>
                </button>
                {open === p.logicalName && <PropertyEditor model={model} entity={entity} property={p} t={t} />}
              </li>
            ))}
          </ul>
          <AddFieldForm model={model} t={t} />
        </>
      )}
    </section>
  );
};

const AddFieldForm = ({ model, t }: { model: MetadataEditorModel; t: T }) => {
  const id = useId();
  const [name, setName] = useState('');
  const [label, setLabel] = useState('');
  const [type, setType] = useState<PropertyType>('String');
  const [problem, setProblem] = useState<MessageKey | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = model.addProperty(name.trim(), label.trim(), type);
    setProblem(p);
    if (!p) {
      setName('');
      setLabel('');
    }
  };
  return (
    <form className="meta-add-field" onSubmit={submit} aria-label={t('MetaAddField')}>
      <label>
        {t('MetaLogicalName')}
        <input value={name} required onChange={(e) => setName(e.target.value)} aria-invalid={problem ? true : undefined} aria-describedby={problem ? `${id}-p` : undefined} />
      </label>
      <label>
        {t('MetaDisplayName')}
        <input value={label} onChange={(e) => setLabel(e.target.value)} />
      </label>
      <label>
        {t('MetaType')}
        <select value={type} onChange={(e) => setType(e.target.value as PropertyType)}>
          {ADDABLE_TYPES.map((x) => (
            <option key={x} value={x}>
              {x}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="btn">
        <Icon name="plus" /> {t('MetaAddField')}
      </button>
      {problem && (
        <p id={`${id}-p`} className="meta-problem" role="alert">
          {t(problem)}
        </p>
      )}
    </form>
  );
};

const PropertyEditor = ({ model, entity, property: p, t }: { model: MetadataEditorModel; entity: Entity; property: Property; t: T }) => {
  useSignals();
  const id = useId();
  const system = model.isSystem(entity, p.logicalName);
  const appliedBefore = model.isAppliedProperty(entity.logicalName, p.logicalName);
  const facets = facetsOf(p.type);
  const [lines, setLines] = useState(() => optionLinesOf(p));
  const [linesError, setLinesError] = useState<string | null>(null);
  const set = (next: Property) => model.updateProperty(p.logicalName, next);
  const firstTarget = model.allNames.value.find((n) => n !== entity.logicalName);
  const optionSet = hasFlag(p, 'OptionSet') || hasFlag(p, 'MultiSelect');
  const changeLines = (text: string) => {
    setLines(text);
    const r = withOptionLines(p, text);
    if ('error' in r) setLinesError(r.error);
    else {
      setLinesError(null);
      set(r.property);
    }
  };
  return (
    <div className="meta-property">
      <div className="meta-property-grid">
        <label>
          {t('MetaDisplayName')}
          <input value={p.displayName} onChange={(e) => set({ ...p, displayName: e.target.value })} />
        </label>
        <label>
          {t('MetaType')}
          {/* An applied field keeps its type: another type would drop its column and its values. */}
          <select value={p.type} disabled={system || appliedBefore} onChange={(e) => set(retyped(p, e.target.value as PropertyType, firstTarget))}>
            {[...new Set([...ADDABLE_TYPES, p.type])].map((x) => (
              <option key={x} value={x}>
                {x}
              </option>
            ))}
          </select>
        </label>
        {facets.length && (
          <label>
            {t('MetaMaxLength')}
            <input
              type="number"
              min={1}
              max={4000}
              value={p.max ?? ''}
              disabled={system}
              placeholder={t('MetaMaxLengthHint')}
              onChange={(e) => {
                const { max: _m, ...rest } = p;
                set(e.target.value === '' ? rest : { ...p, max: Number(e.target.value) });
              }}
            />
          </label>
        )}
        {facets.precision && (
          <label>
            {t('MetaPrecision')}
            <input
              type="number"
              min={0}
              max={10}
              value={p.precision ?? ''}
              onChange={(e) => {
                const { precision: _p, ...rest } = p;
                set(e.target.value === '' ? rest : { ...p, precision: Number(e.target.value) });
              }}
            />
          </label>
        )}
        {facets.targets && (
          <label>
            {t('MetaTargets')}
            <select multiple size={5} value={p.targets ?? []} disabled={system} onChange={(e) => set({ ...p, targets: [...e.target.selectedOptions].map((o) => o.value) })}>
              {model.allNames.value.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      <fieldset className="meta-flags">
        <legend>{t('MetaFlags')}</legend>
        {FLAGS.map((f) => (
          <label key={f} className="meta-check">
            <input type="checkbox" checked={hasFlag(p, f)} onChange={() => set(toggledFlag(p, f))} /> {f}
          </label>
        ))}
      </fieldset>
      {facets.options && (
        <div className="meta-options">
          <label htmlFor={`${id}-o`}>{t('MetaOptions')}</label>
          {optionSet ? (
            <>
              <textarea id={`${id}-o`} rows={Math.min(10, Math.max(3, lines.split('\n').length + 1))} value={lines} spellCheck={false} onChange={(e) => changeLines(e.target.value)} aria-describedby={`${id}-oh`} aria-invalid={linesError ? true : undefined} />
              <p id={`${id}-oh`} className="meta-hint">
                {t('MetaOptionsHint')}
              </p>
              {linesError && (
                <p className="meta-problem" role="alert">
                  {linesError}
                </p>
              )}
              <ul className="meta-option-preview" aria-label={t('MetaOptionsPreview')}>
                {previewOptions(lines).map((o) => (
                  <li key={o.value}>
                    <span className="meta-swatch" style={o.color ? { background: o.color } : undefined} aria-hidden="true" />
                    {o.icon && <Icon name={o.icon} size={16} />}
                    <span>{o.label}</span>
                    <code>{o.value}</code>
                    {o.icon && <small>{o.icon}</small>}
                    {o.depfield && (
                      <small>
                        {o.depfield} = {o.depvalue ?? ''}
                      </small>
                    )}
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <p className="meta-hint">{t('MetaOptionsNeedFlag')}</p>
          )}
        </div>
      )}
      {!system && (
        <button type="button" className="btn btn-danger-outline" onClick={() => model.removeProperty(p.logicalName)}>
          <Icon name="trash" /> {t('MetaRemoveField', { name: p.logicalName })}
        </button>
      )}
    </div>
  );
};

const ReviewPanel = ({ model, t }: { model: MetadataEditorModel; t: T }) => {
  useSignals();
  const plan = model.plan.value;
  const applying = model.phase.value === 'applying';
  if (!plan) return null;
  return (
    <section className="meta-review" aria-label={t('MetaPlanTitle')}>
      <h2>{t('MetaPlanTitle')}</h2>
      {plan.steps.length === 0 ? (
        <p className="meta-note">{t('MetaPlanNoSteps')}</p>
      ) : (
        <>
          <h3>{t('MetaPlanSteps')}</h3>
          <ol className="meta-steps">
            {plan.steps.map((s, i) => (
              <li key={i} className={s.dataLoss ? 'loss' : undefined}>
                {s.dataLoss && <Icon name="alert" size={16} />} <code>{s.description}</code>
              </li>
            ))}
          </ol>
        </>
      )}
      {plan.destructive.length > 0 && (
        <fieldset className="meta-loss">
          <legend>
            <Icon name="alert" /> {t('MetaDataLossTitle')}
          </legend>
          {plan.destructive.map((d) => (
            <label key={d.step} className="meta-check">
              <input type="checkbox" checked={model.confirmed.value.has(d.step)} disabled={applying} onChange={() => model.toggleConfirm(d.step)} />
              <span>
                <strong>{lossText(t, d)}</strong> — {t('MetaConfirmLoss')}
              </span>
            </label>
          ))}
        </fieldset>
      )}
      <details className="meta-ddl" open={plan.steps.length > 0 && plan.steps.length <= 20}>
        <summary>{t('MetaPlanDdl', { dialect: plan.dialect })}</summary>
        <pre tabIndex={0}>{plan.ddl}</pre>
      </details>
      <div className="meta-actions">
        <button type="button" className="btn btn-primary" disabled={!model.canApply.value} onClick={() => void model.apply()}>
          <Icon name="save" /> {applying ? t('MetaApplying') : t('MetaApply')}
        </button>
        <button type="button" className="btn" disabled={applying} onClick={model.backToEditing}>
          <Icon name="chevronLeft" /> {t('MetaBack')}
        </button>
      </div>
    </section>
  );
};
