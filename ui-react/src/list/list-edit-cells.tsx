import { useSignals } from '@preact/signals-react/runtime';
import { useRef, useState } from 'react';
import type { EntityRecord, FieldValue, Property } from '../core.js';
import { hasFlag } from '../core.js';
import { useApi } from '../api/context.js';
import { useT, type T } from '../i18n.js';
import { entityOf } from '../state/session.js';
import { FieldEditor } from '../form/editors.js';
import { candidatesQuery } from '../form/many-to-many.js';
import { ManyToManyDialog } from '../form/many-to-many-dialog.js';
import { modifierName } from '../form/modifier-name.js';
import { Icon } from '../ui/icons.js';
import { Modal } from '../ui/modal.js';
import { toast } from '../ui/toast.js';
import type { ListEditModel, RowError } from './list-edit-model.js';
import type { ListModel } from './list-model.js';

/**
 * The cells of a list in edit mode (issue 13 section 1): a property's cell is the form's own
 * editor of its type (editors.tsx, compact), a many-to-many cell lists the linked records with
 * the pick dialog of the form (tabs for items and for the selected ones); and super edit's
 * mass edit dialog.
 */

/** What a row's error says: the server's text, 'This record was modified by {modifier}', or the empty required fields. */
export const rowErrorText = (e: RowError, t: T): string =>
  e._tag === 'Server'
    ? e.text
    : e._tag === 'ModifiedBy'
      ? t('MsgModifiedBy', { modifier: modifierName(e.modifiedBy, t) })
      : [t('MsgRequiredFieldEmpty'), ...e.labels.map((l) => `- ${l}`)].join('\n');

/** A stable element id of a cell (ids of records are Guids; the column may be dotted). */
export const cellId = (rowKey: string, column: string) => `le-${rowKey}-${column.replace(/[^A-Za-z0-9_-]/g, '_')}`;

/** A property's cell: the form's editor of its type, labelled by its column. */
export const EditCell = ({
  edit,
  rowKey,
  record,
  p,
  label,
  entityName,
  invalid,
}: {
  edit: ListEditModel;
  rowKey: string;
  record: EntityRecord;
  p: Property;
  label: string;
  entityName: string;
  invalid: boolean;
}) => {
  const id = cellId(rowKey, p.logicalName);
  return (
    <>
      <span id={`${id}-label`} className="sr-only">
        {label}
      </span>
      <FieldEditor
        id={id}
        p={p}
        f={{ name: p.logicalName }}
        value={record[p.logicalName]}
        record={record}
        entityName={entityName}
        disabled={false}
        invalid={invalid}
        label={label}
        onChange={(v) => edit.setValue(rowKey, p.logicalName, v)}
        compact
      />
    </>
  );
};

