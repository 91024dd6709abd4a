import { useState } from 'react';
import type { QuickFilter, QuickFilterSelection } from '../../core.js';
import { useT } from '../../i18n.js';
import { LookupFilter } from './lookup-filter.js';
import { OptionsFilter, type ShownOption } from './options-filter.js';

/** The pulldown value that opens the user picker. */
const OTHER = '\u0000other';

const isUserId = (v: QuickFilterSelection, options: readonly ShownOption[]): v is string =>
  typeof v === 'string' && v !== '' && !options.some((o) => String(o.value) === v);

/**
 * The owner quick filter: All, Mine (and any directOptions), or another user picked by search
 * among the owner field's targets (a pulldown entry "Other user…" shows the picker).
 */
export const OwnerFilter = ({ def, targets, options, value, onChange, label }: { def: QuickFilter; targets: readonly string[]; options: readonly ShownOption[]; value: QuickFilterSelection; onChange: (v: QuickFilterSelection) => void; label: string }) => {
  const t = useT();
  const [picking, setPicking] = useState(false);
  if (def.multiSelect || targets.length === 0) return <OptionsFilter def={def} options={options} value={value} onChange={onChange} label={label} />;
  const other = picking || isUserId(value, options);
  const selected = other ? OTHER : typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  return (
    <div className="qf-owner-pick">
      <select
        id={`qf-${def.name}`}
        aria-label={label}
        value={selected}
        onChange={(e) => {
          const v = e.target.value;
          setPicking(v === OTHER);
          if (v !== OTHER) onChange(v === '' ? null : (options.find((o) => String(o.value) === v)?.value ?? v));
          else if (!isUserId(value, options) && def.mustSelect !== true) onChange(null);
        }}
      >
        {!def.mustSelect && <option value="">{t('LblAll')}</option>}
        {options.map((o) => (
          <option key={String(o.value)} value={String(o.value)}>
            {o.label}
          </option>
        ))}
        <option value={OTHER}>{t('LblOtherUser')}</option>
      </select>
      {other && (
        <LookupFilter
          id={`qf-${def.name}-user`}
          targets={targets}
          value={isUserId(value, options) ? value : null}
          onChange={(v) => {
            if (v === null) setPicking(true);
            onChange(v);
          }}
          label={`${label}: ${t('LblOtherUser')}`}
        />
      )}
    </div>
  );
};
