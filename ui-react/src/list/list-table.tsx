import { useSignals } from '@preact/signals-react/runtime';
import { Link } from 'react-router';
import type { EntityRecord, FieldValue } from '../core.js';
import { FIELD_TYPES } from '../core.js';
import { language, useT } from '../i18n.js';
import { formatValue, optionColor } from '../format.js';
import { Icon } from '../ui/icons.js';
import { nameInSentence } from './entity-name-in-sentence.js';
import type { ListModel } from './list-model.js';

/**
 * The list's grid: select-all, sortable headers (the whole header cell is the button), a skeleton
 * while loading, rows linking to their form, and why it is empty (with Show all when filters
 * caused it).
 */
export const ListTable = ({ model, linkOf, onShowAll }: { model: ListModel; linkOf: (r: EntityRecord, form?: string) => string; onShowAll: () => void }) => {
  useSignals();
  const t = useT();
  const props = new Map(model.entity.value.properties.map((p) => [p.logicalName, p]));
  const columns = model.columns.value;
  const order = model.order.value;
  const rows = model.rows.value;
  const selected = model.selected.value;
  return (
    <div className="table-wrap" aria-busy={model.loading.value}>
      <table className="grid">
        <thead>
          <tr>
            <th className="col-check">
              <input type="checkbox" aria-label={t('LblSelectAll')} checked={model.allSelected.value} onChange={model.toggleAll} />
            </th>
            {columns.map((c) => {
              const sorted = order?.attribute === c.name;
              return (
                <th
                  key={c.name}
                  scope="col"
                  className={c.name.includes('.') ? undefined : 'th-sortable'}
                  aria-sort={sorted ? (order?.descending ? 'descending' : 'ascending') : undefined}
                  style={c.width ? { width: c.width } : undefined}
                >
                  {c.name.includes('.') ? (
                    (c.label ?? c.name)
                  ) : (
                    <button type="button" className="th-sort" onClick={() => model.sortBy(c.name)}>
                      {c.label ?? props.get(c.name)?.displayName ?? c.name}
                      {sorted && <Icon name={order?.descending ? 'chevronDown' : 'chevronDown'} className={order?.descending ? '' : 'flip'} size={14} />}
                    </button>
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows === null &&
            Array.from({ length: 6 }, (_, i) => (
              <tr key={i} className="skeleton-row">
                <td colSpan={columns.length + 1}>
                  <span className="skeleton" />
                </td>
              </tr>
            ))}
          {model.emptyBecause.value && (
            <tr>
              <td colSpan={columns.length + 1} className="empty">
                {model.emptyBecause.value === 'filters' ? (
                  // One inline run, so a phone's card layout of cells keeps it a sentence.
                  <span className="empty-filtered">
                    {t('MsgNoRecordsMatchFilters', { entities: nameInSentence(model.entity.value.displayNamePlural, language.value) })}
                    <span aria-hidden="true"> · </span>
                    <button type="button" className="btn btn-link" onClick={onShowAll}>
                      {t('CmdShowAll')}
                    </button>
                  </span>
                ) : (
                  t('MsgNoRecords')
                )}
              </td>
            </tr>
          )}
          {rows?.map((r) => {
            const id = String(r.id);
            return (
              <tr key={id} className={selected.has(id) ? 'selected' : ''}>
                <td className="col-check">
                  <input type="checkbox" aria-label={`${t('LblSelectRow')} ${String(r.name ?? id)}`} checked={selected.has(id)} onChange={() => model.toggle(id)} />
                </td>
                {columns.map((c, i) => {
                  const p = props.get(c.name);
                  const v = r[c.name] as FieldValue | undefined;
                  const text = formatValue(p, v, r);
                  const color = optionColor(p, v);
                  const label = c.label ?? p?.displayName ?? c.name;
                  return (
                    <td key={c.name} data-label={label} className={p && FIELD_TYPES[p.type].numeric && !color ? 'num' : undefined}>
                      {i === 0 || c.form ? (
                        <Link to={linkOf(r, c.form)} className="row-link">
                          {text || t('MsgUnknownTitle')}
                        </Link>
                      ) : color ? (
                        <span className="pill" style={{ ['--pill' as string]: color }}>
                          {text}
                        </span>
                      ) : (
                        text
                      )}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
};
