import { batch, computed, effect, signal, untracked, type ReadonlySignal } from '@preact/signals-react';
import { isRight } from 'fp-ts/lib/Either.js';
import type { Caller, Chart, ChartAggregate, ChartData, ChartGrouping, Entity, InuViewRecord, Property } from '../core.js';
import {
  aggregatesFor,
  Chart as ChartCodec,
  chartData,
  chartFields,
  chartName,
  chartRequest,
  groupingsFor,
  hasFlag,
  mayAccessSome,
  pickFilter,
  uniqueChartName,
} from '../core.js';
import type { ApiClient } from '../api/client.js';
import type { ListModel } from '../list/list-model.js';

/**
 * The chart mode of a list (spec 001 sections 2 and 9) as a model of signals: the chart shown (a
 * saved chart of the entity, or one the user builds from the Y field and aggregate, the X field
 * and grouping, bar or line), its data (one aggregate query derived from the list's current
 * request, so quick filters and search apply; the database aggregates), the picked bar (a
 * condition on the list; the same bar again clears it) and Save as a view. No DOM: tested in
 * vitest against the core's in-memory store.
 */

export type ChartApi = Pick<ApiClient, 'fetch' | 'update'>;
/** The list model as far as the chart needs it. */
export type ChartList = Pick<ListModel, 'entity' | 'currentRequest' | 'setPick' | 'pick'>;

/** A saved chart of the entity (inu_view kind chart). */
export type SavedChart = { name: string; label: string; body: Chart };

/** The saved charts of an entity among the user context's inu_view objects, with bodies that decode. */
export const savedChartsOf = (entity: string, gui: readonly InuViewRecord[], parse: (g: InuViewRecord) => unknown): SavedChart[] =>
  gui
    .filter((g) => g.kind === 'chart' && g.objectname === entity)
    .flatMap((g) => {
      const d = ChartCodec.decode(parse(g));
      return isRight(d) ? [{ name: g.name, label: g.label || d.right.label || g.name, body: d.right }] : [];
    });

/**
 * The chart a list opens with when there is no saved one: the count of records by the first
 * option set (else the first lookup, else the first field a chart can group by).
 */
export const defaultChart = (entity: Entity): Chart | null => {
  const { x } = chartFields(entity);
  const optionSet = x.find((p) => hasFlag(p, 'OptionSet') || (p.type === 'Integer' && (p.options?.length ?? 0) > 0) || (p.richOptions?.length ?? 0) > 0);
  const lookup = x.find((p) => p.type === 'Lookup');
  const field = optionSet ?? lookup ?? x[0];
  const id = entity.properties.find((p) => p.type === 'Guid') ?? entity.properties[0];
  if (!field || !id) return null;
  return { type: 'bar', series: [{ aggregateField: id.logicalName, aggregateMethod: 'count' }], groups: [{ field: field.logicalName, method: 'column' }] };
};

export type ChartState =
  | { _tag: 'Loading' }
  | { _tag: 'Ready'; data: ChartData }
  | { _tag: 'Failed'; error: unknown };

export type SaveResult = { _tag: 'Saved'; name: string } | { _tag: 'Failed'; error: unknown };

export type ChartModelOptions = {
  api: ChartApi;
  list: ChartList;
  /** the entity's saved charts (followed: a metadata refresh updates the picker) */
  saved: () => readonly SavedChart[];
  caller: () => Caller;
};

export type ChartModel = ReturnType<typeof chartModel>;

