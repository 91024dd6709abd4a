import { useState } from 'react';
import { Link } from 'react-router';
import type { DashboardFilter, DateRangeOption, EntityRecord, FieldValue, MessageKey, Property, QuickFilter, QuickFilterSelection } from '../core.js';
import { addDays, civilDateOf, civilRange, DATE_RANGE_OPTIONS, formatCivil, isQuantity } from '../core.js';
import { formatValue, locale, optionsOf } from '../format.js';
import { useT } from '../i18n.js';
import { entityOf } from '../state/session.js';
import { Icon } from '../ui/icons.js';
import { LookupFilter } from '../list/quick-filters/lookup-filter.js';
import { OptionsFilter, type ShownOption } from '../list/quick-filters/options-filter.js';
import { RangeFilter } from '../list/quick-filters/input-filters.js';
import { OwnerFilter } from '../list/quick-filters/owner-filter.js';
import type { ObjectState } from './dashboard-model.js';

/** The catalogue key of a date option: `this-year` is DateThisYear. */
const dateOptionKey = (o: DateRangeOption): MessageKey => `Date${o.split('-').map((w) => w[0].toUpperCase() + w.slice(1)).join('')}` as MessageKey;

/**
 * A dashboard filter (spec 000 section 2): a date option pulldown, the options of an option set,
 * or a search picker of a lookup's records, with the quick filters' own controls. Any other field
 * type shows 'Unsupported' (spec 000 section 8).
 */
export const FilterObject = ({ filter: f, value, onChange }: { filter: DashboardFilter; value: QuickFilterSelection; onChange: (v: QuickFilterSelection) => void }) => {
  const t = useT();
  const label = f.object.label ?? (f._tag === 'Supported' ? f.property.displayName : f.object.name);
  const id = `dash-filter-${f.object.name}`;
  const control = () => {
    if (f._tag === 'Unsupported') return <span className="dash-unsupported">{t('LblUnsupported')}</span>;
    const def: QuickFilter = { name: id, type: f.kind, propertyName: f.property.logicalName };
    switch (f.kind) {
      case 'date':
        return <DateFilter id={id} def={def} value={value} onChange={onChange} label={label} />;
      case 'options': {
        const options: ShownOption[] = optionsOf(f.property).map((o) => ({ value: o.value, label: o.label, ...(o.color ? { color: o.color } : {}) }));
        return <OptionsFilter def={def} options={options} value={value} onChange={onChange} label={label} />;
      }
      case 'lookup':
        // A lookup to users is picked as the lists' owner filter is: All, Mine ({{userid}}) or another user.
        if ((f.property.targets ?? []).includes('systemuser'))
          return <OwnerFilter def={{ ...def, type: 'owner' }} targets={['systemuser']} options={[{ value: '{{userid}}', label: t('LblMine') }]} value={value} onChange={onChange} label={label} />;
        return <LookupFilter id={id} targets={f.property.targets ?? []} value={value} onChange={onChange} label={label} />;
    }
  };
  return (
    <div className="qf dash-filter">
      {f._tag === 'Supported' && f.kind === 'lookup' && !(f.property.targets ?? []).includes('systemuser') ? (
        <label className="qf-label" htmlFor={id}>
          {label}
        </label>
      ) : (
        <span className="qf-label" id={`${id}-label`}>
          {label}
        </span>
      )}
      {control()}
    </div>
  );
};

const CUSTOM = 'custom-range';
/** The days of a date option as a range with both ends included (today in the browser's time zone). */
const daysOf = (o: DateRangeOption): { from: string; to: string } => {
  const r = civilRange(o, civilDateOf(new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone));
  return { from: formatCivil(r.from), to: formatCivil(addDays(r.to, -1)) };
};
const isRange = (v: QuickFilterSelection): boolean => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A dashboard's date filter: All, the quick filters' date options (today ... previous year), or a
 * custom range of days (from and to, both included; either may stay open).
 */
const DateFilter = ({ id, def, value, onChange, label }: { id: string; def: QuickFilter; value: QuickFilterSelection; onChange: (v: QuickFilterSelection) => void; label: string }) => {
  const t = useT();
  const [custom, setCustom] = useState(isRange(value));
  const shown = custom || isRange(value) ? CUSTOM : typeof value === 'string' ? value : '';
  return (
    <>
      <select
        id={id}
        aria-label={label}
        value={shown}
        onChange={(e) => {
          const v = e.target.value;
          setCustom(v === CUSTOM);
          // A custom range starts as the option chosen before (this year: 1 January to 31 December).
          if (v === CUSTOM) onChange(typeof value === 'string' && (DATE_RANGE_OPTIONS as readonly string[]).includes(value) ? daysOf(value as DateRangeOption) : null);
          else onChange(v === '' ? null : v);
        }}
      >
        <option value="">{t('LblAll')}</option>
        {DATE_RANGE_OPTIONS.map((o) => (
          <option key={o} value={o}>
            {t(dateOptionKey(o))}
          </option>
        ))}
        <option value={CUSTOM}>{t('LblCustomRange')}</option>
      </select>
      {shown === CUSTOM && <RangeFilter def={{ ...def, type: 'daterange' }} value={isRange(value) ? value : null} onChange={onChange} label={label} />}
    </>
  );
};

