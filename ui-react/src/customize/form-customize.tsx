import { useSignals } from '@preact/signals-react/runtime';
import { createContext, useContext, useState, type DragEvent, type ReactNode } from 'react';
import { isLeft, type Either } from 'fp-ts/lib/Either.js';
import type { Entity, Form, FormField, InputError, Panel } from '../core.js';
import {
  addField,
  addPanel,
  CANNOT_PASTE,
  copyCommand,
  copyPanel,
  editCommand,
  editField,
  editPanel,
  FIELD_SEPARATOR,
  fieldsNotOnForm,
  findPanel,
  moveCommand,
  moveField,
  movePanel,
  panelPlace,
  pasteCommand,
  pastePanel,
  removeCommand,
  removeField,
  removePanel,
} from '../core.js';
import { useT, type T } from '../i18n.js';
import { alertDialog, toast } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import { Modal } from '../ui/modal.js';
import { FieldDialog } from './field-dialog.js';
import type { DraftKey } from './customize-model.js';
import { customize } from './customize-state.js';

/**
 * Customize mode on the live record form (issue 15): a frame with a small toolbar around each
 * panel, edit controls on each field, and the form's tools (add panel, paste, commands). Every
 * control is a button or a select, so the keyboard does all of it; fields can also be dragged.
 */

type FormTarget = { key: DraftKey<'form'>; stored: Form; shown: Form; entity: Entity };
const FormTargetContext = createContext<FormTarget | null>(null);

/** Gives the panels of a record form what customize mode edits (record-form.tsx wraps its panels in it). */
export const CustomizeFormProvider = ({ value, children }: { value: FormTarget | null; children: ReactNode }) => <FormTargetContext.Provider value={value}>{children}</FormTargetContext.Provider>;

/** Fields never placed on a form (the default form leaves them out too). */
const NOT_ON_FORMS = new Set(['id', 'versionnumber']);

/** The last panel or command copied in this tab: the paste box starts with it. */
let clipboard = '';
const copyText = (text: string, t: T) => {
  clipboard = text;
  void navigator.clipboard?.writeText(text).catch(() => undefined);
  toast(t('CzCopied'), 'info');
};

/** Runs one edit of the form; a refusal is said ('Cannot paste object' in the user's language). */
const useFormEdit = () => {
  const target = useContext(FormTargetContext);
  const t = useT();
  return (f: (form: Form) => Either<InputError, Form>): boolean => {
    if (!target) return false;
    const r = customize.edit(target.key, target.stored, f);
    if (isLeft(r)) {
      void alertDialog(r.left.message === CANNOT_PASTE ? t('MsgCannotPaste') : t('CzEditFailed', { message: r.left.message }), t('CmdOk'));
      return false;
    }
    return true;
  };
};

const FIELD_DRAG = 'application/x-tessera-field';
type DraggedField = { panel: string; index: number };
const draggedField = (e: DragEvent): DraggedField | null => {
  try {
    return JSON.parse(e.dataTransfer.getData(FIELD_DRAG)) as DraggedField;
  } catch {
    return null;
  }
};

/** A panel of the form in customize mode: a dashed frame, its name, and its tools above it. */
export const CustomizePanelFrame = ({ panel, children }: { panel: Panel; children: ReactNode }) => {
  useSignals();
  const target = useContext(FormTargetContext);
  if (!customize.active.value || !target) return children;
  return <PanelFrame panel={panel} target={target}>{children}</PanelFrame>;
};

