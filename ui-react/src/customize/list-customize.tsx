import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { isLeft, isRight, type Either } from 'fp-ts/lib/Either.js';
import type { Chart, Entity, InputError, ListView, QuickFilter, QuickFilterSet } from '../core.js';
import {
  addColumn,
  addQuickFilter,
  COLUMN_WIDTH_MAX,
  COLUMN_WIDTH_MIN,
  editChartSeries,
  editColumn,
  editQuickFilter,
  moveColumn,
  moveQuickFilter,
  QuickFilter as QuickFilterCodec,
  quickFilterForProperty,
  removeColumn,
  removeQuickFilter,
  setChartType,
  setColumnWidth,
} from '../core.js';
import { right } from 'fp-ts/lib/Either.js';
import { savedChartsOf } from '../chart/chart-model.js';
import { useT } from '../i18n.js';
import type { ListModel } from '../list/list-model.js';
import { movePersonalFilterNamed, personalFilters } from '../list/quick-filters/personal-filters.js';
import { guiObjects, parsedBody, session } from '../state/session.js';
import { alertDialog } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import { chartKeyOf, customize, filterKeyOf, viewKeyOf } from './customize-state.js';

/**
 * Customize mode on the live list (issue 15): the view's columns (add, remove, reorder, width,
 * label) and the quick filters (add, edit, reorder, remove; the user's personal ones reorder).
 * Each edit is a draft the list shows at once (it reloads with the new columns and filters).
 */

/** Fields a column or a filter is never offered on. */
const NEVER = new Set(['id', 'versionnumber']);
const offered = (entity: Entity) => entity.properties.filter((p) => !NEVER.has(p.logicalName) && p.secret !== true && p.type !== 'Binary');

/** The metadata's quick filters of an entity as stored (the list screen shows them completed and with personal ones). */
export const metadataQuickFilters = (entity: Entity): QuickFilter[] => {
  const defs = guiObjects('filter', entity.logicalName).flatMap((g) => {
    const body = parsedBody(g) as { filters?: unknown[] } | undefined;
    return (body?.filters ?? []).flatMap((f) => {
      const d = QuickFilterCodec.decode(f);
      return isRight(d) ? [d.right] : [];
    });
  });
  if (defs.length > 0) return defs;
  return entity.properties.some((p) => p.logicalName === 'ownerid') ? [{ name: 'owner', type: 'owner', propertyName: 'ownerid' }] : [];
};

type Pane = 'columns' | 'filters' | 'chart' | null;

export const ListCustomizeTools = ({ model }: { model: ListModel }) => {
  useSignals();
  const t = useT();
  const [pane, setPane] = useState<Pane>('columns');
  const view = model.view.value;
  if (!view) return null;
  const entity = model.entity.value;
  const charts = savedChartsOf(entity.logicalName, session.value?.context.gui ?? [], parsedBody);
  return (
    <div className="cz-list-tools">
      <div className="row gap" role="tablist" aria-label={t('CzTitle')}>
        <button type="button" role="tab" aria-selected={pane === 'columns'} className={`btn btn-plain ${pane === 'columns' ? 'active' : ''}`} onClick={() => setPane(pane === 'columns' ? null : 'columns')}>
          {t('CzColumns')} <span className="badge">{view.body.columns.length}</span>
        </button>
        <button type="button" role="tab" aria-selected={pane === 'filters'} className={`btn btn-plain ${pane === 'filters' ? 'active' : ''}`} onClick={() => setPane(pane === 'filters' ? null : 'filters')}>
          <Icon name="filter" /> {t('CzQuickFilters')}
        </button>
        {charts.length > 0 && (
          <button type="button" role="tab" aria-selected={pane === 'chart'} className={`btn btn-plain ${pane === 'chart' ? 'active' : ''}`} onClick={() => setPane(pane === 'chart' ? null : 'chart')}>
            {t('CzChart')}
          </button>
        )}
      </div>
      {pane === 'columns' && <ColumnsEditor entity={entity} viewName={view.name} body={view.body} />}
      {pane === 'filters' && <FiltersEditor entity={entity} />}
      {pane === 'chart' && charts.length > 0 && <ChartEditor entity={entity} charts={charts} />}
    </div>
  );
};

const useRun = <B,>(apply: (f: (b: B) => Either<InputError, B>) => Either<InputError, B>) => {
  const t = useT();
  return (f: (b: B) => Either<InputError, B>): boolean => {
    const r = apply(f);
    if (isLeft(r)) void alertDialog(t('CzEditFailed', { message: r.left.message }), t('CmdOk'));
    return !isLeft(r);
  };
};

