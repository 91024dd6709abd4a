import type { Entity, QuickFilter, QuickFilterSelection } from '../core.js';
import { DATE_RANGE_OPTIONS, visibleOptions } from '../core.js';
import type { MessageKey } from '@tessera/core/internal';
import { useT } from '../i18n.js';
import { optionsOf } from '../format.js';
import { LookupInput } from '../form/lookup.js';
import { caller } from '../state/session.js';
import { Icon } from '../ui/icons.js';

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

type Opt = { value: string | number; label: string; color?: string };

const Options = ({ def, options, value, onChange, label }: { def: QuickFilter; options: Opt[]; value: QuickFilterSelection; onChange: (v: QuickFilterSelection) => void; label: string }) => {
  const t = useT();
  const chosen = (Array.isArray(value) ? value : value === null || typeof value === 'object' ? [] : [value]).map(String);
  const id = `qf-${def.name}`;
  if (def.multiSelect && (def.optionsFormat === 'select' || options.length > 6)) {
    const set = new Set(chosen);
    const summary = chosen.length === 0 ? t('LblAll') : chosen.length === 1 ? (options.find((o) => String(o.value) === chosen[0])?.label ?? chosen[0]) : t('MsgSelected', { n: chosen.length });
    return (
      <details className="multi" id={id}>
        <summary aria-label={`${label}: ${summary}`}>
          <span>{summary}</span>
          <Icon name="chevronDown" size={14} />
        </summary>
        <div className="multi-menu" role="group" aria-label={label}>
          {options.map((o) => (
            <label key={String(o.value)}>
              <input
                type="checkbox"
                checked={set.has(String(o.value))}
                onChange={() => {
                  const next = set.has(String(o.value)) ? options.filter((x) => set.has(String(x.value)) && x.value !== o.value) : options.filter((x) => set.has(String(x.value)) || x.value === o.value);
                  onChange(next.map((x) => x.value));
                }}
              />
              {o.color && <span className="dot" style={{ background: o.color }} aria-hidden="true" />}
              {o.label}
            </label>
          ))}
        </div>
      </details>
    );
  }
  if (def.optionsFormat === 'select' || options.length > 6) {
    return (
      <select
        id={id}
        aria-label={label}
        multiple={def.multiSelect}
        value={def.multiSelect ? chosen : (chosen[0] ?? '')}
        onChange={(e) => {
          const vals = [...e.target.selectedOptions].map((o) => o.value).filter((v) => v !== '');
          const typed = vals.map((v) => options.find((o) => String(o.value) === v)?.value ?? v);
          onChange(def.multiSelect ? typed : (typed[0] ?? null));
        }}
      >
        {!def.multiSelect && <option value="">{def.mustSelect ? '' : t('LblAll')}</option>}
        {options.map((o) => (
          <option key={String(o.value)} value={String(o.value)}>
            {o.label}
          </option>
        ))}
      </select>
    );
  }
  return (
    <div className="chips" role="group" aria-label={label}>
      {!def.mustSelect && (
        <button type="button" className={`chip ${chosen.length === 0 ? 'on' : ''}`} aria-pressed={chosen.length === 0} onClick={() => onChange(null)}>
          {t('LblAll')}
        </button>
      )}
      {options.map((o) => {
        const on = chosen.includes(String(o.value));
        return (
          <button
            key={String(o.value)}
            type="button"
            className={`chip ${on ? 'on' : ''}`}
            aria-pressed={on}
            onClick={() => {
              if (def.multiSelect) {
                const next = on ? (Array.isArray(value) ? value : []).filter((v) => String(v) !== String(o.value)) : [...(Array.isArray(value) ? value : chosen.length ? [value as string | number] : []), o.value];
                onChange(next);
              } else onChange(on ? null : o.value);
            }}
          >
            {o.color && <span className="dot" style={{ background: o.color }} aria-hidden="true" />}
            {o.label}
          </button>
        );
      })}
    </div>
  );
};

