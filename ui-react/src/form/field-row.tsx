import type { FormField } from '../core.js';
import { FIELD_SEPARATOR, hasFlag } from '../core.js';
import { useT } from '../i18n.js';
import { AddressField } from '../address/address-field.js';
import { ADDRESS_WITH_MAP } from '../address/address-field-model.js';
import { FieldEditor } from './editors.js';
import { StageField } from './stage-field.js';
import { STAGE_COMPONENT } from './stage-field-model.js';
import { FileField, isFileProperty } from '../files/file-field.js';
import type { PanelContext } from './panel-context.js';

/** One field of a Fields panel: label (with the Required marker), its editor by type, the hint. */
export const FieldRow = ({ f, ctx }: { f: FormField; ctx: PanelContext }) => {
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
  const conflictId = ctx.review?.fields.has(p.logicalName) ? `${id}-conflict` : undefined;
  const hintId = [f.tooltip ? `${id}-hint` : undefined, conflictId].filter(Boolean).join(' ') || undefined;
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
      {f.customComponent === ADDRESS_WITH_MAP ? (
        <AddressField id={id} p={p} f={f} ctx={ctx} disabled={disabled} invalid={invalid} describedBy={hintId} label={label} />
      ) : isFileProperty(p) && !f.customComponent ? (
        <FileField id={id} p={p} f={f} ctx={ctx} disabled={disabled} invalid={invalid} describedBy={hintId} label={label} />
      ) : f.customComponent === STAGE_COMPONENT ? (
        <StageField id={id} p={p} f={f} value={ctx.record[p.logicalName]} disabled={disabled} describedBy={hintId} label={label} onChange={(v) => ctx.setValue(p.logicalName, v)} />
      ) : (
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
      )}
      {f.tooltip && (
        <span className="hint" id={`${id}-hint`}>
          {f.tooltip}
        </span>
      )}
      {conflictId && (
        <span className="field-conflict" id={conflictId}>
          {ctx.review?.note}
        </span>
      )}
    </div>
  );
};
