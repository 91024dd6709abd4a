import { useEffect, useState } from 'react';
import { locale } from '../format.js';

/** An amount as the input shows it: the user's decimal separator, 2 decimals, nothing for none. */
export const amountText = (v: unknown, places = 2): string => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v.replace(',', '.')) : NaN;
  return Number.isFinite(n) ? new Intl.NumberFormat(locale(), { minimumFractionDigits: places, maximumFractionDigits: places, useGrouping: false }).format(n) : '';
};

/**
 * A cost or distance input of precision 2 (spec 002 section 5): typed freely, taken on blur or
 * Enter; text that is no amount stays shown, marked invalid, and is not taken.
 */
export const AmountInput = ({
  id,
  value,
  onCommit,
  label,
  disabled,
  invalidText,
}: {
  id: string;
  value: unknown;
  onCommit: (text: string) => boolean;
  label: string;
  disabled?: boolean;
  invalidText: string;
}) => {
  const shown = amountText(value);
  const [draft, setDraft] = useState(shown);
  const [invalid, setInvalid] = useState(false);
  useEffect(() => {
    setDraft(shown);
    setInvalid(false);
  }, [shown]);
  const take = () => {
    if (draft === shown) return;
    const ok = onCommit(draft);
    setInvalid(!ok);
  };
  return (
    <input
      id={id}
      className="input travel-amount"
      inputMode="decimal"
      aria-label={label}
      aria-invalid={invalid || undefined}
      title={invalid ? invalidText : undefined}
      value={draft}
      disabled={disabled}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={take}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          take();
        }
      }}
    />
  );
};
