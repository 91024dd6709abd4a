import { useEffect, useMemo } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { COMMUNITY_SCORE_FIELDS, COMMUNITY_SCORE_MAX, COMMUNITY_SCORE_MIN, intlLocale } from '../core.js';
import { useApi } from '../api/context.js';
import { language, useT } from '../i18n.js';
import UplotChart, { type UplotSeries } from '../chart/uplot-chart.js';
import type { CustomPanelProps } from '../form/custom-panels.js';
import { chartSeries, communityChartModel, communityIdOf, SCORE_LABEL } from './community-chart-model.js';

/** The chart's fixed scale (spec 002 section 9: 0 to 5). */
const SCALE = [COMMUNITY_SCORE_MIN, COMMUNITY_SCORE_MAX] as const;
/** The series colours: the evaluation in the accent, the average in a teal that reads in both themes. */
const CURRENT_COLOR = '#4f46e5';
const AVERAGE_COLOR = '#0f9d8a';

/**
 * The community evaluation chart panel (customComponent `communitychart`): bars of the eight
 * scores being edited (they follow the form's fields at once) beside the community's average,
 * on a 0 to 5 scale, with the same numbers in a table below.
 */
export const CommunityChartPanel = ({ panel, ctx }: CustomPanelProps) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const model = useMemo(() => communityChartModel({ api }), [api]);
  const communityId = communityIdOf(ctx.record.communityid);
  useEffect(() => void model.load(communityId, ctx.recordId), [model, communityId, ctx.recordId]);

  const state = model.state.value;
  const others = model.others.value;
  const scores = COMMUNITY_SCORE_FIELDS.map((f) => ctx.record[f]);
  // The series change only when a score or the community's evaluations change (new arrays rebuild the plot).
  const series = useMemo(() => chartSeries(ctx.record, state._tag === 'Ready' ? others : []), [...scores, others, state._tag]);
  const lang = language.value;
  const categories = useMemo(() => COMMUNITY_SCORE_FIELDS.map((f) => t(SCORE_LABEL[f])), [t, lang]);
  const withAverage = state._tag === 'Ready';
  const uplotSeries = useMemo<UplotSeries[]>(
    () => [
      { label: t('CommunityThisEvaluation'), color: CURRENT_COLOR, values: series.current },
      ...(withAverage ? [{ label: t('CommunityAverage'), color: AVERAGE_COLOR, values: series.average }] : []),
    ],
    [series, withAverage, t, lang],
  );
  const number = useMemo(() => new Intl.NumberFormat(intlLocale(lang), { maximumFractionDigits: 2 }), [lang]);

  return (
    <section className="panel community-chart" aria-label={panel.label ?? t('CommunityChartLabel')}>
      {panel.label && <h2 className="panel-title">{panel.label}</h2>}
      {/* The legend in full: the chart's own cuts labels to 10 characters (a rule of the list's charts). */}
      <ul className="chart-legend community-legend">
        {uplotSeries.map((s) => (
          <li key={s.label}>
            <i className="chart-swatch" style={{ background: s.color }} aria-hidden="true" />
            {s.label}
          </li>
        ))}
      </ul>
      <UplotChart type="bar" categories={categories} series={uplotSeries} ariaLabel={t('CommunityChartLabel')} yRange={SCALE} legend={false} height={260} formatValue={(v) => number.format(v)} />
      {state._tag === 'NoCommunity' && <p className="muted small">{t('CommunityChooseCommunity')}</p>}
      {state._tag === 'Loading' && <p className="muted small">{t('MsgLoading')}</p>}
      {state._tag === 'Failed' && (
        <p className="notice error-text" role="alert">
          {t('CommunityAverageFailed', { error: state.error })}
        </p>
      )}
      <table className="community-scores">
        <thead>
          <tr>
            <th scope="col" />
            <th scope="col" className="num">
              {t('CommunityThisEvaluation')}
            </th>
            {withAverage && (
              <th scope="col" className="num">
                {t('CommunityAverage')}
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {COMMUNITY_SCORE_FIELDS.map((f, i) => (
            <tr key={f} data-field={f}>
              <th scope="row">{categories[i]}</th>
              <td className="num">{number.format(series.current[i])}</td>
              {withAverage && <td className="num community-average">{series.average[i] === null ? '–' : number.format(series.average[i] as number)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
      {withAverage && <p className="muted small" data-testid="community-count">{t('CommunityEvaluationsCounted', { n: series.count })}</p>}
    </section>
  );
};

export default CommunityChartPanel;