const PanelFrame = ({ panel, target, children }: { panel: Panel; target: FormTarget; children: ReactNode }) => {
  const t = useT();
  const edit = useFormEdit();
  const [editing, setEditing] = useState(false);
  const [dropping, setDropping] = useState(false);
  const place = panelPlace(target.shown, panel.name);
  const name = panel.label ?? panel.name;
  const siblings = place ? (place.parent === null ? target.shown.panels : (findPanel(target.shown, place.parent)?.panels ?? [])) : [];
  const addable = panel.type === 'Fields' ? fieldsNotOnForm(target.shown, target.entity.properties.map((p) => p.logicalName).filter((n) => !NOT_ON_FORMS.has(n))) : [];
  const labelOf = (n: string) => target.entity.properties.find((p) => p.logicalName === n)?.displayName ?? n;
  return (
    <div
      className={`cz-panel ${dropping ? 'cz-drop' : ''}`}
      data-cz-panel={panel.name}
      onDragOver={(e) => {
        if (panel.type === 'Fields' && e.dataTransfer.types.includes(FIELD_DRAG)) {
          e.preventDefault();
          setDropping(true);
        }
      }}
      onDragLeave={() => setDropping(false)}
      onDrop={(e) => {
        setDropping(false);
        const from = draggedField(e);
        if (!from || panel.type !== 'Fields') return;
        e.preventDefault();
        e.stopPropagation();
        edit((f) => moveField(f, from, { panel: panel.name, index: panel.fields?.length ?? 0 }));
      }}
    >
      <div className="cz-panel-bar" role="toolbar" aria-label={t('CzEditPanel', { name })}>
        <span className="cz-panel-name">
          {name} <span className="muted small">· {panel.type}</span>
        </span>
        <span className="cz-tools">
          {panel.type === 'Fields' && (
            <select
              aria-label={t('CzAddField')}
              value=""
              onChange={(e) => {
                const v = e.target.value;
                if (v) edit((f) => addField(f, panel.name, { name: v }));
              }}
            >
              <option value="">{t('CzAddField')}…</option>
              <option value={FIELD_SEPARATOR}>— {t('CzAddSeparator')}</option>
              {addable.map((n) => (
                <option key={n} value={n}>
                  {labelOf(n)}
                </option>
              ))}
            </select>
          )}
          <button type="button" className="icon-btn" title={t('CzEditPanel', { name })} aria-label={t('CzEditPanel', { name })} onClick={() => setEditing(true)}>
            <Icon name="settings" size={16} />
          </button>
          <button type="button" className="icon-btn" title={t('CzMoveEarlier', { name })} aria-label={t('CzMoveEarlier', { name })} disabled={!place || place.index === 0} onClick={() => place && edit((f) => movePanel(f, panel.name, place.parent, place.index - 1))}>
            <Icon name="chevronLeft" size={16} />
          </button>
          <button type="button" className="icon-btn" title={t('CzMoveLater', { name })} aria-label={t('CzMoveLater', { name })} disabled={!place || place.index >= siblings.length - 1} onClick={() => place && edit((f) => movePanel(f, panel.name, place.parent, place.index + 1))}>
            <Icon name="chevronRight" size={16} />
          </button>
          <button type="button" className="icon-btn" title={t('CzCopy')} aria-label={`${t('CzCopy')} ${name}`} onClick={() => copyText(copyPanel(panel), t)}>
            <Icon name="copy" size={16} />
          </button>
          <button type="button" className="icon-btn cz-danger" title={t('CzRemove', { name })} aria-label={t('CzRemove', { name })} onClick={() => edit((f) => removePanel(f, panel.name))}>
            <Icon name="trash" size={16} />
          </button>
        </span>
      </div>
      {panel.type === 'Tabs' && (panel.panels?.length ?? 0) > 1 && (
        // The tab order (spec 001 section 2): tabs inside a Tabs panel are moved here, lists included.
        <ol className="cz-taborder">
          {(panel.panels ?? []).map((p, i, all) => (
            <li key={p.name}>
              <button type="button" className="icon-btn" aria-label={t('CzMoveEarlier', { name: p.label ?? p.name })} disabled={i === 0} onClick={() => edit((f) => movePanel(f, p.name, panel.name, i - 1))}>
                <Icon name="chevronLeft" size={14} />
              </button>
              <span>{p.label ?? p.name}</span>
              <button type="button" className="icon-btn" aria-label={t('CzMoveLater', { name: p.label ?? p.name })} disabled={i === all.length - 1} onClick={() => edit((f) => movePanel(f, p.name, panel.name, i + 1))}>
                <Icon name="chevronRight" size={14} />
              </button>
            </li>
          ))}
        </ol>
      )}
      {panel.type === 'Fields' && (panel.fields?.length ?? 0) === 0 && <p className="muted small cz-empty">{t('CzEmptyPanel')}</p>}
      {children}
      {editing && <PanelDialog panel={panel} onClose={() => setEditing(false)} onApply={(props) => edit((f) => editPanel(f, panel.name, props)) && setEditing(false)} />}
    </div>
  );
};