/** A figure as people read it: in the aggregated field's format (money, options, decimals), a count as a whole number. */
export const figureText = (value: number | null, property?: Property): string => {
  if (value === null) return '–';
  const own = property ? formatValue(property, value as FieldValue) : '';
  return own || new Intl.NumberFormat(locale(), { maximumFractionDigits: 2 }).format(value);
};

export const ObjectLoading = () => (
  <div className="dash-loading" aria-hidden="true">
    <span className="skeleton" />
    <span className="skeleton short" />
  </div>
);

/** A part whose query failed: said in place (the alert said the message); the message is kept as the title. */
export const ObjectFailed = ({ message }: { message: string }) => {
  const t = useT();
  return (
    <p className="dash-failed" title={message}>
      <Icon name="alert" size={16} /> {t('MsgDashboardPartFailed')}
    </p>
  );
};

/** A number (simplechart type number): the first aggregate of its query. */
export const NumberObject = ({ value, property }: { value: number | null; property?: Property }) => (
  <p className="dash-number" data-value={value ?? ''}>
    {figureText(value, property)}
  </p>
);

/** Spec 000 section 9: a gauge shows the percent of the first value over the second; the arc stops at 100 %. */
export const GaugeObject = ({ state, label }: { state: ObjectState & { _tag: 'Gauge' }; label: string }) => {
  const t = useT();
  const pct = state.percent;
  const shown = pct === null ? '–' : new Intl.NumberFormat(locale(), { style: 'percent', maximumFractionDigits: pct < 10 && pct > 0 ? 1 : 0 }).format(pct / 100);
  const arc = pct === null ? 0 : Math.max(0, Math.min(100, pct));
  return (
    <div className="dash-gauge" data-first={state.first ?? ''} data-second={state.second ?? ''}>
      <svg viewBox="0 0 120 68" role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct === null ? undefined : Math.round(pct * 10) / 10} aria-valuetext={shown}>
        <path className="gauge-track" d="M10 60 A50 50 0 0 1 110 60" pathLength={100} />
        {arc > 0 && <path className="gauge-value" d="M10 60 A50 50 0 0 1 110 60" pathLength={100} strokeDasharray={`${arc} 100`} />}
        <text x="60" y="56" textAnchor="middle" className="gauge-text">
          {shown}
        </text>
      </svg>
      <p className="dash-gauge-of muted small">{t('LblGaugeOf', { first: figureText(state.first, state.property), second: figureText(state.second, state.property) })}</p>
    </div>
  );
};

/** A grid: the first rows of its query with gridColumns; the first column opens the record; the count and a link to the whole list below. */
export const GridObject = ({ state, appParam }: { state: ObjectState & { _tag: 'Grid' }; appParam: string }) => {
  const t = useT();
  const entity = entityOf(state.entity);
  const props = new Map((entity?.properties ?? []).map((p) => [p.logicalName, p]));
  const header = (c: string) => props.get(c)?.displayName ?? c;
  const cell = (r: EntityRecord, c: string) => formatValue(props.get(c), r[c] as FieldValue | undefined, r);
  if (state.rows.length === 0) return <p className="muted small dash-empty">{t('MsgNoRecords')}</p>;
  return (
    <>
      <div className="dash-table-wrap">
        <table className="dash-table">
          <thead>
            <tr>
              {state.columns.map((c) => (
                <th key={c} scope="col" className={props.get(c) && isQuantity(props.get(c)!) ? 'num' : undefined}>
                  {header(c)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {state.rows.map((r, i) => (
              <tr key={String(r.id ?? i)}>
                {state.columns.map((c, j) => (
                  <td key={c} className={props.get(c) && isQuantity(props.get(c)!) ? 'num' : undefined} data-label={header(c)}>
                    {j === 0 && r.id ? <Link to={`/${appParam}/edit/${state.entity}/${String(r.id)}`}>{cell(r, c) || t('MsgUnknownTitle')}</Link> : cell(r, c)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="dash-grid-foot small muted">
        <span>{state.count === null ? '' : t('MsgShowingOf', { shown: state.rows.length, count: state.count })}</span>
        {entity && <Link to={`/${appParam}/list/${state.entity}`}>{t('CmdShowAll')}</Link>}
      </div>
    </>
  );
};