/** The linked records of a many-to-many cell, as text (read mode) or as removable chips with Add (edit mode). */
export const LinkCell = ({
  edit,
  rowKey,
  column,
  label,
  editable,
}: {
  edit: ListEditModel;
  rowKey: string;
  column: string;
  label: string;
  editable: boolean;
}) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const [picking, setPicking] = useState(false);
  const names = useRef<Record<string, string>>({});
  const m = edit.linkColumns.value[column];
  const members = edit.membersOf(rowKey, column);
  const labels = edit.labels.value;
  const nameOf = (id: string) => labels[id] || t('MsgUnknownTitle');
  if (!m) return null;
  if (!editable) return <>{members.map(nameOf).join(', ')}</>;
  const otherName = entityOf(m.other)?.displayNamePlural ?? m.other;
  return (
    <div className="link-cell">
      {members.length > 0 && (
        <ul className="tag-list" aria-label={label}>
          {members.map((id) => (
            <li key={id} className="tag">
              {nameOf(id)}
              <button
                type="button"
                className="tag-x"
                aria-label={t('LblRemoveTag', { tag: nameOf(id) })}
                onClick={() => edit.toggle(rowKey, column, id)}
              >
                <Icon name="close" size={12} />
              </button>
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        id={cellId(rowKey, column)}
        className="btn btn-plain link-add"
        aria-label={`${label}: ${t('LblAddLinked', { entity: otherName })}`}
        title={t('LblAddLinked', { entity: otherName })}
        onClick={() => setPicking(true)}
      >
        <Icon name="plus" size={14} />
      </button>
      {picking && (
        <ManyToManyDialog
          title={t('LblAddLinked', { entity: otherName })}
          candidates={async (text) => {
            const res = await api.fetch(candidatesQuery(m, text));
            return res.records.map((r) => {
              const id = String(r.id).toLowerCase();
              names.current[id] = String(r.name ?? '');
              return { id, name: String(r.name ?? ''), linked: members.includes(id) };
            });
          }}
          onClose={() => setPicking(false)}
          onAdd={(ids) => {
            setPicking(false);
            for (const id of ids) edit.toggle(rowKey, column, id, names.current[id]);
          }}
        />
      )}
    </div>
  );
};

/** Columns mass edit can set: the view's property columns a user types into, and its many-to-many columns. */
const massColumns = (list: ListModel, edit: ListEditModel): Array<{ name: string; label: string; p?: Property }> => {
  const props = new Map(list.entity.value.properties.map((p) => [p.logicalName, p]));
  return list.columns.value.flatMap((c) => {
    const p = props.get(c.name);
    const label = c.label ?? p?.displayName ?? c.name;
    if (edit.linkColumns.value[c.name]) return [{ name: c.name, label }];
    if (
      !p ||
      ['id', 'versionnumber', 'createdon', 'createdby', 'modifiedon', 'modifiedby'].includes(p.logicalName) ||
      ['Guid', 'VersionNumber', 'Binary'].includes(p.type) ||
      hasFlag(p, 'AutoNumber') ||
      p.secret
    )
      return [];
    return [{ name: c.name, label, p }];
  });
};

/**
 * Super edit's Set field (spec 001 section 2: mass actions): a column and a value, applied to the
 * selected rows as edits (saved with the batch); a many-to-many column adds or removes picked
 * records on every selected row.
 */
export const MassEditDialog = ({
  list,
  edit,
  onClose,
}: {
  list: ListModel;
  edit: ListEditModel;
  onClose: () => void;
}) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const columns = massColumns(list, edit);
  const [field, setField] = useState(columns[0]?.name ?? '');
  const [value, setValue] = useState<FieldValue>(null);
  const [picking, setPicking] = useState<'add' | 'remove' | null>(null);
  const names = useRef<Record<string, string>>({});
  const column = columns.find((c) => c.name === field);
  const m = edit.linkColumns.value[field];
  const done = (n: number) => {
    toast(t('MsgSetOnRows', { n }), 'info');
    onClose();
  };
  return (
    <Modal id="massEditDialog" title={t('CmdSetField')} onClose={onClose}>
      <div className="mass-edit">
        <label className="field">
          <span>{t('LblField')}</span>
          <select
            value={field}
            onChange={(e) => {
              setField(e.target.value);
              setValue(null);
            }}
          >
            {columns.map((c) => (
              <option key={c.name} value={c.name}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        {column?.p && (
          <div className="field">
            <label id="mass-value-label" htmlFor="mass-value">
              {t('LblValue')}
            </label>
            <FieldEditor
              id="mass-value"
              p={column.p}
              f={{ name: column.p.logicalName }}
              value={value}
              record={{ [column.p.logicalName]: value }}
              entityName={list.entity.value.logicalName}
              disabled={false}
              invalid={false}
              label={column.label}
              onChange={setValue}
              compact
            />
          </div>
        )}
        <p className="muted small">{t('MsgSelected', { n: list.selected.value.size })}</p>
      </div>
      <div className="modal-actions">
        <button type="button" className="btn btn-plain" onClick={onClose}>
          {t('CmdCancel')}
        </button>
        {m ? (
          <>
            <button type="button" className="btn btn-plain" onClick={() => setPicking('remove')}>
              <Icon name="close" /> {t('CmdRemoveFromSelected')}
            </button>
            <button type="button" className="btn btn-primary" onClick={() => setPicking('add')}>
              <Icon name="plus" /> {t('CmdAddToSelected')}
            </button>
          </>
        ) : (
          <button
            type="button"
            className="btn btn-primary"
            disabled={!column}
            onClick={() => done(edit.massSet(field, value))}
          >
            <Icon name="check" /> {t('CmdApply')}
          </button>
        )}
      </div>
      {picking && m && (
        <ManyToManyDialog
          title={column?.label ?? field}
          actionLabel={picking === 'add' ? t('CmdAddToSelected') : t('CmdRemoveFromSelected')}
          candidates={async (text) => {
            const res = await api.fetch(candidatesQuery(m, text));
            return res.records.map((r) => {
              const id = String(r.id).toLowerCase();
              names.current[id] = String(r.name ?? '');
              return { id, name: String(r.name ?? ''), linked: false };
            });
          }}
          onClose={() => setPicking(null)}
          onAdd={(ids) => {
            const how = picking;
            setPicking(null);
            done(edit.massLink(field, ids, how, names.current));
          }}
        />
      )}
    </Modal>
  );
};