/** The panel's own properties: label, show label, minimum column width. */
const PanelDialog = ({ panel, onApply, onClose }: { panel: Panel; onApply: (p: { label?: string; showLabel?: boolean; minColumnWidth?: number }) => void; onClose: () => void }) => {
  const t = useT();
  const [label, setLabel] = useState(panel.label ?? '');
  const [showLabel, setShowLabel] = useState(panel.showLabel !== false);
  const [min, setMin] = useState(panel.minColumnWidth === undefined ? '' : String(panel.minColumnWidth));
  const apply = () => {
    const n = Number(min);
    onApply({ label, showLabel: showLabel ? undefined : false, minColumnWidth: min.trim() && Number.isFinite(n) && n > 0 ? Math.round(n) : undefined });
  };
  return (
    <Modal id="panelDialog" title={t('CzEditPanel', { name: panel.label ?? panel.name })} onClose={onClose}>
      {/* Not a <form>: forms do not nest, and this one sits inside the record form. Enter applies. */}
      <div className="cz-dialog-form" onKeyDown={(e) => e.key === 'Enter' && e.target instanceof HTMLInputElement && (e.preventDefault(), apply())}>
        <div className="field">
          <label htmlFor="pd-label">{t('CzPanelLabel')}</label>
          <input id="pd-label" value={label} onChange={(e) => setLabel(e.target.value)} autoFocus />
        </div>
        {panel.type === 'Fields' && (
          <div className="field">
            <label htmlFor="pd-min">{t('CzMinColumnWidth')}</label>
            <input id="pd-min" type="number" min={100} max={2000} value={min} placeholder="400" onChange={(e) => setMin(e.target.value)} />
          </div>
        )}
        <label className="cz-check">
          <input type="checkbox" checked={showLabel} onChange={(e) => setShowLabel(e.target.checked)} /> {t('CzShowLabel')}
        </label>
        <div className="row gap cz-dialog-actions">
          <button type="button" className="btn btn-plain" onClick={onClose}>
            {t('CmdCancel')}
          </button>
          <button type="button" className="btn btn-primary" onClick={apply}>
            {t('CmdApply')}
          </button>
        </div>
      </div>
    </Modal>
  );
};

/** A field of a Fields panel in customize mode: the field as it shows, and its tools. */
export const CustomizeField = ({ panel, index, field, children }: { panel: string; index: number; field: FormField; children: ReactNode }) => {
  useSignals();
  const target = useContext(FormTargetContext);
  if (!customize.active.value || !target) return children;
  return (
    <FieldFrame panel={panel} index={index} field={field} target={target}>
      {children}
    </FieldFrame>
  );
};

