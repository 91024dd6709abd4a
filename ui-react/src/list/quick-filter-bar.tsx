import { useSignals } from '@preact/signals-react/runtime';
import { useMemo } from 'react';
import type { Entity, MessageKey, QuickFilter, QuickFilterSelection } from '../core.js';
import { DATE_RANGE_OPTIONS, DAY_FILTER_MAX_YEAR, DAY_FILTER_MIN_YEAR, effectiveSelection, filterableColumns, PERSONAL_FILTER_PREFIX, quickFilterErrors, quickFilterOptions, quickFilterProperty, quickFiltersToFetch } from '../core.js';
import { useT } from '../i18n.js';
import { caller } from '../state/session.js';
import { Icon } from '../ui/icons.js';
import { CustomFilter } from './quick-filters/custom-filter.js';
import { DayFilter, RangeFilter, TextFilter } from './quick-filters/input-filters.js';
import { LookupFilter } from './quick-filters/lookup-filter.js';
import { OptionsFilter, type ShownOption } from './quick-filters/options-filter.js';
import { OwnerFilter } from './quick-filters/owner-filter.js';
import { addPersonalFilterOn, personalFilters, removePersonalFilterNamed } from './quick-filters/personal-filters.js';

const DATE_KEYS: Record<(typeof DATE_RANGE_OPTIONS)[number], MessageKey> = {
  today: 'DateToday',
  tomorrow: 'DateTomorrow',
  yesterday: 'DateYesterday',
  'this-week': 'DateThisWeek',
  'next-week': 'DateNextWeek',
  'previous-week': 'DatePreviousWeek',
  'this-month': 'DateThisMonth',
  'next-month': 'DateNextMonth',
  'previous-month': 'DatePreviousMonth',
  'this-year': 'DateThisYear',
  'next-year': 'DateNextYear',
  'previous-year': 'DatePreviousYear',
};

type T = ReturnType<typeof useT>;

/** The options a filter shows, with the UI's labels for the date quick options and Mine. */
const shownOptions = (def: QuickFilter, entity: Entity, t: T): ShownOption[] => {
  const own = def.directOptions?.length || def.richOptions?.length;
  return quickFilterOptions(def, quickFilterProperty(def, entity)).map((o) => {
    if (own) return o;
    if (def.type === 'date') return { ...o, label: t(DATE_KEYS[o.value as (typeof DATE_RANGE_OPTIONS)[number]]) };
    if (def.type === 'owner') return { ...o, label: t('LblMine') };
    return o;
  });
};

/** The message of a selection the core cannot apply, in the user's language. */
const errorText = (def: QuickFilter, t: T): string =>
  def.type === 'day' || def.type === 'dayrange'
    ? t('MsgFilterYearRange', { min: DAY_FILTER_MIN_YEAR, max: DAY_FILTER_MAX_YEAR })
    : def.type === 'number' || def.type === 'numericrange'
      ? t('MsgFilterNotNumber')
      : t('MsgFilterInvalid');

/** One quick filter of the bar, by type (spec 001 section 2). */
const QuickFilterControl = ({ def, entity, value, onChange, error, onRemove }: { def: QuickFilter; entity: Entity; value: QuickFilterSelection; onChange: (v: QuickFilterSelection) => void; error?: string; onRemove?: () => void }) => {
  const t = useT();
  const prop = quickFilterProperty(def, entity);
  const label = def.label ?? prop?.displayName ?? def.name;
  const id = `qf-${def.name}`;
  const errorId = error ? `${id}-error` : undefined;
  // What the filter applies: a mustSelect filter shows its default when nothing is chosen.
  const shown = effectiveSelection(def, value);
  const input = { label, describedBy: errorId, invalid: !!error };
  let control: React.ReactNode;
  switch (def.type) {
    case 'options':
    case 'date':
    case 'age':
      control = <OptionsFilter def={def.type === 'options' ? def : { ...def, optionsFormat: def.optionsFormat ?? 'select' }} options={shownOptions(def, entity, t)} value={shown} onChange={onChange} label={label} />;
      break;
    case 'owner':
      control = caller.value ? <OwnerFilter def={def} targets={prop?.targets ?? []} options={shownOptions(def, entity, t)} value={shown} onChange={onChange} label={label} /> : null;
      break;
    case 'lookup':
      control = <LookupFilter id={id} targets={prop?.targets ?? []} value={shown} onChange={onChange} label={label} multiSelect={def.multiSelect} />;
      break;
    case 'daterange':
    case 'dayrange':
    case 'numericrange':
      control = <RangeFilter def={def} value={shown} onChange={onChange} {...input} />;
      break;
    case 'day':
      control = <DayFilter def={def} value={shown} onChange={onChange} {...input} />;
      break;
    case 'custom':
      control = <CustomFilter def={def} property={prop} options={shownOptions(def, entity, t)} value={shown} onChange={onChange} {...input} />;
      break;
    case 'number':
    case 'text':
      control = <TextFilter def={def} value={shown} onChange={onChange} numeric={def.type === 'number'} {...input} />;
      break;
  }
  return (
    <div className={`qf qf-${def.type}${onRemove ? ' qf-personal' : ''}`} data-filter={def.name}>
      <span className="qf-label" id={`${id}-label`}>
        {label}
        {onRemove && (
          <button type="button" className="icon-btn qf-remove" aria-label={t('CmdRemoveFilter', { name: label })} title={t('CmdRemoveFilter', { name: label })} onClick={onRemove}>
            <Icon name="close" size={12} />
          </button>
        )}
      </span>
      {control}
      {error && (
        <span id={errorId} className="qf-error" role="alert">
          {errorText(def, t)}
        </span>
      )}
    </div>
  );
};

