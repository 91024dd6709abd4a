import { useEffect, useMemo, useRef, useState } from 'react';
import { useT } from '../i18n.js';
import { entityOf } from '../state/session.js';
import { drawnChart } from '../chart/chart-labels.js';
import { UplotChart } from '../chart/uplot-chart.js';
import type { ObjectState } from './dashboard-model.js';

/**
 * A chart object of a dashboard: the answer of the chart module's aggregate query (chartData)
 * with the list chart's labels (drawnChart) drawn by its component (uPlot). Loaded on demand: a
 * dashboard without charts does not load uPlot.
 */

/** The room of the legend above the plot (shown with more than one series). */
const LEGEND_ROOM = 30;
const MIN_PLOT = 160;

/** The height of a box, followed as its grid area grows or shrinks (`shown`: whether the box is drawn now). */
const useBoxHeight = (shown: boolean): [React.RefObject<HTMLDivElement | null>, number] => {
  const ref = useRef<HTMLDivElement>(null);
  const [h, setH] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setH(Math.round(el.clientHeight)));
    ro.observe(el);
    return () => ro.disconnect();
  }, [shown]);
  return [ref, h];
};

const DashboardChart = ({ state, label }: { state: ObjectState & { _tag: 'Chart' }; label: string }) => {
  const t = useT();
  const { chart, data } = state;
  // Memoized: the chart rebuilds its plot only when what it draws changes.
  const drawn = useMemo(() => drawnChart(t, chart, new Map((entityOf(state.entity)?.properties ?? []).map((p) => [p.logicalName, p])), data), [state, t]);
  // The chart fills its grid area (which the other objects of its rows size), at least MIN_PLOT high.
  const [box, boxHeight] = useBoxHeight(data.categories.length > 0);
  const height = Math.max(MIN_PLOT, boxHeight - (drawn.series.length > 1 ? LEGEND_ROOM : 0));
  if (data.categories.length === 0) return <p className="muted small dash-empty">{t('MsgChartEmpty')}</p>;
  return (
    <div className="dash-chart" ref={box}>
      <UplotChart type={chart.type} categories={drawn.categories} series={drawn.series} ariaLabel={label} height={height} />
    </div>
  );
};

export default DashboardChart;
