import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { Entity, EntityRecord, FieldValue, FormField, Panel } from '../core.js';
import { associatedListTarget, DEFAULT_MIN_COLUMN_WIDTH, DEFAULT_SPLIT_SIZES, FIELD_SEPARATOR, hasFlag, SPLIT_BREAKPOINT } from '../core.js';
import { useApi } from '../api/context.js';
import { useT } from '../i18n.js';
import { formatValue } from '../format.js';
import { entityOf } from '../state/session.js';
import { objectChangedEvent } from '../state/realtime.js';
import { Icon } from '../ui/icons.js';
import { FieldEditor } from './editors.js';

/** What every panel needs from the form. */
export type PanelContext = {
  entity: Entity;
  record: EntityRecord;
  isNew: boolean;
  readOnly: boolean;
  appParam: string;
  missing: ReadonlySet<string>;
  setValue: (field: string, v: FieldValue) => void;
  /** Wizard: move to the next step (saves first). */
  onWizardStep?: (panel: Panel, index: number) => Promise<boolean>;
};

/** The width of an element, followed as it changes. */
const useWidth = <E extends HTMLElement>(): [React.RefObject<E | null>, number] => {
  const ref = useRef<E>(null);
  const [w, setW] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver((entries) => setW(entries[0]?.contentRect.width ?? 0));
    ro.observe(el);
    setW(el.getBoundingClientRect().width);
    return () => ro.disconnect();
  }, []);
  return [ref, w];
};

const FieldRow = ({ f, ctx }: { f: FormField; ctx: PanelContext }) => {
  const t = useT();
  if (f.name === FIELD_SEPARATOR) return <hr className="field-sep" style={{ gridColumn: '1 / -1' }} />;
  const p = ctx.entity.properties.find((x) => x.logicalName === f.name);
  if (!p) return <p className="error-text small">{t('MsgFieldNotFound', { entity: ctx.entity.logicalName, field: f.name })}</p>;
  if (f.hidden) return null;
  const id = `f-${p.logicalName}`;
  const label = f.label ?? p.displayName;
  const required = f.required ?? hasFlag(p, 'Required');
  const invalid = ctx.missing.has(p.logicalName);
  const disabled = ctx.readOnly || f.disabled === true || hasFlag(p, 'AutoNumber');
  const hintId = f.tooltip ? `${id}-hint` : undefined;
  const style = { gridColumn: f.gridColumn, gridRow: f.gridRow };
  const wide = hasFlag(p, 'MultiLine') || hasFlag(p, 'Json');
  const isGroup = (p.options?.length ?? 0) > 0 || (p.richOptions?.length ?? 0) > 0 || p.type === 'Boolean';
  return (
    <div className={`field ${wide ? 'field-wide' : ''} ${invalid ? 'field-invalid' : ''} ${f.cssClass ?? ''}`} style={style} data-field={p.logicalName}>
      <label htmlFor={isGroup ? undefined : id} id={`${id}-label`}>
        {label}
        {required && (
          <span className="required" title={t('MsgRequired')} aria-hidden="true">
            *
          </span>
        )}
        {required && <span className="sr-only"> ({t('MsgRequired')})</span>}
      </label>
      <FieldEditor
        id={id}
        p={p}
        f={f}
        value={ctx.record[p.logicalName]}
        record={ctx.record}
        entityName={ctx.entity.logicalName}
        disabled={disabled}
        invalid={invalid}
        describedBy={hintId}
        label={label}
        onChange={(v) => ctx.setValue(p.logicalName, v)}
      />
      {f.tooltip && (
        <span className="hint" id={hintId}>
          {f.tooltip}
        </span>
      )}
    </div>
  );
};

/** Fields: two columns, one when the panel is narrower than minColumnWidth (default 400 px). */
const FieldsPanel = ({ panel, ctx }: { panel: Panel; ctx: PanelContext }) => {
  const [ref, width] = useWidth<HTMLDivElement>();
  const min = panel.minColumnWidth ?? DEFAULT_MIN_COLUMN_WIDTH;
  const one = width > 0 && width < min;
  return (
    <section className="panel panel-fields" aria-label={panel.label}>
      {panel.label && panel.showLabel !== false && <h2 className="panel-title">{panel.label}</h2>}
      <div ref={ref} className="field-grid" style={{ gridTemplateColumns: one ? '1fr' : (panel.gridColumns ?? 'repeat(2, minmax(0, 1fr))') }}>
        {(panel.fields ?? []).map((f, i) => (
          <FieldRow key={`${f.name}-${i}`} f={f} ctx={ctx} />
        ))}
      </div>
      {(panel.panels ?? []).map((p) => (
        <PanelView key={p.name} panel={p} ctx={ctx} />
      ))}
    </section>
  );
};

