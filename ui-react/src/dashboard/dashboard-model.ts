import { computed, effect, signal, untracked, type ReadonlySignal } from '@preact/signals-react';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Caller, Chart, ChartData, Dashboard, DashboardFilter, DashboardObject, Entity, EntityRecord, Property, QuickFilterSelection } from '../core.js';
import { chartData, dashboardFilterOf, dashboardObjectQuery, figureOf, gaugePercent, initialDashboardSelection } from '../core.js';
import type { ApiClient } from '../api/client.js';

/**
 * A dashboard as a model of signals (spec 000 section 2; docs/ui.md "Dashboards"): its objects,
 * its filters with the user's selections, and what each data object shows (a number, a gauge, a
 * grid's rows, a chart's series). Every figure is an aggregate query of the API's fetch: the
 * server adds up, never the browser. A change of a selection reloads only the objects whose query
 * changed (the filters of one entity do not reload another entity's objects). Query failures are
 * collected per load and handed to `onFailed` once (the screen alerts their messages).
 */

export type DashboardApi = Pick<ApiClient, 'fetch'>;
/** Where the dashboard keeps the selections for the browser session. */
export type DashboardMemory = { get(key: string): string | null; set(key: string, value: string): void };

/** What a data object shows now. */
export type ObjectState =
  | { readonly _tag: 'Loading' }
  | { readonly _tag: 'Failed'; readonly message: string }
  /** `property`: the aggregated field, for formatting (money, decimals); none for counts */
  | { readonly _tag: 'Number'; readonly value: number | null; readonly property?: Property }
  | { readonly _tag: 'Gauge'; readonly first: number | null; readonly second: number | null; readonly percent: number | null; readonly property?: Property }
  | { readonly _tag: 'Grid'; readonly entity: string; readonly columns: readonly string[]; readonly rows: readonly EntityRecord[]; readonly count: number | null }
  | { readonly _tag: 'Chart'; readonly entity: string; readonly chart: Chart; readonly data: ChartData }
  | { readonly _tag: 'None'; readonly reason: 'label' | 'filter' | 'no-query' };

export type DashboardModelOptions = {
  api: DashboardApi;
  /** the dashboard's name (the key of its remembered selections) */
  name: string;
  /** the dashboard with its objects given by reference resolved; read through a function so a metadata refresh reloads it */
  dashboard: () => Dashboard;
  entityOf: (name: string) => Entity | undefined;
  caller: () => Caller;
  memory?: DashboardMemory;
  now?: () => Date;
  timeZone?: string;
  /** the queries that failed in one load: each message once, with the first error that said it */
  onFailed?: (failures: Array<{ message: string; error: unknown }>) => void;
  /** runs an object's loaderScript (issue 16: ui-react/src/scripts/loader-script.ts); without it the query is used */
  loader?: (o: DashboardObject, selections: Record<string, QuickFilterSelection>) => Promise<ObjectState>;
};

export type DashboardModel = ReturnType<typeof dashboardModel>;

export const selectionsKey = (name: string) => `tessera.dashboard.${name}`;

type Plan = ReturnType<typeof dashboardObjectQuery>;

/** The entity whose records a plan reads (none for labels, filters and objects without a query). */
const entityOfPlan = (q: Plan): string | undefined => {
  if (isLeft(q)) return undefined;
  const p = q.right;
  switch (p._tag) {
    case 'None':
      return undefined;
    case 'Gauge':
      return p.first.request.entity.name;
    default:
      return p.request.entity.name;
  }
};

/** A failure's message as the alert shows it: the server's text, else the thrown value. */
const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The field an aggregate column adds up (for its format), unless it counts. */
const aggregatedProperty = (o: DashboardObject, key: string, entityOf: (n: string) => Entity | undefined): Property | undefined => {
  const a = o.query?.attributes?.find((x) => (x.alias ?? x.attribute) === key);
  if (!a || a.aggregate === 'count' || a.aggregate === 'countdistinct') return undefined;
  return entityOf(o.query?.name ?? '')?.properties.find((p) => p.logicalName === a.attribute);
};