const FieldFrame = ({ panel, index, field, target, children }: { panel: string; index: number; field: FormField; target: FormTarget; children: ReactNode }) => {
  const t = useT();
  const edit = useFormEdit();
  const [dialog, setDialog] = useState(false);
  const p = target.entity.properties.find((x) => x.logicalName === field.name);
  const name = field.name === FIELD_SEPARATOR ? t('CzAddSeparator') : (field.label ?? p?.displayName ?? field.name);
  const count = findPanel(target.shown, panel)?.fields?.length ?? 0;
  const fieldsPanels = [...allFieldsPanels(target.shown.panels)];
  const style = field.name === FIELD_SEPARATOR || (p && /MultiLine|Json/.test((p.flags ?? []).join(' '))) ? { gridColumn: '1 / -1' } : { gridColumn: field.gridColumn, gridRow: field.gridRow };
  return (
    <div
      className="cz-field"
      style={style}
      data-cz-field={field.name}
      draggable
      onDragStart={(e) => {
        e.dataTransfer.setData(FIELD_DRAG, JSON.stringify({ panel, index }));
        e.dataTransfer.effectAllowed = 'move';
      }}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes(FIELD_DRAG)) e.preventDefault();
      }}
      onDrop={(e) => {
        const from = draggedField(e);
        if (!from) return;
        e.preventDefault();
        e.stopPropagation();
        edit((f) => moveField(f, from, { panel, index }));
      }}
    >
      <div className="cz-field-tools" role="toolbar" aria-label={t('CzEditField', { name })}>
        {field.name !== FIELD_SEPARATOR && (
          <button type="button" className="icon-btn" title={t('CzEditField', { name })} aria-label={t('CzEditField', { name })} onClick={() => setDialog(true)}>
            <Icon name="settings" size={15} />
          </button>
        )}
        <button type="button" className="icon-btn" aria-label={t('CzMoveEarlier', { name })} title={t('CzMoveEarlier', { name })} disabled={index === 0} onClick={() => edit((f) => moveField(f, { panel, index }, { panel, index: index - 1 }))}>
          <Icon name="chevronLeft" size={15} />
        </button>
        <button type="button" className="icon-btn" aria-label={t('CzMoveLater', { name })} title={t('CzMoveLater', { name })} disabled={index >= count - 1} onClick={() => edit((f) => moveField(f, { panel, index }, { panel, index: index + 1 }))}>
          <Icon name="chevronRight" size={15} />
        </button>
        {fieldsPanels.length > 1 && (
          <select
            aria-label={t('CzMoveTo', { name })}
            title={t('CzMoveTo', { name })}
            value={panel}
            onChange={(e) => {
              const to = e.target.value;
              if (to !== panel) edit((f) => moveField(f, { panel, index }, { panel: to, index: findPanel(f, to)?.fields?.length ?? 0 }));
            }}
          >
            {fieldsPanels.map((x) => (
              <option key={x.name} value={x.name}>
                {x.label ?? x.name}
              </option>
            ))}
          </select>
        )}
        <button type="button" className="icon-btn cz-danger" aria-label={t('CzRemove', { name })} title={t('CzRemove', { name })} onClick={() => edit((f) => removeField(f, panel, index))}>
          <Icon name="close" size={15} />
        </button>
      </div>
      {children}
      {dialog && (
        <FieldDialog
          field={field}
          title={t('CzFieldDialogTitle', { name })}
          onClose={() => setDialog(false)}
          onApply={(props) => {
            if (edit((f) => editField(f, panel, index, props))) setDialog(false);
          }}
        />
      )}
    </div>
  );
};

function* allFieldsPanels(panels: readonly Panel[]): Generator<Panel> {
  for (const p of panels) {
    if (p.type === 'Fields') yield p;
    yield* allFieldsPanels(p.panels ?? []);
  }
}