const ColumnsEditor = ({ entity, viewName, body }: { entity: Entity; viewName: string; body: ListView }) => {
  const t = useT();
  const key = viewKeyOf(entity.logicalName, viewName);
  const run = useRun<ListView>((f) => customize.edit(key, body, f));
  const labelOf = (n: string) => entity.properties.find((p) => p.logicalName === n)?.displayName ?? n;
  const free = offered(entity).filter((p) => !body.columns.some((c) => c.name === p.logicalName));
  return (
    <div className="cz-pane" role="tabpanel" aria-label={t('CzColumns')}>
      <ol className="cz-list">
        {body.columns.map((c, i) => {
          const name = c.label ?? labelOf(c.name);
          return (
            <li key={c.name} className="cz-list-row" data-cz-column={c.name}>
              <span className="cz-list-name">{labelOf(c.name)}</span>
              <input aria-label={`${t('CzLabel')} ${labelOf(c.name)}`} placeholder={labelOf(c.name)} defaultValue={c.label ?? ''} onBlur={(e) => e.target.value !== (c.label ?? '') && run((v) => editColumn(v, c.name, { label: e.target.value }))} />
              <input
                type="number"
                className="cz-width"
                aria-label={t('CzWidth', { name })}
                title={t('CzWidth', { name })}
                min={COLUMN_WIDTH_MIN}
                max={COLUMN_WIDTH_MAX}
                step={10}
                placeholder="px"
                defaultValue={c.width ?? ''}
                onBlur={(e) => {
                  const w = e.target.value.trim() === '' ? undefined : Number(e.target.value);
                  if (w !== c.width) run((v) => setColumnWidth(v, c.name, w));
                }}
              />
              <span className="cz-tools">
                <button type="button" className="icon-btn" aria-label={t('CzMoveEarlier', { name })} disabled={i === 0} onClick={() => run((v) => moveColumn(v, c.name, i - 1))}>
                  <Icon name="chevronLeft" size={15} />
                </button>
                <button type="button" className="icon-btn" aria-label={t('CzMoveLater', { name })} disabled={i === body.columns.length - 1} onClick={() => run((v) => moveColumn(v, c.name, i + 1))}>
                  <Icon name="chevronRight" size={15} />
                </button>
                <button type="button" className="icon-btn cz-danger" aria-label={t('CzRemove', { name })} disabled={body.columns.length === 1} onClick={() => run((v) => removeColumn(v, c.name))}>
                  <Icon name="trash" size={15} />
                </button>
              </span>
            </li>
          );
        })}
      </ol>
      <select
        aria-label={t('CzAddColumn')}
        value=""
        onChange={(e) => {
          const v = e.target.value;
          if (v) run((b) => addColumn(b, { name: v }));
        }}
      >
        <option value="">{t('CzAddColumn')}…</option>
        {free.map((p) => (
          <option key={p.logicalName} value={p.logicalName}>
            {p.displayName}
          </option>
        ))}
      </select>
    </div>
  );
};