export const chartModel = ({ api, list, saved: savedOf, caller }: ChartModelOptions) => {
  const entity = list.entity;
  const props = computed(() => new Map(entity.value.properties.map((p) => [p.logicalName, p])));
  /** Charts saved in this screen before the user context has them. */
  const added = signal<SavedChart[]>([]);
  const saved = computed(() => {
    const known = savedOf();
    return [...known, ...added.value.filter((a) => !known.some((k) => k.name === a.name))];
  });
  const first = untracked(() => saved.value[0]);
  /** The saved chart shown, or '' when the user built or changed it. */
  const chosen = signal(first?.name ?? '');
  const chart = signal<Chart | null>(first?.body ?? untracked(() => defaultChart(entity.value)));
  const state = signal<ChartState>({ _tag: 'Loading' });
  /** The key of the picked bar's category (it survives a reload of the same chart). */
  const pickedKey = signal<string | null>(null);
  const saving = signal(false);

  const fields = computed(() => chartFields(entity.value));
  const y = computed(() => chart.value?.series[0]);
  const x = computed(() => chart.value?.groups[0]);
  const yProperty = computed((): Property | undefined => (y.value ? props.value.get(y.value.aggregateField) : undefined));
  const xProperty = computed((): Property | undefined => (x.value ? props.value.get(x.value.field) : undefined));
  const aggregates = computed(() => (yProperty.value ? aggregatesFor(yProperty.value) : []));
  const groupings = computed(() => (xProperty.value ? groupingsFor(xProperty.value) : []));
  /** Save as a view needs create on inu_view (spec 001 section 1: views are inu_view records). */
  const canSave = computed(() => mayAccessSome(caller(), 'create', 'inu_view'));
  const pickedIndex = computed(() => {
    const s = state.value;
    return s._tag === 'Ready' && pickedKey.value !== null ? s.data.categories.findIndex((c) => c.key === pickedKey.value) : -1;
  });

  const clearPick = () => {
    if (pickedKey.value === null) return;
    batch(() => {
      pickedKey.value = null;
      list.setPick(null);
    });
  };

  /** Changes the chart being shown: the pick belongs to the old one and goes. */
  const show = (next: Chart, name = '') => {
    batch(() => {
      chart.value = next;
      chosen.value = name;
      clearPick();
    });
  };

  let seq = 0;
  /** Runs the chart's aggregate query over the list's records (without the chart's own pick). */
  const load = async (): Promise<void> => {
    const c = chart.value;
    const n = ++seq;
    if (!c) {
      state.value = { _tag: 'Ready', data: { categories: [], lines: [], truncated: false } };
      return;
    }
    const current = list.currentRequest({ withoutPick: true });
    if (current._tag === 'NoResults') {
      state.value = { _tag: 'Ready', data: chartData(c, []) };
      return;
    }
    if (state.value._tag !== 'Ready') state.value = { _tag: 'Loading' };
    try {
      const res = await api.fetch(chartRequest(c, current.request.entity));
      if (n !== seq) return;
      state.value = { _tag: 'Ready', data: chartData(c, res.records, res.moreRecords) };
    } catch (error) {
      if (n === seq) state.value = { _tag: 'Failed', error };
    }
  };

  /** Loads now and whenever the chart or the list's query (view, quick filters, search) changes. */
  const start = (): (() => void) => {
    // The list's pick cleared elsewhere (Show all, another mode) un-picks the bar.
    const stopSync = effect(() => {
      if (list.pick.value === null && untracked(() => pickedKey.value) !== null) pickedKey.value = null;
    });
    const stop = effect(() => {
      void chart.value;
      // Reading the request follows the signals it is made of.
      void list.currentRequest({ withoutPick: true });
      untracked(() => void load());
    });
    return () => {
      stop();
      stopSync();
      seq++;
      // The chart leaves the screen (another view or mode): its pick no longer filters the list.
      clearPick();
    };
  };

  const choose = (name: string) => {
    const s = saved.value.find((c) => c.name === name);
    if (s) show(s.body, s.name);
  };

  /**
   * The pickers: Y field and aggregate, X field and grouping, bar or line. A new Y or X makes the
   * chart the one series and one group the pickers show (what is saved is what the pickers say);
   * bar or line alone keeps a saved chart's series, colours and groups.
   */
  const edit = (patch: { yField?: string; aggregate?: ChartAggregate; xField?: string; grouping?: ChartGrouping; type?: Chart['type'] }) => {
    const c = chart.value;
    if (!c) return;
    const type = patch.type ?? c.type;
    if (patch.yField === undefined && patch.aggregate === undefined && patch.xField === undefined && patch.grouping === undefined) {
      show({ ...c, type }, type === c.type ? chosen.value : '');
      return;
    }
    const { color: _c, label: _l, ...first } = c.series[0] ?? { aggregateField: 'id', aggregateMethod: 'count' as const };
    let series = first;
    let group = c.groups[0] ?? { field: fields.value.x[0]?.logicalName ?? '', method: 'column' as const };
    if (patch.yField !== undefined) {
      const p = props.value.get(patch.yField);
      const allowed = p ? aggregatesFor(p) : [];
      series = { aggregateField: patch.yField, aggregateMethod: allowed.includes(series.aggregateMethod) ? series.aggregateMethod : (allowed[0] ?? 'count') };
    }
    if (patch.aggregate !== undefined) series = { ...series, aggregateMethod: patch.aggregate };
    if (patch.xField !== undefined) {
      const p = props.value.get(patch.xField);
      const allowed = p ? groupingsFor(p) : [];
      // A date groups by month unless a date grouping was already chosen (by column, every instant is a bar).
      const method = allowed.includes('month') ? (group.method !== 'column' ? group.method : 'month') : 'column';
      group = { field: patch.xField, method };
    }
    if (patch.grouping !== undefined) group = { ...group, method: patch.grouping };
    show({ type, series: [series], groups: [group] });
  };

  /** Spec 001 section 2: clicking a bar filters the list; clicking it again clears the filter. */
  const pickAt = (index: number) => {
    const s = state.value;
    const c = chart.value;
    if (s._tag !== 'Ready' || !c) return;
    const category = s.data.categories[index];
    if (!category) return;
    if (pickedKey.value === category.key) {
      clearPick();
      return;
    }
    const f = pickFilter(c.groups[0], category.value);
    if (!f) return;
    batch(() => {
      pickedKey.value = category.key;
      list.setPick(f);
    });
  };

  /**
   * Saves the chart shown as an inu_view record of kind chart (spec 001 section 9: named from the Y
   * and X display names without spaces; a name taken by another chart of the entity gets a number).
   */
  const save = async (): Promise<SaveResult> => {
    const c = chart.value;
    const yp = yProperty.value;
    const xp = xProperty.value;
    if (!c || !yp || !xp) return { _tag: 'Failed', error: new Error('No chart') };
    const name = uniqueChartName(chartName(yp.displayName, xp.displayName), new Set(saved.value.map((s) => s.name)));
    saving.value = true;
    try {
      await api.update('create', 'inu_view', { name, label: name, kind: 'chart', objectname: entity.value.logicalName, body: JSON.stringify(ChartCodec.encode(c)) });
      batch(() => {
        added.value = [...added.value, { name, label: name, body: c }];
        chosen.value = name;
      });
      return { _tag: 'Saved', name };
    } catch (error) {
      return { _tag: 'Failed', error };
    } finally {
      saving.value = false;
    }
  };

  return {
    saved,
    chosen: chosen as ReadonlySignal<string>,
    chart: chart as ReadonlySignal<Chart | null>,
    state: state as ReadonlySignal<ChartState>,
    /** the entity's fields by name (labels of a saved chart's series and groups) */
    properties: props,
    fields,
    yProperty,
    xProperty,
    aggregates,
    groupings,
    canSave,
    saving: saving as ReadonlySignal<boolean>,
    pickedIndex,
    start,
    load,
    choose,
    edit,
    pickAt,
    clearPick,
    save,
  };
};
