import type { QuickFilter, QuickFilterOptionValue, QuickFilterSelection } from '../../core.js';
import { useT } from '../../i18n.js';
import { Icon } from '../../ui/icons.js';

/** An option as the bar shows it. */
export type ShownOption = { value: QuickFilterOptionValue; label: string; color?: string };

/** Above this many options a radio-format filter is drawn as a pulldown anyway (chips would wrap over several lines). */
export const MAX_CHIPS = 6;

const chosenOf = (value: QuickFilterSelection): string[] =>
  (Array.isArray(value) ? value : value === null || typeof value === 'object' ? [] : [value]).map(String);

/**
 * An options-like quick filter (options, date, age, owner, custom with options): chips for the
 * radio format, a pulldown for the select format (or many options), a checkbox menu when several
 * may be chosen. A mustSelect filter offers no "All" (it cannot be cleared); `value` is the
 * effective selection, so its default shows as chosen.
 */
export const OptionsFilter = ({ def, options, value, onChange, label }: { def: QuickFilter; options: readonly ShownOption[]; value: QuickFilterSelection; onChange: (v: QuickFilterSelection) => void; label: string }) => {
  const t = useT();
  const chosen = chosenOf(value);
  const id = `qf-${def.name}`;
  const typed = (vals: string[]) => vals.map((v) => options.find((o) => String(o.value) === v)?.value ?? v);
  const asPulldown = def.optionsFormat === 'select' || options.length > MAX_CHIPS;
  if (def.multiSelect && asPulldown) {
    const set = new Set(chosen);
    const summary = chosen.length === 0 ? t('LblAll') : chosen.length === 1 ? (options.find((o) => String(o.value) === chosen[0])?.label ?? chosen[0]) : t('MsgSelected', { n: chosen.length });
    return (
      <details
        className="multi"
        id={id}
        onKeyDown={(e) => {
          if (e.key === 'Escape') (e.currentTarget as HTMLDetailsElement).open = false;
        }}
      >
        <summary aria-label={`${label}: ${summary}`}>
          <span>{summary}</span>
          <Icon name="chevronDown" size={14} />
        </summary>
        <div className="multi-menu" role="group" aria-label={label}>
          {options.map((o) => (
            <label key={String(o.value)}>
              <input
                type="checkbox"
                checked={set.has(String(o.value))}
                onChange={() => {
                  const on = set.has(String(o.value));
                  onChange(options.filter((x) => (String(x.value) === String(o.value) ? !on : set.has(String(x.value)))).map((x) => x.value));
                }}
              />
              {o.color && <span className="dot" style={{ background: o.color }} aria-hidden="true" />}
              {o.label}
            </label>
          ))}
        </div>
      </details>
    );
  }
  if (asPulldown) {
    return (
      <select
        id={id}
        aria-label={label}
        multiple={def.multiSelect}
        value={def.multiSelect ? chosen : (chosen[0] ?? '')}
        onChange={(e) => {
          const vals = typed([...e.target.selectedOptions].map((o) => o.value).filter((v) => v !== ''));
          onChange(def.multiSelect ? vals : (vals[0] ?? null));
        }}
      >
        {!def.multiSelect && !def.mustSelect && <option value="">{t('LblAll')}</option>}
        {options.map((o) => (
          <option key={String(o.value)} value={String(o.value)}>
            {o.label}
          </option>
        ))}
      </select>
    );
  }
  return (
    <div className="chips" role="group" aria-label={label}>
      {!def.mustSelect && (
        <button type="button" className={`chip ${chosen.length === 0 ? 'on' : ''}`} aria-pressed={chosen.length === 0} onClick={() => onChange(null)}>
          {t('LblAll')}
        </button>
      )}
      {options.map((o) => {
        const on = chosen.includes(String(o.value));
        return (
          <button
            key={String(o.value)}
            type="button"
            className={`chip ${on ? 'on' : ''}`}
            aria-pressed={on}
            onClick={() => {
              if (def.multiSelect) onChange(typed(on ? chosen.filter((v) => v !== String(o.value)) : [...chosen, String(o.value)]));
              // A mustSelect chip stays on when clicked again (it cannot be cleared).
              else onChange(on ? (def.mustSelect ? o.value : null) : o.value);
            }}
          >
            {o.color && <span className="dot" style={{ background: o.color }} aria-hidden="true" />}
            {o.label}
          </button>
        );
      })}
    </div>
  );
};