/** Tabs: Normal, or a Wizard with step numbers, Go back and Continue (spec 001 section 2). */
const TabsPanel = ({ panel, ctx }: { panel: Panel; ctx: PanelContext }) => {
  const t = useT();
  const tabs = panel.panels ?? [];
  // A wizard opens at the stored stage index (its progress).
  const stage = Number(ctx.record.process_stage_index);
  const [active, setActive] = useState(() => (panel.mode === 'Wizard' && Number.isInteger(stage) ? Math.max(0, Math.min(stage, (panel.panels?.length ?? 1) - 1)) : 0));
  const [counts, setCounts] = useState<Record<string, number>>({});
  const wizard = panel.mode === 'Wizard';
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const go = (i: number) => {
    const n = Math.max(0, Math.min(tabs.length - 1, i));
    setActive(n);
    refs.current[n]?.focus();
  };
  const current = tabs[active];
  const titleOf = (p: Panel) => {
    const base = p.label ?? p.name;
    return p.type === 'AssociatedList' && counts[p.name] !== undefined ? `${base} (${counts[p.name]})` : base;
  };
  return (
    <section className={`panel panel-tabs ${wizard ? 'wizard' : ''}`} aria-label={panel.label}>
      <div className="tablist" role="tablist" aria-label={panel.label ?? panel.name}>
        {tabs.map((p, i) => (
          <button
            key={p.name}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`tab-${panel.name}-${i}`}
            aria-selected={i === active}
            aria-controls={`tabpanel-${panel.name}-${i}`}
            tabIndex={i === active ? 0 : -1}
            className={`tab-btn ${i === active ? 'on' : ''} ${wizard && i < active ? 'done' : ''}`}
            onClick={() => (wizard ? undefined : setActive(i))}
            disabled={wizard && i > active}
            onKeyDown={(e) => {
              if (wizard) return;
              if (e.key === 'ArrowRight') go(i + 1);
              else if (e.key === 'ArrowLeft') go(i - 1);
              else if (e.key === 'Home') go(0);
              else if (e.key === 'End') go(tabs.length - 1);
            }}
          >
            {wizard && <span className="step-no">{i < active ? <Icon name="check" size={14} /> : i + 1}</span>}
            {titleOf(p)}
          </button>
        ))}
      </div>
      {tabs.map((p, i) => (
        <div key={p.name} role="tabpanel" id={`tabpanel-${panel.name}-${i}`} aria-labelledby={`tab-${panel.name}-${i}`} hidden={i !== active} className="tabpanel">
          {p.type === 'AssociatedList' ? (
            <AssociatedListPanel panel={p} ctx={ctx} onCount={(n) => setCounts((c) => (c[p.name] === n ? c : { ...c, [p.name]: n }))} />
          ) : (
            i === active && <PanelView panel={p} ctx={ctx} />
          )}
        </div>
      ))}
      {wizard && current && (
        <div className="wizard-nav">
          <span className="muted small">{t('MsgStep', { n: active + 1, total: tabs.length })}</span>
          <div className="row gap">
            <button type="button" className="btn btn-plain" disabled={active === 0} onClick={() => setActive(active - 1)}>
              <Icon name="chevronLeft" /> {t('CmdGoBack')}
            </button>
            <button
              type="button"
              className="btn btn-primary"
              disabled={active >= tabs.length - 1 || ctx.readOnly}
              onClick={async () => {
                if (!ctx.onWizardStep || (await ctx.onWizardStep(panel, active + 1))) setActive(active + 1);
              }}
            >
              {t('CmdContinue')} <Icon name="chevronRight" />
            </button>
          </div>
        </div>
      )}
    </section>
  );
};

/** Split: two columns (default 2fr 3fr) that stack below 900 px. */
const SplitPanel = ({ panel, ctx }: { panel: Panel; ctx: PanelContext }) => {
  const [ref, width] = useWidth<HTMLDivElement>();
  const sizes = panel.sizes ?? [...DEFAULT_SPLIT_SIZES];
  const stacked = width > 0 && width < SPLIT_BREAKPOINT;
  return (
    <div ref={ref} className="panel-split" style={{ gridTemplateColumns: stacked ? '1fr' : sizes.join(' ') }}>
      {(panel.panels ?? []).map((p) => (
        <PanelView key={p.name} panel={p} ctx={ctx} />
      ))}
    </div>
  );
};