export const dashboardModel = ({
  api,
  name,
  dashboard: dashboardOf,
  entityOf,
  caller,
  memory,
  now = () => new Date(),
  timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone,
  onFailed,
  loader,
}: DashboardModelOptions) => {
  const dashboard = computed(dashboardOf);
  const objects = computed(() => dashboard.value.objects);
  const filters = computed((): DashboardFilter[] => objects.value.filter((o) => o.kind === 'filter').map((o) => dashboardFilterOf(o, entityOf)));

  const remembered = (): Record<string, QuickFilterSelection> => {
    try {
      return JSON.parse(memory?.get(selectionsKey(name)) ?? '{}') as Record<string, QuickFilterSelection>;
    } catch {
      return {};
    }
  };
  const stored = remembered();
  const selections = signal<Record<string, QuickFilterSelection>>(
    Object.fromEntries(untracked(() => filters.value).map((f) => [f.object.name, Object.hasOwn(stored, f.object.name) ? stored[f.object.name] : initialDashboardSelection(f)])),
  );
  const states = signal<Readonly<Record<string, ObjectState>>>({});

  /** The request(s) each data object runs for the current selections (compared as JSON with the last load). */
  const plans = computed((): Array<{ object: DashboardObject; query: Plan }> => {
    const ctx = { reference: now(), timeZone, placeholders: { userid: caller().userId }, filters: filters.value, selections: selections.value };
    return objects.value.map((o) => ({ object: o, query: dashboardObjectQuery(o, ctx) }));
  });

  const loadedKeys = new Map<string, string>();
  const perObject = new Map<string, number>();

  const setState = (objectName: string, s: ObjectState) => {
    states.value = { ...states.value, [objectName]: s };
  };

  /** Runs one object's plan; answers its failure, if it failed. */
  const run = async (o: DashboardObject, q: Plan, n: number): Promise<{ message: string; error: unknown } | null> => {
    const mine = () => perObject.get(o.name) === n;
    try {
      if (o.loaderScript && loader) {
        const s = await loader(o, selections.value);
        if (mine()) setState(o.name, s);
        return null;
      }
      if (isLeft(q)) throw new Error(q.left.message);
      const plan = q.right;
      switch (plan._tag) {
        case 'None':
          setState(o.name, { _tag: 'None', reason: plan.reason });
          return null;
        case 'Number': {
          const a = await api.fetch(plan.request);
          if (mine()) setState(o.name, { _tag: 'Number', value: figureOf(a.records, plan.key), property: aggregatedProperty(o, plan.key, entityOf) });
          return null;
        }
        case 'Gauge': {
          const same = plan.first.request === plan.second.request;
          const [a, b] = await Promise.all([api.fetch(plan.first.request), same ? null : api.fetch(plan.second.request)]);
          const first = figureOf(a.records, plan.first.key);
          const second = figureOf((b ?? a).records, plan.second.key);
          if (mine()) setState(o.name, { _tag: 'Gauge', first, second, percent: gaugePercent(first, second), property: aggregatedProperty(o, plan.first.key, entityOf) });
          return null;
        }
        case 'Grid': {
          const a = await api.fetch(plan.request);
          if (mine()) setState(o.name, { _tag: 'Grid', entity: plan.request.entity.name, columns: plan.columns, rows: a.records as EntityRecord[], count: a.count });
          return null;
        }
        case 'Chart': {
          const a = await api.fetch(plan.request);
          if (mine()) setState(o.name, { _tag: 'Chart', entity: plan.request.entity.name, chart: plan.chart, data: chartData(plan.chart, a.records, a.moreRecords) });
          return null;
        }
      }
    } catch (e) {
      const message = messageOf(e);
      if (!mine()) return null;
      setState(o.name, { _tag: 'Failed', message });
      return { message, error: e };
    }
  };

  const keyOf = (q: Plan): string => JSON.stringify(q);

  /**
   * Loads the objects whose query changed since they were last loaded (all of them with `force`,
   * or those of one entity with `entity`). Failures of this load are reported once, together.
   */
  const load = async (options: { force?: boolean; entity?: string } = {}): Promise<void> => {
    const loading: Record<string, ObjectState> = {};
    const todo: Array<{ o: DashboardObject; q: Plan; n: number }> = [];
    for (const { object: o, query: q } of plans.value) {
      const key = keyOf(q);
      if (options.entity !== undefined) {
        if (entityOfPlan(q) !== options.entity) continue;
      } else if (!options.force && loadedKeys.get(o.name) === key && states.value[o.name]?._tag !== 'Failed') continue;
      loadedKeys.set(o.name, key);
      const n = (perObject.get(o.name) ?? 0) + 1;
      perObject.set(o.name, n);
      // A reload keeps the figures shown until the answer (no flicker); a first load shows loading.
      if (entityOfPlan(q) !== undefined && states.value[o.name] === undefined) loading[o.name] = { _tag: 'Loading' };
      todo.push({ o, q, n });
    }
    if (Object.keys(loading).length > 0) states.value = { ...states.value, ...loading };
    const failures = (await Promise.all(todo.map(({ o, q, n }) => run(o, q, n)))).filter((f) => f !== null);
    const once = [...new Map(failures.map((f) => [f.message, f])).values()];
    if (once.length > 0) onFailed?.(once);
  };

  /** Follows the selections and the metadata: loads what changed. Answers the stop function. */
  const start = (): (() => void) => {
    const stopLoading = effect(() => {
      void plans.value;
      untracked(() => void load());
    });
    const stopRemembering = effect(() => memory?.set(selectionsKey(name), JSON.stringify(selections.value)));
    return () => {
      stopLoading();
      stopRemembering();
      // Answers still on their way are dropped.
      for (const k of perObject.keys()) perObject.set(k, (perObject.get(k) ?? 0) + 1);
    };
  };

  const select = (filterName: string, selection: QuickFilterSelection) => {
    selections.value = { ...selections.value, [filterName]: selection };
  };

  /** The entities whose records the dashboard shows (to follow their changes on the server). */
  const entities = computed(() => [...new Set(plans.value.flatMap(({ query: q }) => entityOfPlan(q) ?? []))]);

  return {
    dashboard,
    objects,
    filters,
    selections: selections as ReadonlySignal<Record<string, QuickFilterSelection>>,
    states: states as ReadonlySignal<Readonly<Record<string, ObjectState>>>,
    entities,
    start,
    load,
    /** Loads again everything (Refresh). */
    refresh: () => load({ force: true }),
    /** A record of `entity` changed on the server: its objects load again. */
    serverChanged: (entity: string) => load({ entity }),
    select,
  };
};