/**
 * The "Add filter" command (spec 001 section 2, personal quick filters): a pulldown of the view's
 * columns that have no filter yet; the filter gets the type the field-type registry gives the column.
 */
const AddFilter = ({ entity, defs, columns }: { entity: Entity; defs: readonly QuickFilter[]; columns: readonly string[] }) => {
  useSignals();
  const t = useT();
  const offered = filterableColumns(entity, columns, defs);
  if (offered.length === 0 || !caller.value) return null;
  return (
    <label className="qf qf-add">
      <span className="qf-label">{t('CmdAddFilter')}</span>
      <select
        aria-label={t('CmdAddFilter')}
        value=""
        onChange={(e) => {
          const p = offered.find((x) => x.logicalName === e.target.value);
          const name = p && addPersonalFilterOn(entity, p);
          // The new filter's control takes the focus (after the bar draws it).
          if (name) setTimeout(() => document.querySelector<HTMLElement>(`[data-filter="${CSS.escape(name)}"] :is(input, select, button:not(.qf-remove), summary)`)?.focus(), 50);
        }}
      >
        <option value="">{t('LblAddFilterOn')}</option>
        {offered.map((p) => (
          <option key={p.logicalName} value={p.logicalName}>
            {p.displayName}
          </option>
        ))}
      </select>
    </label>
  );
};

export const QuickFilterBar = ({
  defs,
  entity,
  selections,
  onChange,
  open,
  columns = [],
}: {
  defs: QuickFilter[];
  entity: Entity;
  selections: Record<string, QuickFilterSelection>;
  onChange: (name: string, v: QuickFilterSelection) => void;
  open: boolean;
  /** the view's columns: the Add filter command offers them */
  columns?: readonly string[];
}) => {
  useSignals();
  const t = useT();
  const me = caller.value;
  const { errors, missing } = useMemo(() => {
    const ctx = { reference: new Date(), timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, entity, placeholders: { userid: me?.userId } };
    const outcome = quickFiltersToFetch(defs, selections, ctx);
    // Spec 001 section 2: a mandatory group with no active filter empties the list; the bar says which filters fill it.
    const groups = outcome._tag === 'Right' && outcome.right._tag === 'NoResults' ? new Set(outcome.right.missingGroups) : new Set<string>();
    return { errors: quickFilterErrors(defs, selections, ctx), missing: defs.filter((d) => d.mandatoryGroup !== undefined && groups.has(d.mandatoryGroup)) };
  }, [defs, selections, entity, me]);
  // Personal filters of this list (the rest of defs comes from the metadata).
  const personal = new Set(personalFilters(entity).map((d) => d.name));
  // A list without filters still offers Add filter (personal filters, spec 001 section 2).
  if (defs.length === 0 && columns.length === 0) return null;
  return (
    <section id="quick-filters" className={`quick-filters ${open ? 'open' : ''}`} aria-label={t('LblFilters')}>
      {defs.map((d) => (
        <QuickFilterControl
          key={d.name}
          def={d}
          entity={entity}
          value={selections[d.name] ?? null}
          onChange={(v) => onChange(d.name, v)}
          error={errors[d.name]}
          onRemove={
            d.name.startsWith(PERSONAL_FILTER_PREFIX) && personal.has(d.name)
              ? () => {
                  onChange(d.name, null);
                  removePersonalFilterNamed(entity, d.name);
                }
              : undefined
          }
        />
      ))}
      <AddFilter entity={entity} defs={defs} columns={columns} />
      {missing.length > 0 && (
        <p className="qf-mandatory" role="status">
          <Icon name="alert" size={16} /> {t('MsgFilterMandatoryGroup', { filters: missing.map((d) => d.label ?? quickFilterProperty(d, entity)?.displayName ?? d.name).join(' / ') })}
        </p>
      )}
    </section>
  );
};