/** The form's own tools in the customize bar: add a panel, paste a panel or a command, the commands. */
export const FormCustomizeTools = ({ target }: { target: FormTarget }) => {
  useSignals();
  const t = useT();
  const [label, setLabel] = useState('');
  const [pasting, setPasting] = useState(false);
  const [commands, setCommands] = useState(false);
  const run = (f: (form: Form) => Either<InputError, Form>): boolean => {
    const r = customize.edit(target.key, target.stored, f);
    if (isLeft(r)) void alertDialog(r.left.message === CANNOT_PASTE ? t('MsgCannotPaste') : t('CzEditFailed', { message: r.left.message }), t('CmdOk'));
    return !isLeft(r);
  };
  const add = () => {
    const text = label.trim();
    if (!text) return;
    const name = text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'panel';
    if (run((f) => addPanel(f, null, { name, type: 'Fields', label: text, fields: [] }))) setLabel('');
  };
  return (
    <>
      <span className="cz-inline">
        <input aria-label={t('CzPanelLabel')} placeholder={t('CzPanelLabel')} value={label} onChange={(e) => setLabel(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && (e.preventDefault(), add())} />
        <button type="button" className="btn btn-plain" onClick={add} disabled={!label.trim()}>
          <Icon name="plus" /> {t('CzAddPanel')}
        </button>
      </span>
      <button type="button" className="btn btn-plain" onClick={() => setPasting(true)}>
        {t('CzPaste')}
      </button>
      <button type="button" className="btn btn-plain" onClick={() => setCommands(true)}>
        {t('CzCommands')} {target.shown.commands?.length ? <span className="badge">{target.shown.commands.length}</span> : null}
      </button>
      {pasting && <PasteDialog onClose={() => setPasting(false)} onPanel={(text) => run((f) => pastePanel(f, null, text)) && setPasting(false)} onCommand={(text) => run((f) => pasteCommand(f, text)) && setPasting(false)} />}
      {commands && <CommandsDialog target={target} run={run} onClose={() => setCommands(false)} />}
    </>
  );
};

const PasteDialog = ({ onPanel, onCommand, onClose }: { onPanel: (text: string) => void; onCommand: (text: string) => void; onClose: () => void }) => {
  const t = useT();
  const [text, setText] = useState(clipboard);
  return (
    <Modal id="pasteDialog" title={t('CzPaste')} onClose={onClose}>
      <label htmlFor="cz-paste" className="muted small">
        {t('CzPasteHint')}
      </label>
      <textarea id="cz-paste" className="mono cz-paste" rows={8} value={text} onChange={(e) => setText(e.target.value)} autoFocus />
      <div className="row gap cz-dialog-actions">
        <button type="button" className="btn btn-plain" onClick={onClose}>
          {t('CmdCancel')}
        </button>
        <button type="button" className="btn btn-plain" onClick={() => onCommand(text)}>
          {t('CzPasteCommand')}
        </button>
        <button type="button" className="btn btn-primary" onClick={() => onPanel(text)}>
          {t('CzPastePanel')}
        </button>
      </div>
    </Modal>
  );
};

/** The form's commands: label, icon and permissions; order; copy; remove. */
const CommandsDialog = ({ target, run, onClose }: { target: FormTarget; run: (f: (form: Form) => Either<InputError, Form>) => boolean; onClose: () => void }) => {
  useSignals();
  const t = useT();
  const shown = customize.shown(target.key, target.stored);
  const list = shown.commands ?? [];
  return (
    <Modal id="commandsDialog" title={t('CzCommands')} onClose={onClose} wide>
      {list.length === 0 && <p className="muted">{t('CzNoCommands')}</p>}
      <ul className="cz-list">
        {list.map((c, i) => (
          <li key={`${c.name}-${i}`} className="cz-list-row">
            <span className="cz-list-name">
              {c.name} <span className="muted small">· {c.kind}</span>
            </span>
            <input aria-label={`${t('CzLabel')} ${c.name}`} placeholder={t('CzLabel')} defaultValue={c.label ?? ''} onBlur={(e) => e.target.value !== (c.label ?? '') && run((f) => editCommand(f, i, { label: e.target.value }))} />
            <input aria-label={`${t('CzIcon')} ${c.name}`} placeholder={t('CzIcon')} defaultValue={c.icon ?? ''} onBlur={(e) => e.target.value !== (c.icon ?? '') && run((f) => editCommand(f, i, { icon: e.target.value }))} />
            <input aria-label={`${t('CzPermissions')} ${c.name}`} placeholder="entity;2" defaultValue={c.permissions ?? ''} onBlur={(e) => e.target.value !== (c.permissions ?? '') && run((f) => editCommand(f, i, { permissions: e.target.value }))} />
            <span className="cz-tools">
              <button type="button" className="icon-btn" aria-label={t('CzMoveEarlier', { name: c.name })} disabled={i === 0} onClick={() => run((f) => moveCommand(f, i, i - 1))}>
                <Icon name="chevronLeft" size={15} />
              </button>
              <button type="button" className="icon-btn" aria-label={t('CzMoveLater', { name: c.name })} disabled={i === list.length - 1} onClick={() => run((f) => moveCommand(f, i, i + 1))}>
                <Icon name="chevronRight" size={15} />
              </button>
              <button type="button" className="icon-btn" aria-label={`${t('CzCopy')} ${c.name}`} onClick={() => copyText(copyCommand(c), t)}>
                <Icon name="copy" size={15} />
              </button>
              <button type="button" className="icon-btn cz-danger" aria-label={t('CzRemove', { name: c.name })} onClick={() => run((f) => removeCommand(f, i))}>
                <Icon name="trash" size={15} />
              </button>
            </span>
          </li>
        ))}
      </ul>
    </Modal>
  );
};
