import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useMemo } from 'react';
import type { ChartAggregate, ChartData, ChartGrouping } from '../core.js';
import { CHART_MAX_GROUPS } from '../core.js';
import { useApi } from '../api/context.js';
import { language, useT, type T } from '../i18n.js';
import { caller, parsedBody, refreshSession, session } from '../state/session.js';
import { alertFailure, toast } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import { ListTable } from '../list/list-table.js';
import type { ViewBodyProps } from '../list/view-bodies.js';
import { chartModel, savedChartsOf, type ChartModel } from './chart-model.js';
import { shownCharts } from '../customize/customize-state.js';
import { AGGREGATE_LABELS, drawnChart, GROUPING_LABELS } from './chart-labels.js';
import { UplotChart } from './uplot-chart.js';

/**
 * The chart mode of a list (view mode 3; spec 001 sections 2 and 9): the chart panel (saved
 * charts, Y field and aggregate, X field and grouping, bar or line, Save as view) above the list.
 * A bar click filters the list below; the same bar again clears it. Loaded on demand with uPlot.
 */

/** What the chart model's answer draws as (labels in the language, axes). */
const drawn = (t: T, m: ChartModel, data: ChartData) => {
  const c = m.chart.value;
  if (!c) return { categories: [], series: [] };
  return drawnChart(t, c, m.properties.value, data);
};

const ChartView = (props: ViewBodyProps) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const list = props.model;
  const entityName = list.entity.value.logicalName;
  const m = useMemo(
    () =>
      chartModel({
        api,
        list,
        // Issue 15: a chart edited in customize mode shows its draft (customize-state.ts).
        saved: () => shownCharts(entityName, savedChartsOf(entityName, session.value?.context.gui ?? [], parsedBody)),
        caller: () => caller.value!,
      }),
    [api, list, entityName],
  );
  useEffect(() => m.start(), [m]);

  const save = async () => {
    const r = await m.save();
    if (r._tag === 'Saved') {
      toast(t('MsgChartSaved', { name: r.name }));
      // The user context learns the new view too (other screens, the next visit).
      void refreshSession(api).catch(() => undefined);
    } else await alertFailure(r.error, t('CmdOk'));
  };

  return (
    <div className="chart-mode">
      <section className="chart-panel" aria-label={t('ModeChart')}>
        <ChartToolbar m={m} onSave={save} />
        <ChartBody m={m} />
      </section>
      <ListTable {...props} />
    </div>
  );
};

/** Saved charts, the Y/X pickers, bar or line, Save as view. */
const ChartToolbar = ({ m, onSave }: { m: ChartModel; onSave: () => void }) => {
  useSignals();
  const t = useT();
  const id = useId();
  const c = m.chart.value;
  const y = c?.series[0];
  const x = c?.groups[0];
  const saved = m.saved.value;
  const { y: yFields, x: xFields } = m.fields.value;
  if (!c || !y || !x) return <p className="muted">{t('MsgChartNoFields')}</p>;
  return (
    <div className="chart-toolbar">
      {(saved.length > 0 || m.chosen.value !== '') && (
        <label className="chart-field chart-saved">
          <span>{t('LblChartSaved')}</span>
          <select value={m.chosen.value} onChange={(e) => m.choose(e.target.value)}>
            {m.chosen.value === '' && <option value="">{t('LblChartNew')}</option>}
            {saved.map((s) => (
              <option key={s.name} value={s.name}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="chart-field">
        <span>{t('LblChartY')}</span>
        <select value={y.aggregateField} onChange={(e) => m.edit({ yField: e.target.value })}>
          {yFields.map((p) => (
            <option key={p.logicalName} value={p.logicalName}>
              {p.displayName}
            </option>
          ))}
        </select>
      </label>
      <label className="chart-field">
        <span>{t('LblChartAggregate')}</span>
        <select value={y.aggregateMethod} onChange={(e) => m.edit({ aggregate: e.target.value as ChartAggregate })}>
          {m.aggregates.value.map((a) => (
            <option key={a} value={a}>
              {t(AGGREGATE_LABELS[a])}
            </option>
          ))}
        </select>
      </label>
      <label className="chart-field">
        <span>{t('LblChartX')}</span>
        <select value={x.field} onChange={(e) => m.edit({ xField: e.target.value })}>
          {xFields.map((p) => (
            <option key={p.logicalName} value={p.logicalName}>
              {p.displayName}
            </option>
          ))}
        </select>
      </label>
      {m.groupings.value.length > 1 && (
        <label className="chart-field">
          <span>{t('LblChartGrouping')}</span>
          <select value={x.method} onChange={(e) => m.edit({ grouping: e.target.value as ChartGrouping })}>
            {m.groupings.value.map((g) => (
              <option key={g} value={g}>
                {t(GROUPING_LABELS[g])}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="chart-field">
        <span id={`${id}-type`}>{t('LblChartType')}</span>
        <div className="chart-type" role="radiogroup" aria-labelledby={`${id}-type`}>
          {(['bar', 'line'] as const).map((k) => (
            <button key={k} type="button" role="radio" aria-checked={c.type === k} className={c.type === k ? 'btn btn-plain active' : 'btn btn-plain'} onClick={() => m.edit({ type: k })}>
              {t(k === 'bar' ? 'ChartTypeBar' : 'ChartTypeLine')}
            </button>
          ))}
        </div>
      </div>
      {m.canSave.value && (
        <button type="button" className="btn btn-plain chart-save" onClick={onSave} disabled={m.saving.value}>
          <Icon name="save" /> {t('CmdSaveChart')}
        </button>
      )}
    </div>
  );
};

/** The chart, or its loading, failed or empty state; under it the picked bar (with Clear) or the hint. */
const ChartBody = ({ m }: { m: ChartModel }) => {
  useSignals();
  const t = useT();
  const s = m.state.value;
  const lang = language.value;
  const chart = m.chart.value;
  // New arrays only when the answer or the language changes: uPlot rebuilds on new data only.
  const d = useMemo(() => (s._tag === 'Ready' ? drawn(t, m, s.data) : null), [s, lang, m, t]);
  if (s._tag === 'Loading') {
    return (
      <div className="chart-state" aria-busy="true">
        <span className="muted">{t('MsgLoading')}</span>
      </div>
    );
  }
  if (s._tag === 'Failed') {
    return (
      <div className="chart-state" role="alert">
        <Icon name="alert" /> {t('MsgChartFailed', { message: s.error instanceof Error ? s.error.message : String(s.error) })}
      </div>
    );
  }
  if (!d || !chart || d.categories.length === 0) {
    return (
      <div className="chart-state">
        <span className="muted">{t('MsgChartEmpty')}</span>
      </div>
    );
  }
  const picked = m.pickedIndex.value;
  return (
    <>
      <UplotChart
        type={chart.type}
        categories={d.categories}
        series={d.series}
        legend
        ariaLabel={d.series.map((x) => x.label).join(', ')}
        onPick={m.pickAt}
        picked={picked >= 0 ? picked : null}
      />
      <div className="chart-foot" aria-live="polite">
        {picked >= 0 ? (
          <>
            <span>{t('MsgChartPicked', { label: d.categories[picked] })}</span>
            <button type="button" className="btn btn-plain" onClick={m.clearPick}>
              <Icon name="close" /> {t('LblClear')}
            </button>
          </>
        ) : (
          <span className="muted small">{t('MsgChartHint')}</span>
        )}
        {s.data.truncated && <span className="muted small">{t('MsgChartTruncated', { n: CHART_MAX_GROUPS })}</span>}
      </div>
    </>
  );
};

export default ChartView;
