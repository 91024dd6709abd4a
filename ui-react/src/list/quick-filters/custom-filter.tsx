import type { Property, QuickFilter, QuickFilterSelection } from '../../core.js';
import { customFilterControl, TOGGLE_ON } from '../../core.js';
import { OptionsFilter, type ShownOption } from './options-filter.js';
import { TextFilter } from './input-filters.js';

/**
 * A custom quick filter (spec 001 section 2): its customFetch is what it adds to the query. With
 * options, the chosen option is the fetch's `{{value}}`; a fetch reading `{{value}}` without
 * options takes an input; a fetch reading none is a switch (on applies it). docs/ui.md "Quick filters".
 */
export const CustomFilter = ({ def, property, options, value, onChange, label, describedBy, invalid }: {
  def: QuickFilter;
  property: Property | undefined;
  options: readonly ShownOption[];
  value: QuickFilterSelection;
  onChange: (v: QuickFilterSelection) => void;
  label: string;
  describedBy?: string;
  invalid?: boolean;
}) => {
  switch (customFilterControl(def, property)) {
    case 'options':
      return <OptionsFilter def={def} options={options} value={value} onChange={onChange} label={label} />;
    case 'input':
      return <TextFilter def={def} value={value} onChange={onChange} label={label} describedBy={describedBy} invalid={invalid} />;
    case 'toggle': {
      const on = value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);
      return (
        <button
          type="button"
          role="switch"
          id={`qf-${def.name}`}
          aria-checked={on}
          aria-label={label}
          className={`qf-switch ${on ? 'on' : ''}`}
          // A mustSelect switch cannot be switched off (its value falls back to on).
          onClick={() => onChange(on ? null : TOGGLE_ON)}
          disabled={on && def.mustSelect === true}
        >
          <span className="qf-switch-track" aria-hidden="true">
            <span className="qf-switch-thumb" />
          </span>
        </button>
      );
    }
  }
};