const FiltersEditor = ({ entity }: { entity: Entity }) => {
  useSignals();
  const t = useT();
  const key = filterKeyOf(entity.logicalName);
  const stored: QuickFilterSet = { filters: metadataQuickFilters(entity) };
  const set = customize.shown(key, stored);
  const run = useRun<QuickFilterSet>((f) => customize.edit(key, stored, f));
  const personal = personalFilters(entity);
  const labelOf = (f: QuickFilter) => f.label ?? entity.properties.find((p) => p.logicalName === f.propertyName)?.displayName ?? f.name;
  const addable = offered(entity).filter((p) => quickFilterForProperty(p) && !set.filters.some((f) => f.propertyName === p.logicalName));
  return (
    <div className="cz-pane" role="tabpanel" aria-label={t('CzQuickFilters')}>
      {set.filters.length === 0 && <p className="muted small">{t('CzNone')}</p>}
      <ol className="cz-list">
        {set.filters.map((f, i) => (
          <li key={f.name} className="cz-list-row" data-cz-filter={f.name}>
            <span className="cz-list-name">
              {labelOf(f)} <span className="muted small">· {f.type}</span>
            </span>
            <input aria-label={`${t('CzLabel')} ${labelOf(f)}`} placeholder={labelOf(f)} defaultValue={f.label ?? ''} onBlur={(e) => e.target.value !== (f.label ?? '') && run((s) => editQuickFilter(s, f.name, { label: e.target.value }))} />
            <span className="cz-tools">
              <button type="button" className="icon-btn" aria-label={t('CzMoveEarlier', { name: labelOf(f) })} disabled={i === 0} onClick={() => run((s) => moveQuickFilter(s, f.name, i - 1))}>
                <Icon name="chevronLeft" size={15} />
              </button>
              <button type="button" className="icon-btn" aria-label={t('CzMoveLater', { name: labelOf(f) })} disabled={i === set.filters.length - 1} onClick={() => run((s) => moveQuickFilter(s, f.name, i + 1))}>
                <Icon name="chevronRight" size={15} />
              </button>
              <button type="button" className="icon-btn cz-danger" aria-label={t('CzRemove', { name: labelOf(f) })} onClick={() => run((s) => removeQuickFilter(s, f.name))}>
                <Icon name="trash" size={15} />
              </button>
            </span>
          </li>
        ))}
      </ol>
      <select
        aria-label={t('CzAddQuickFilter')}
        value=""
        onChange={(e) => {
          const p = entity.properties.find((x) => x.logicalName === e.target.value);
          const def = p && quickFilterForProperty(p);
          if (p && def) run((s) => addQuickFilter(s, { ...def, name: p.logicalName }));
        }}
      >
        <option value="">{t('CzAddQuickFilter')}…</option>
        {addable.map((p) => (
          <option key={p.logicalName} value={p.logicalName}>
            {p.displayName}
          </option>
        ))}
      </select>
      <h3 className="cz-sub">{t('CzPersonalFilters')}</h3>
      <p className="muted small">{t('CzPersonalHint')}</p>
      {personal.length === 0 ? (
        <p className="muted small">{t('CzNone')}</p>
      ) : (
        <ol className="cz-list">
          {personal.map((f, i) => (
            <li key={f.name} className="cz-list-row" data-cz-personal={f.name}>
              <span className="cz-list-name">{labelOf(f)}</span>
              <span className="cz-tools">
                <button type="button" className="icon-btn" aria-label={t('CzMoveEarlier', { name: labelOf(f) })} disabled={i === 0} onClick={() => movePersonalFilterNamed(entity, f.name, i - 1)}>
                  <Icon name="chevronLeft" size={15} />
                </button>
                <button type="button" className="icon-btn" aria-label={t('CzMoveLater', { name: labelOf(f) })} disabled={i === personal.length - 1} onClick={() => movePersonalFilterNamed(entity, f.name, i + 1)}>
                  <Icon name="chevronRight" size={15} />
                </button>
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
};

/** A saved chart of the entity (spec 001 section 9): its type and each series' colour and label; the chart mode shows the draft. */
const ChartEditor = ({ entity, charts }: { entity: Entity; charts: ReadonlyArray<{ name: string; label: string; body: Chart }> }) => {
  useSignals();
  const t = useT();
  const [name, setName] = useState(charts[0]?.name ?? '');
  const stored = charts.find((c) => c.name === name) ?? charts[0];
  const run = useRun<Chart>((f) => (stored ? customize.edit(chartKeyOf(entity.logicalName, stored.name), stored.body, f) : f({ type: 'bar', series: [], groups: [] })));
  if (!stored) return null;
  const chart = customize.shown(chartKeyOf(entity.logicalName, stored.name), stored.body);
  const fieldLabel = (n: string) => entity.properties.find((p) => p.logicalName === n)?.displayName ?? n;
  return (
    <div className="cz-pane" role="tabpanel" aria-label={t('CzChart')}>
      <div className="row gap">
        <select aria-label={t('CzChart')} value={stored.name} onChange={(e) => setName(e.target.value)}>
          {charts.map((c) => (
            <option key={c.name} value={c.name}>
              {c.label}
            </option>
          ))}
        </select>
        <select aria-label={t('CzChartType')} value={chart.type} onChange={(e) => run((c) => right(setChartType(c, e.target.value === 'line' ? 'line' : 'bar')))}>
          <option value="bar">{t('ChartTypeBar')}</option>
          <option value="line">{t('ChartTypeLine')}</option>
        </select>
      </div>
      <ol className="cz-list">
        {chart.series.map((s, i) => {
          const label = s.label ?? `${s.aggregateMethod} ${fieldLabel(s.aggregateField)}`;
          return (
            <li key={i} className="cz-list-row">
              <span className="cz-list-name">{label}</span>
              <input aria-label={`${t('CzLabel')} ${label}`} placeholder={label} defaultValue={s.label ?? ''} onBlur={(e) => e.target.value !== (s.label ?? '') && run((c) => editChartSeries(c, i, { label: e.target.value }))} />
              <input type="color" aria-label={t('CzSeriesColor', { name: label })} value={s.color ?? '#0071eb'} onChange={(e) => run((c) => editChartSeries(c, i, { color: e.target.value }))} />
            </li>
          );
        })}
      </ol>
    </div>
  );
};
