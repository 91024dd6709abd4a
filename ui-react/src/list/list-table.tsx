import { useSignals } from '@preact/signals-react/runtime';
import { Fragment, useRef, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import type { EntityRecord, FieldValue, Property, RowState } from '../core.js';
import { FIELD_TYPES, isCellModified, rowState } from '../core.js';
import { language, useT } from '../i18n.js';
import { formatValue, optionColor } from '../format.js';
import { Icon } from '../ui/icons.js';
import { nameInSentence } from './entity-name-in-sentence.js';
import { notAvailableWhileEditing } from './list-edit-bar.js';
import { cellId, EditCell, LinkCell, rowErrorText } from './list-edit-cells.js';
import type { ListEditModel } from './list-edit-model.js';
import type { ListModel } from './list-model.js';
import { useRowWindow } from './list-window.js';

/** The first element of a cell that takes the keyboard (its editor's input, select or button). */
const FOCUSABLE =
  'input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), a[href]';
const focusCell = (td: Element | null | undefined): boolean => {
  const el = td?.querySelector<HTMLElement>(FOCUSABLE);
  if (!el) return false;
  el.focus();
  if (el instanceof HTMLInputElement && ['text', 'search', 'email', 'url', 'tel', 'number'].includes(el.type))
    el.select?.();
  return true;
};

/**
 * The keyboard of an editing table (issue 13 section 1): Tab and Shift+Tab move between the
 * editable cells (not through the buttons inside an editor), Enter to the same column in the row
 * below, Escape reverts the cell. An editor that used the key itself (a lookup picking a hit, the
 * tag editor adding a tag) prevents its default, and the table leaves it alone.
 */
const onTableKey =
  (edit: ListEditModel, table: HTMLTableElement | null, scrollBy: (rows: number) => void) =>
  (e: KeyboardEvent<HTMLTableElement>) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || !table) return;
    const td = (e.target as HTMLElement).closest<HTMLTableCellElement>('td[data-editable]');
    if (!td) return;
    const cells = [...table.querySelectorAll<HTMLTableCellElement>('td[data-editable]')];
    const at = cells.indexOf(td);
    if (e.key === 'Tab') {
      const step = e.shiftKey ? -1 : 1;
      for (let i = at + step; i >= 0 && i < cells.length; i += step) {
        if (focusCell(cells[i])) {
          e.preventDefault();
          return;
        }
      }
      return;
    }
    if (e.key === 'Enter') {
      const target = e.target as HTMLElement;
      if (
        target instanceof HTMLTextAreaElement ||
        target instanceof HTMLButtonElement ||
        target instanceof HTMLAnchorElement
      )
        return;
      e.preventDefault();
      const row = Number(td.dataset.row);
      const below = table.querySelector(`td[data-editable][data-row="${row + 1}"][data-col="${td.dataset.col ?? ''}"]`);
      if (below) {
        focusCell(below);
        below.scrollIntoView({ block: 'nearest' });
        return;
      }
      // The row below is not rendered yet (a long list renders the visible rows): scroll, then focus it.
      scrollBy(1);
      requestAnimationFrame(() =>
        requestAnimationFrame(() =>
          focusCell(
            table.querySelector(`td[data-editable][data-row="${row + 1}"][data-col="${td.dataset.col ?? ''}"]`),
          ),
        ),
      );
      return;
    }
    if (e.key === 'Escape') {
      const key = td.dataset.key;
      const col = td.dataset.col;
      if (key === undefined || col === undefined) return;
      edit.revert(key, col);
      // The reverted editor is a new element for some types: focus the cell again once drawn.
      requestAnimationFrame(() => focusCell(table.querySelector(`td[data-key="${key}"][data-col="${col}"]`)));
    }
  };

/**
 * The list's grid: select-all, sortable headers (the whole header cell is the button), a skeleton
 * while loading, rows linking to their form, and why it is empty (with Show all when filters
 * caused it). In edit mode (issue 13 section 1) cells are the form's editors, new rows come first,
 * rows to delete are struck through, changed cells are marked and a row's save error shows under
 * it. Beyond WINDOW_FROM rows only the visible rows render (list-window.ts).
 */
