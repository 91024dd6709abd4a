import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { EntityRecord, FieldValue, Panel } from '../core.js';
import { associatedListTarget } from '../core.js';
import { useApi } from '../api/context.js';
import { useT } from '../i18n.js';
import { formatValue } from '../format.js';
import { entityOf } from '../state/session.js';
import { objectChangedEvent } from '../state/realtime.js';
import { Icon } from '../ui/icons.js';
import { manyToManyOf, type ManyToMany } from './many-to-many.js';
import { ManyToManyList } from './many-to-many-list.js';
import type { PanelContext } from './panel-context.js';

/** The many-to-many reading of an associated list whose child is a link entity (issue 23 item 1). */
export const manyToManyOfPanel = (panel: Panel): ManyToMany | undefined => {
  const target = associatedListTarget(panel);
  const child = target && entityOf(target.entity);
  return target && child ? manyToManyOf(child, target.field) : undefined;
};

/**
 * The title of an associated list's tab: over a link entity whose label is still the link
 * entity's own plural ('User Roles'), the other side's plural ('Roles') says what is listed.
 */
export const associatedListTitle = (panel: Panel): string => {
  const base = panel.label ?? panel.name;
  const m = manyToManyOfPanel(panel);
  if (!m) return base;
  const link = entityOf(m.link);
  return !panel.label || panel.label === link?.displayNamePlural ? (entityOf(m.other)?.displayNamePlural ?? base) : base;
};

/**
 * AssociatedList: the child records pointing at this record, or over a link entity the linked
 * records of the other side (pending adds and removes saved with the record); a new parent of an
 * ordinary child list shows MsgSaveToAdd.
 */
export const AssociatedListPanel = ({ panel, ctx, onCount }: { panel: Panel; ctx: PanelContext; onCount?: (n: number) => void }) => {
  const m = manyToManyOfPanel(panel);
  // A new record collects links too: they are written after the create, with the new id.
  if (m) return <ManyToManyList m={m} ctx={ctx} panelName={panel.name} onCount={onCount} />;
  return <ChildList panel={panel} ctx={ctx} onCount={onCount} />;
};

/** The child records whose lookup points at this record. */
const ChildList = ({ panel, ctx, onCount }: { panel: Panel; ctx: PanelContext; onCount?: (n: number) => void }) => {
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
