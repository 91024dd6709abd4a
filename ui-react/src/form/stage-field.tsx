import { useEffect, useRef, useState } from 'react';
import type { FieldValue, FormField, Property } from '../core.js';
import { optionsOf } from '../format.js';
import { useT } from '../i18n.js';
import { Icon } from '../ui/icons.js';
import { currentStep, selectStep, stageSteps, stageValue, stepLabel, type StageStep } from './stage-field-model.js';

type StageFieldProps = {
  id: string;
  p: Property;
  f: FormField;
  value: FieldValue | undefined;
  disabled: boolean;
  describedBy?: string;
  label: string;
  onChange: (v: FieldValue) => void;
};

/**
 * The stage field (spec 001 section 4): the option set as steps. The current step is
 * highlighted (aria-current="step"), earlier ones are done; a grouped step opens a menu of its
 * values (Arrow keys, Enter, Escape). A field's customComponent `stage` draws it; its
 * customComponentParameters.steps groups values.
 */
export const StageField = ({ id, p, f, value, disabled, describedBy, label, onChange }: StageFieldProps) => {
  const t = useT();
  const steps = stageSteps(optionsOf(p), f.customComponentParameters);
  const at = stageValue(value, p);
  const current = currentStep(steps, at);
  const [menu, setMenu] = useState<number | null>(null);
  return (
    <div className="stage-field" id={id} role="group" aria-labelledby={`${id}-label`} aria-describedby={describedBy}>
      <ol className="stage-steps">
        {steps.map((s, i) => (
          <li
            key={s.options.map((o) => o.value).join('-')}
            className={`stage-step ${i === current ? 'current' : i < current ? 'done' : ''}`}
            style={
              i === current && s.options[0]?.color
                ? ({
                    '--stage-color': (s.options.find((o) => o.value === at) ?? s.options[0]).color,
                  } as React.CSSProperties)
                : undefined
            }
          >
            <button
              type="button"
              id={`${id}-step-${i}`}
              className="stage-btn"
              disabled={disabled}
              aria-current={i === current ? 'step' : undefined}
              aria-haspopup={s.options.length > 1 ? 'menu' : undefined}
              aria-expanded={s.options.length > 1 ? menu === i : undefined}
              title={s.options.length > 1 ? t('StageChoose', { step: stepLabel(s, at) }) : undefined}
              onClick={() => {
                const sel = selectStep(s);
                if (sel._tag === 'Set') onChange(sel.value);
                else setMenu(menu === i ? null : i);
              }}
            >
              <span className="stage-no" aria-hidden="true">
                {i < current ? <Icon name="check" size={14} /> : i + 1}
              </span>
              <span className="stage-label">{stepLabel(s, at)}</span>
              {s.options.length > 1 && <Icon name="chevronDown" size={14} />}
              {i === current && <span className="sr-only"> ({t('StageCurrent')})</span>}
            </button>
            {menu === i && (
              <StageMenu
                step={s}
                value={at}
                label={`${label}: ${stepLabel(s, at)}`}
                onPick={(v) => {
                  setMenu(null);
                  onChange(v);
                  document.getElementById(`${id}-step-${i}`)?.focus();
                }}
                onClose={() => {
                  setMenu(null);
                  document.getElementById(`${id}-step-${i}`)?.focus();
                }}
              />
            )}
          </li>
        ))}
      </ol>
    </div>
  );
};

/** The choice menu of a grouped step: its values as menu items; Escape or a click elsewhere closes it. */
const StageMenu = ({
  step,
  value,
  label,
  onPick,
  onClose,
}: {
  step: StageStep;
  value: number | undefined;
  label: string;
  onPick: (v: number) => void;
  onClose: () => void;
}) => {
  const ref = useRef<HTMLUListElement>(null);
  const start = Math.max(
    0,
    step.options.findIndex((o) => o.value === value),
  );
  const [active, setActive] = useState(start);
  useEffect(() => {
    (ref.current?.children[active]?.firstElementChild as HTMLElement | null)?.focus();
  }, [active]);
  useEffect(() => {
    const away = (e: MouseEvent) => {
      if (ref.current && !ref.current.parentElement?.contains(e.target as Node)) onClose();
    };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [onClose]);
  const n = step.options.length;
  return (
    <ul
      ref={ref}
      className="stage-menu"
      role="menu"
      aria-label={label}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown') setActive((active + 1) % n);
        else if (e.key === 'ArrowUp') setActive((active - 1 + n) % n);
        else if (e.key === 'Home') setActive(0);
        else if (e.key === 'End') setActive(n - 1);
        else if (e.key === 'Escape' || e.key === 'Tab') onClose();
        else return;
        e.preventDefault();
        e.stopPropagation();
      }}
    >
      {step.options.map((o, i) => (
        <li key={o.value} role="none">
          <button
            type="button"
            role="menuitemradio"
            aria-checked={o.value === value}
            tabIndex={i === active ? 0 : -1}
            className="stage-menu-item"
            onClick={() => onPick(o.value)}
          >
            {o.color && <span className="stage-dot" style={{ background: o.color }} aria-hidden="true" />}
            {o.label}
          </button>
        </li>
      ))}
    </ul>
  );
};
