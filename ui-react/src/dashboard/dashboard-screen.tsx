import { useSignals } from '@preact/signals-react/runtime';
import { lazy, Suspense, useEffect, useMemo, type CSSProperties } from 'react';
import { useParams } from 'react-router';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Dashboard as DashboardT, DashboardObject, InuViewRecord } from '../core.js';
import { cssClassesOf, Dashboard, dashboardGridCss, gridAreaCss, gridPlacement, resolveDashboardObjects, stackingOrder } from '../core.js';
import { useApi } from '../api/context.js';
import { ServerError } from '../api/client.js';
import { useT } from '../i18n.js';
import { caller, entityOf, guiObjects, parsedBody } from '../state/session.js';
import { session as sessionStore } from '../state/storage.js';
import { objectChangedEvent } from '../state/realtime.js';
import { alertDialog } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import { useShell } from '../shell/shell-context.js';
import { dashboardModel, type DashboardModel } from './dashboard-model.js';
import { FilterObject, GaugeObject, GridObject, NumberObject, ObjectFailed, ObjectLoading } from './dashboard-objects.js';
import { useDashboardLoader } from '../scripts/script-ui.js';

/** The chart object draws with uPlot: loaded when a dashboard has a chart. */
const ChartObject = lazy(() => import('./dashboard-chart.js'));

/** A server change of a shown entity reloads its objects after this pause (a burst reloads once). */
const REFRESH_DELAY_MS = 300;

/** The dashboard record of a name: the one of the current app first, then any the user may see. */
const dashboardRecord = (name: string, app: string): InuViewRecord | undefined => {
  const all = guiObjects('dashboard').filter((g) => g.name === name);
  return all.find((g) => g.appid?.label === app) ?? all[0];
};

/** A stored simplechart, grid or label object named by a dashboard (objects by reference). */
const storedObject = (kind: DashboardObject['kind'], name: string): unknown => {
  const g = guiObjects(kind).find((x) => x.name === name);
  return g ? parsedBody(g) : undefined;
};

/** /{appid}/dashboard/{name} (spec 000 section 2): a fresh screen per dashboard. */
export const DashboardRoute = () => {
  const { name = '' } = useParams();
  return <DashboardPage key={name} name={name} />;
};

const DashboardPage = ({ name }: { name: string }) => {
  useSignals();
  const t = useT();
  const { app } = useShell();
  const record = dashboardRecord(name, app);
  if (!record) return <p className="empty" role="alert">{t('MsgObjectNotFound', { name })}</p>;
  const body = Dashboard.decode(parsedBody(record));
  if (isLeft(body)) {
    const where = body.left[0]?.context.map((c) => c.key).filter(Boolean).join('.') ?? '';
    return <p className="empty" role="alert">{t('MsgDashboardInvalid', { message: where || name })}</p>;
  }
  return <DashboardScreen name={name} title={body.right.label ?? record.label ?? name} />;
};

/** The dashboard as the metadata has it now, its objects by reference filled in (read inside the model's computed: a refresh follows). */
const currentDashboard = (name: string, app: string): DashboardT => {
  const record = dashboardRecord(name, app);
  const body = record ? Dashboard.decode(parsedBody(record)) : undefined;
  const d: DashboardT = body && !isLeft(body) ? body.right : { objects: [] };
  return { ...d, objects: resolveDashboardObjects(d, storedObject) };
};