/** One quick filter of the bar, by type (spec 001 section 2). */
const QuickFilterControl = ({ def, entity, value, onChange }: { def: QuickFilter; entity: Entity; value: QuickFilterSelection; onChange: (v: QuickFilterSelection) => void }) => {
  const t = useT();
  const prop = entity.properties.find((p) => p.logicalName === (def.propertyName ?? (def.type === 'owner' ? 'ownerid' : def.name)));
  const label = def.label ?? prop?.displayName ?? def.name;
  const id = `qf-${def.name}`;
  const range = value && typeof value === 'object' && !Array.isArray(value) ? (value as { from?: string | number | null; to?: string | number | null }) : {};
  let control: React.ReactNode;
  switch (def.type) {
    case 'options': {
      const base: Opt[] = def.directOptions ?? (def.richOptions && def.richOptions.length ? def.richOptions : prop ? optionsOf(prop) : []);
      control = <Options def={def} options={visibleOptions(def, base)} value={value} onChange={onChange} label={label} />;
      break;
    }
    case 'date': {
      const base: Opt[] = def.directOptions ?? DATE_RANGE_OPTIONS.map((o) => ({ value: o, label: t(DATE_KEYS[o]) }));
      control = <Options def={{ ...def, optionsFormat: def.optionsFormat ?? 'select' }} options={visibleOptions(def, base)} value={value} onChange={onChange} label={label} />;
      break;
    }
    case 'owner': {
      const me = caller.value;
      // {{userid}} is replaced by the core, so a defaultOption written as the placeholder selects Mine.
      const base: Opt[] = def.directOptions ?? (me ? [{ value: '{{userid}}', label: t('LblMine') }] : []);
      control = <Options def={def} options={visibleOptions(def, base)} value={value} onChange={onChange} label={label} />;
      break;
    }
    case 'daterange':
    case 'dayrange':
    case 'numericrange': {
      const type = def.type === 'numericrange' ? 'number' : 'date';
      control = (
        <div className="range" role="group" aria-label={label}>
          <input type={type} aria-label={`${label} ${t('LblFrom')}`} value={String(range.from ?? '')} onChange={(e) => onChange({ ...range, from: e.target.value || null })} />
          <span aria-hidden="true">–</span>
          <input type={type} aria-label={`${label} ${t('LblTo')}`} value={String(range.to ?? '')} onChange={(e) => onChange({ ...range, to: e.target.value || null })} />
        </div>
      );
      break;
    }
    case 'day':
      control = <input id={id} type="date" aria-label={label} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value || null)} />;
      break;
    case 'age':
      control = <Options def={{ ...def, optionsFormat: 'select' }} options={Array.from({ length: 100 }, (_, i) => ({ value: i, label: String(i) }))} value={value} onChange={onChange} label={label} />;
      break;
    case 'lookup': {
      const chosen = typeof value === 'string' ? value : null;
      const targets = prop?.targets ?? [];
      control = (
        <div className="qf-lookup">
          <LookupInput
            id={id}
            label={label}
            targets={targets}
            value={chosen ? { id: chosen, name: targets[0] ?? '', label: lookupLabels.get(chosen) ?? chosen } : null}
            onChange={(v) => {
              if (v?.label) lookupLabels.set(v.id, v.label);
              onChange(v?.id ?? null);
            }}
          />
        </div>
      );
      break;
    }
    default:
      control = (
        <input
          id={id}
          type={def.type === 'number' ? 'number' : 'search'}
          aria-label={label}
          placeholder={label}
          value={typeof value === 'string' || typeof value === 'number' ? String(value) : ''}
          onChange={(e) => onChange(e.target.value === '' ? null : e.target.value)}
        />
      );
  }
  return (
    <div className={`qf qf-${def.type}`}>
      <span className="qf-label" id={`${id}-label`}>
        {label}
      </span>
      {control}
    </div>
  );
};

/** Labels of lookup values chosen in filters (the selection itself holds only the id). */
const lookupLabels = new Map<string, string>();

export const QuickFilterBar = ({ defs, entity, selections, onChange, open }: { defs: QuickFilter[]; entity: Entity; selections: Record<string, QuickFilterSelection>; onChange: (name: string, v: QuickFilterSelection) => void; open: boolean }) => {
  const t = useT();
  if (defs.length === 0) return null;
  return (
    <section id="quick-filters" className={`quick-filters ${open ? 'open' : ''}`} aria-label={t('LblFilters')}>
      {defs.map((d) => (
        <QuickFilterControl key={d.name} def={d} entity={entity} value={selections[d.name] ?? null} onChange={(v) => onChange(d.name, v)} />
      ))}
    </section>
  );
};