/** Flex: a row or a column with the given sizes. */
const FlexPanel = ({ panel, ctx }: { panel: Panel; ctx: PanelContext }) => (
  <div className="panel-flex" style={{ flexDirection: panel.direction ?? 'row' }}>
    {(panel.panels ?? []).map((p, i) => (
      <div key={p.name} style={{ flex: panel.sizes?.[i] ?? '1 1 0', minWidth: 0 }}>
        <PanelView panel={p} ctx={ctx} />
      </div>
    ))}
  </div>
);

/** AssociatedList: the child records pointing at this record; a new parent shows MsgSaveToAdd. */
const AssociatedListPanel = ({ panel, ctx, onCount }: { panel: Panel; ctx: PanelContext; onCount?: (n: number) => void }) => {
  const t = useT();
  const api = useApi();
  const target = associatedListTarget(panel);
  const child = target ? entityOf(target.entity) : undefined;
  const [rows, setRows] = useState<EntityRecord[] | null>(null);
  const [error, setError] = useState('');
  const parentId = String(ctx.record.id ?? '');
  useEffect(() => {
    if (!target || !child || ctx.isNew) return;
    let live = true;
    const load = () =>
      api
        .fetch({
          entity: {
            name: target.entity,
            attributes: [{ attribute: 'id' }, { attribute: 'name' }, ...child.properties.filter((p) => ['modifiedon', 'statuscode'].includes(p.logicalName)).map((p) => ({ attribute: p.logicalName }))],
            filter: { type: 'and', conditions: [{ attribute: target.field, operator: 'eq', value: parentId }] },
            orders: [{ attribute: 'name' }],
          },
          page: 1,
          pageSize: 50,
          count: true,
        })
        .then((res) => {
          if (!live) return;
          setRows(res.records as EntityRecord[]);
          onCount?.(res.count ?? res.records.length);
        })
        .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)));
    void load();
    const ev = objectChangedEvent(target.entity);
    window.addEventListener(ev, load);
    return () => {
      live = false;
      window.removeEventListener(ev, load);
    };
  }, [target?.entity, target?.field, parentId, ctx.isNew]);
  if (!target || !child) return <p className="error-text">{t('MsgNoObject', { name: panel.field ?? panel.name })}</p>;
  if (ctx.isNew) return <p className="empty">{t('MsgSaveToAdd')}</p>;
  const init = encodeURIComponent(JSON.stringify({ [target.field]: { id: parentId, name: ctx.entity.logicalName, label: ctx.record.name ?? '' } }));
  return (
    <div className="assoc">
      <div className="assoc-head">
        <Link className="btn btn-plain" to={`/${ctx.appParam}/edit/${target.entity}/0?init=${init}`}>
          <Icon name="plus" /> {t('CmdNew')}
        </Link>
      </div>
      {error && <p className="error-text">{error}</p>}
      {rows === null && !error && <div className="spinner small" />}
      {rows?.length === 0 && <p className="empty">{t('MsgNoRecords')}</p>}
      {rows && rows.length > 0 && (
        <ul className="assoc-list">
          {rows.map((r) => (
            <li key={String(r.id)}>
              <Link to={`/${ctx.appParam}/edit/${target.entity}/${String(r.id)}`}>{String(r.name ?? '') || t('MsgUnknownTitle')}</Link>
              <span className="muted small">{formatValue(child.properties.find((p) => p.logicalName === 'modifiedon'), r.modifiedon as FieldValue, r)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
};

/** One panel of the tree, by type; any other type shows 'Unknown panel type'. */
export const PanelView = ({ panel, ctx }: { panel: Panel; ctx: PanelContext }): ReactNode => {
  const t = useT();
  switch (panel.type) {
    case 'Fields':
      return <FieldsPanel panel={panel} ctx={ctx} />;
    case 'Tabs':
      return <TabsPanel panel={panel} ctx={ctx} />;
    case 'Split':
      return <SplitPanel panel={panel} ctx={ctx} />;
    case 'Flex':
      return <FlexPanel panel={panel} ctx={ctx} />;
    case 'AssociatedList':
      return (
        <section className="panel" aria-label={panel.label}>
          {panel.label && <h2 className="panel-title">{panel.label}</h2>}
          <AssociatedListPanel panel={panel} ctx={ctx} />
        </section>
      );
    case 'CloudFiles':
      return <p className="empty panel">{panel.emptyMessage ?? t('MsgNoOneDriveFolder')}</p>;
    case 'Custom':
      return <p className="notice panel">{t('MsgCheckConfiguration')}</p>;
    default:
      return <p className="notice panel error-text">{t('MsgUnknownPanelType')}</p>;
  }
};