const DashboardScreen = ({ name, title }: { name: string; title: string }) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const { app, appParam } = useShell();
  const loader = useDashboardLoader();
  const model = useMemo(
    () =>
      dashboardModel({
        api,
        name,
        dashboard: () => currentDashboard(name, app),
        entityOf: (n) => entityOf(n),
        caller: () => caller.value!,
        memory: sessionStore,
        loader,
        // Spec 000 section 8: a query that fails to load alerts its message (a lost session is the inactivity popup's).
        onFailed: (failures) => {
          const shown = failures.filter((f) => !(f.error instanceof ServerError && f.error.status === 401));
          if (shown.length > 0) void alertDialog(shown.map((f) => f.message).join('\n'), t('CmdOk'));
        },
      }),
    [api, name, app, loader],
  );
  useEffect(() => model.start(), [model]);
  useServerChanges(model, model.entities.value);

  const d = model.dashboard.value;
  const objects = model.objects.value;
  const order = useMemo(() => {
    const o = stackingOrder(objects);
    const rank = new Array<number>(objects.length);
    o.forEach((index, position) => (rank[index] = position));
    return rank;
  }, [objects]);
  return (
    <div className="screen dashboard-screen">
      <div className="screen-head">
        <div className="title-row">
          <h1 className="screen-title">{title}</h1>
        </div>
        <div className="command-bar">
          <button type="button" className="btn btn-plain icon-only" aria-label={t('CmdRefresh')} title={t('CmdRefresh')} onClick={() => void model.refresh()}>
            <Icon name="refresh" />
          </button>
        </div>
      </div>
      {objects.length === 0 ? (
        <p className="empty">{t('MsgDashboardEmpty')}</p>
      ) : (
        <div className="dashboard-grid" style={dashboardGridCss(d) as CSSProperties}>
          {objects.map((o, i) => (
            <DashboardPart key={`${o.kind}:${o.name}:${i}`} model={model} object={o} order={order[i]} appParam={appParam} />
          ))}
        </div>
      )}
    </div>
  );
};

/** Reloads the objects of an entity when its records change on the server (the realtime stream). */
const useServerChanges = (model: DashboardModel, entities: readonly string[]) => {
  useEffect(() => {
    const timers = new Map<string, ReturnType<typeof setTimeout>>();
    const listeners = entities.map((e) => {
      const on = () => {
        clearTimeout(timers.get(e));
        timers.set(e, setTimeout(() => void model.serverChanged(e), REFRESH_DELAY_MS));
      };
      window.addEventListener(objectChangedEvent(e), on);
      return () => window.removeEventListener(objectChangedEvent(e), on);
    });
    return () => {
      listeners.forEach((off) => off());
      timers.forEach((h) => clearTimeout(h));
    };
  }, [model, entities.join(',')]);
};

/** One object in its grid area: a label, a filter, a number, a gauge, a chart or a grid. */
const DashboardPart = ({ model, object: o, order, appParam }: { model: DashboardModel; object: DashboardObject; order: number; appParam: string }) => {
  useSignals();
  const t = useT();
  const state = model.states.value[o.name];
  const style = { gridArea: gridAreaCss(gridPlacement(o.gridArea)), order } as CSSProperties;
  const classes = ['dash-object', `dash-${o.kind}`, ...(o.type ? [`dash-type-${o.type}`] : []), ...cssClassesOf(o)].join(' ');
  const headingId = `dash-${o.name}-label`;
  if (o.kind === 'label')
    return (
      <div className={classes} style={style}>
        <h2 className="dash-label-text">{o.label ?? o.name}</h2>
      </div>
    );
  if (o.kind === 'filter') {
    const f = model.filters.value.find((x) => x.object === o);
    return (
      <div className={classes} style={style}>
        {f && <FilterObject filter={f} value={model.selections.value[o.name] ?? null} onChange={(v) => model.select(o.name, v)} />}
      </div>
    );
  }
  const body = () => {
    if (!state || state._tag === 'Loading') return <ObjectLoading />;
    switch (state._tag) {
      case 'Failed':
        return <ObjectFailed message={state.message} />;
      case 'Number':
        return <NumberObject value={state.value} property={state.property} />;
      case 'Gauge':
        return <GaugeObject state={state} label={o.label ?? o.name} />;
      case 'Grid':
        return <GridObject state={state} appParam={appParam} />;
      case 'Chart':
        return (
          <Suspense fallback={<ObjectLoading />}>
            <ChartObject state={state} label={o.label ?? o.name} />
          </Suspense>
        );
      case 'None':
        return <p className="muted small">{t('MsgNoRecords')}</p>;
    }
  };
  return (
    <section className={classes} style={style} aria-labelledby={headingId} aria-busy={!state || state._tag === 'Loading'}>
      <h2 className="dash-object-label" id={headingId}>
        {o.label ?? o.name}
      </h2>
      {body()}
    </section>
  );
};
