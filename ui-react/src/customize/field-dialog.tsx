import { useState } from 'react';
import type { FieldDialogProps, FormField } from '../core.js';
import { fieldDialogProps } from '../core.js';
import { useT } from '../i18n.js';
import { ADDRESS_WITH_MAP } from '../address/address-field-model.js';
import { STAGE_COMPONENT } from '../form/stage-field-model.js';
import { Modal } from '../ui/modal.js';

/** Field components a form field may name (customComponent): the built-in ones (field-row.tsx). */
const FIELD_COMPONENTS = [ADDRESS_WITH_MAP, STAGE_COMPONENT] as const;

/**
 * The customize field dialog (spec 001 section 2: formFieldDialog): label, disabled, gridColumn,
 * gridRow, cssClass, tooltip, the required override and customComponent. Empty means "as the
 * field's property says" and is removed from the form.
 */
export const FieldDialog = ({ field, title, onApply, onClose }: { field: FormField; title: string; onApply: (props: FieldDialogProps) => void; onClose: () => void }) => {
  const t = useT();
  const [v, setV] = useState<FieldDialogProps>(() => fieldDialogProps(field));
  const text = (k: 'label' | 'gridColumn' | 'gridRow' | 'cssClass' | 'tooltip' | 'customComponent') => ({
    id: `ffd-${k}`,
    value: v[k] ?? '',
    onChange: (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value }),
  });
  // Every key is sent: an emptied one is cleared on the form.
  const apply = () => onApply({ label: v.label, disabled: v.disabled, required: v.required, gridColumn: v.gridColumn, gridRow: v.gridRow, cssClass: v.cssClass, tooltip: v.tooltip, customComponent: v.customComponent });
  const components = [...new Set([...FIELD_COMPONENTS, ...(field.customComponent ? [field.customComponent] : [])])];
  return (
    <Modal id="formFieldDialog" title={title} onClose={onClose}>
      {/* Not a <form>: the dialog sits inside the record form, and forms do not nest. Enter applies. */}
      <div className="cz-dialog-form" onKeyDown={(e) => e.key === 'Enter' && e.target instanceof HTMLInputElement && (e.preventDefault(), apply())}>
        <div className="field">
          <label htmlFor="ffd-label">{t('CzLabel')}</label>
          <input {...text('label')} autoFocus />
        </div>
        <div className="cz-two">
          <div className="field">
            <label htmlFor="ffd-gridColumn">{t('CzGridColumn')}</label>
            <input {...text('gridColumn')} placeholder="1 / -1" />
          </div>
          <div className="field">
            <label htmlFor="ffd-gridRow">{t('CzGridRow')}</label>
            <input {...text('gridRow')} placeholder="2" />
          </div>
        </div>
        <div className="cz-two">
          <div className="field">
            <label htmlFor="ffd-cssClass">{t('CzCssClass')}</label>
            <input {...text('cssClass')} />
          </div>
          <div className="field">
            <label htmlFor="ffd-required">{t('CzRequired')}</label>
            <select
              id="ffd-required"
              value={v.required === undefined ? '' : v.required ? 'yes' : 'no'}
              onChange={(e) => setV({ ...v, required: e.target.value === '' ? undefined : e.target.value === 'yes' })}
            >
              <option value="">{t('CzRequiredAsField')}</option>
              <option value="yes">{t('CzRequiredYes')}</option>
              <option value="no">{t('CzRequiredNo')}</option>
            </select>
          </div>
        </div>
        <div className="field">
          <label htmlFor="ffd-tooltip">{t('CzTooltip')}</label>
          <input {...text('tooltip')} />
        </div>
        <div className="field">
          <label htmlFor="ffd-customComponent">{t('CzCustomComponent')}</label>
          <input {...text('customComponent')} list="ffd-components" />
          <datalist id="ffd-components">
            {components.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
        </div>
        <label className="cz-check">
          <input type="checkbox" checked={v.disabled === true} onChange={(e) => setV({ ...v, disabled: e.target.checked ? true : undefined })} /> {t('CzDisabled')}
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