export const ListTable = ({
  model,
  linkOf,
  onShowAll,
  edit,
}: {
  model: ListModel;
  linkOf: (r: EntityRecord, form?: string) => string;
  onShowAll: () => void;
  edit?: ListEditModel;
}) => {
  useSignals();
  const t = useT();
  const body = useRef<HTMLTableSectionElement>(null);
  const table = useRef<HTMLTableElement>(null);
  const entity = model.entity.value;
  const props = new Map(entity.properties.map((p) => [p.logicalName, p]));
  const columns = model.columns.value;
  const order = model.order.value;
  const rows = edit ? edit.rows.value : model.rows.value;
  const selected = model.selected.value;
  const editing = edit?.editing.value ?? false;
  const edits = edit?.edits.value;
  const errors = edit?.errors.value ?? {};
  const linkColumns = edit?.linkColumns.value ?? {};
  const span = columns.length + 1 + (editing ? 1 : 0);
  const range = useRowWindow(rows?.length ?? 0, body);
  const shown = rows ? rows.slice(range.first, range.last) : null;
  return (
    <div className={`table-wrap ${editing ? 'editing' : ''}`} aria-busy={model.loading.value}>
      <table
        className={`grid ${editing ? 'grid-editing' : ''}`}
        ref={table}
        onKeyDown={
          edit && editing ? onTableKey(edit, table.current, (n) => window.scrollBy(0, n * range.rowHeight)) : undefined
        }
      >
        <thead>
          <tr>
            <th className="col-check">
              <input
                type="checkbox"
                aria-label={t('LblSelectAll')}
                checked={model.allSelected.value}
                onChange={model.toggleAll}
              />
            </th>
            {columns.map((c) => {
              const sorted = order?.attribute === c.name;
              const label = c.label ?? props.get(c.name)?.displayName ?? c.name;
              return (
                <th
                  key={c.name}
                  scope="col"
                  className={c.name.includes('.') ? undefined : 'th-sortable'}
                  aria-sort={sorted ? (order?.descending ? 'descending' : 'ascending') : undefined}
                  style={c.width ? { width: c.width } : undefined}
                >
                  {c.name.includes('.') ? (
                    <span className="th-plain">{label}</span>
                  ) : (
                    <button
                      type="button"
                      className="th-sort"
                      onClick={() => (edit?.dirty.value ? notAvailableWhileEditing(t) : model.sortBy(c.name))}
                    >
                      {label}
                      {sorted && (
                        <Icon
                          name={order?.descending ? 'chevronDown' : 'chevronDown'}
                          className={order?.descending ? '' : 'flip'}
                          size={14}
                        />
                      )}
                    </button>
                  )}
                </th>
              );
            })}
            {editing && (
              <th className="col-actions">
                <span className="sr-only">{t('LblEditMode')}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody ref={body}>
          {rows === null &&
            Array.from({ length: 6 }, (_, i) => (
              <tr key={i} className="skeleton-row">
                <td colSpan={span}>
                  <span className="skeleton" />
                </td>
              </tr>
            ))}
          {model.emptyBecause.value && rows?.length === 0 && (
            <tr>
              <td colSpan={span} className="empty">
                {model.emptyBecause.value === 'filters' ? (
                  // One inline run, so a phone's card layout of cells keeps it a sentence.
                  <span className="empty-filtered">
                    {t('MsgNoRecordsMatchFilters', {
                      entities: nameInSentence(entity.displayNamePlural, language.value),
                    })}
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
          {range.first > 0 && (
            <tr className="window-spacer" aria-hidden="true">
              <td colSpan={span} style={{ height: range.first * range.rowHeight }} />
            </tr>
          )}
          {shown?.map((r, i) => {
            const index = range.first + i;
            const id = String(r.id);
            const state = edits ? rowState(edits, id) : 'clean';
            const error = errors[id];
            const errorId = error ? `${cellId(id, 'error')}` : undefined;
            const title = String(r.name ?? '') || t('MsgUnknownTitle');
            return (
              <Fragment key={id}>
                <tr
                  data-row={index}
                  className={
                    [
                      selected.has(id) ? 'selected' : '',
                      state !== 'clean' ? `row-${state}` : '',
                      error ? 'row-failed' : '',
                    ]
                      .join(' ')
                      .trim() || undefined
                  }
                  aria-describedby={errorId}
                >
                  <td className="col-check">
                    <input
                      type="checkbox"
                      aria-label={`${t('LblSelectRow')} ${String(r.name ?? id)}`}
                      checked={selected.has(id)}
                      onChange={() => model.toggle(id)}
                    />
                  </td>
                  {columns.map((c, ci) => {
                    const p = props.get(c.name);
                    const label = c.label ?? p?.displayName ?? c.name;
                    const isLink = !!linkColumns[c.name];
                    const canEdit = editing && !!edit && edit.editableCell(id, c.name);
                    const modified = !!edits && isCellModified(edits, id, c.name);
                    const cls =
                      [
                        modified ? 'cell-modified' : '',
                        canEdit ? 'cell-edit' : '',
                        !canEdit && p && FIELD_TYPES[p.type].numeric && !optionColor(p, r[c.name] as FieldValue)
                          ? 'num'
                          : '',
                      ]
                        .filter(Boolean)
                        .join(' ') || undefined;
                    const cellProps = canEdit
                      ? { 'data-editable': '', 'data-row': index, 'data-col': c.name, 'data-key': id }
                      : {};
                    return (
                      <td key={c.name} data-label={label} className={cls} {...cellProps}>
                        {isLink && edit ? (
                          <LinkCell edit={edit} rowKey={id} column={c.name} label={label} editable={canEdit} />
                        ) : canEdit && p && edit ? (
                          <EditCell
                            edit={edit}
                            rowKey={id}
                            record={r}
                            p={p}
                            label={label}
                            entityName={entity.logicalName}
                            invalid={error?._tag === 'Required' && error.labels.includes(label)}
                          />
                        ) : (
                          <ReadCell
                            r={r}
                            column={c.name}
                            p={p}
                            form={c.form}
                            first={ci === 0}
                            linkOf={linkOf}
                            linked={state !== 'created'}
                          />
                        )}
                        {modified && <span className="sr-only"> ({t('LblChanged')})</span>}
                      </td>
                    );
                  })}
                  {editing && edit && (
                    <td className="col-actions">
                      <RowActions
                        edit={edit}
                        id={id}
                        state={state}
                        title={title}
                        link={state === 'created' ? undefined : linkOf(r)}
                        canDelete={edit.canDeleteRows.value}
                      />
                    </td>
                  )}
                </tr>
                {error && (
                  <tr className="row-error-line">
                    <td colSpan={span} id={errorId} role="alert">
                      <Icon name="alert" size={16} /> <span className="row-error-text">{rowErrorText(error, t)}</span>
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
          {rows && range.last < rows.length && (
            <tr className="window-spacer" aria-hidden="true">
              <td colSpan={span} style={{ height: (rows.length - range.last) * range.rowHeight }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
};

/** A cell shown as text: the first column (or one naming a form) links to the record (not a new or changed row in edit mode), option sets as coloured pills. */
const ReadCell = ({
  r,
  column,
  p,
  form,
  first,
  linkOf,
  linked,
}: {
  r: EntityRecord;
  column: string;
  p: Property | undefined;
  form?: string;
  first: boolean;
  linkOf: (r: EntityRecord, form?: string) => string;
  linked: boolean;
}) => {
  const t = useT();
  const v = r[column] as FieldValue | undefined;
  const text = formatValue(p, v, r);
  const color = optionColor(p, v);
  if ((first || form) && linked) {
    return (
      <Link to={linkOf(r, form)} className="row-link">
        {text || t('MsgUnknownTitle')}
      </Link>
    );
  }
  if (color) {
    return (
      <span className="pill" style={{ ['--pill' as string]: color }}>
        {text}
      </span>
    );
  }
  return <>{text}</>;
};

/** A row's own actions in edit mode: delete (or take the delete back), revert the row, open the record. */
const RowActions = ({
  edit,
  id,
  state,
  title,
  link,
  canDelete,
}: {
  edit: ListEditModel;
  id: string;
  state: RowState;
  title: string;
  link?: string;
  canDelete: boolean;
}) => {
  const t = useT();
  return (
    <div className="row-actions-edit">
      {state === 'deleted' ? (
        <button
          type="button"
          className="btn btn-plain icon-only"
          aria-label={`${t('CmdUndoDelete')}: ${title}`}
          title={t('CmdUndoDelete')}
          onClick={() => edit.restore(id)}
        >
          <Icon name="undo" size={16} />
        </button>
      ) : (
        (canDelete || state === 'created') && (
          <button
            type="button"
            className="btn btn-plain icon-only danger"
            aria-label={`${t('CmdDelete')}: ${title}`}
            title={t('CmdDelete')}
            onClick={() => edit.remove(id)}
          >
            <Icon name="trash" size={16} />
          </button>
        )
      )}
      {state === 'updated' && (
        <button
          type="button"
          className="btn btn-plain icon-only"
          aria-label={`${t('CmdRevertRow')}: ${title}`}
          title={t('CmdRevertRow')}
          onClick={() => edit.revertRow(id)}
        >
          <Icon name="reload" size={16} />
        </button>
      )}
      {state === 'deleted' && <span className="small muted row-note">{t('MsgRowDeleted')}</span>}
      {state === 'created' && <span className="badge accent row-note">{t('LblNewRow')}</span>}
      {link && state !== 'created' && (
        <Link
          to={link}
          className="btn btn-plain icon-only"
          aria-label={t('LblOpenRecord', { name: title })}
          title={t('LblOpenRecord', { name: title })}
        >
          <Icon name="external" size={16} />
        </Link>
      )}
    </div>
  );
};
