import { useEffect, useRef, useState } from 'react';
import type { QuickFilter, QuickFilterSelection, RangeSelection } from '../../core.js';
import { DAY_FILTER_MAX_YEAR, DAY_FILTER_MIN_YEAR } from '../../core.js';
import { useT } from '../../i18n.js';

/** Typing waits for a pause before the list asks the server (as the search box). */
export const TYPING_PAUSE_MS = 250;

/** The input limits of the day filters (spec 001 section 2: years 1801 to 2199). */
const DAY_MIN = `${DAY_FILTER_MIN_YEAR}-01-01`;
const DAY_MAX = `${DAY_FILTER_MAX_YEAR}-12-31`;

/** Text as the user types it, passed on after a pause; an outside change (Show all) replaces it. */
const usePausedText = (value: string, onChange: (v: string) => void): [string, (v: string) => void] => {
  const [text, setText] = useState(value);
  const sent = useRef(value);
  useEffect(() => {
    if (value !== sent.current) {
      sent.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => {
    if (text === sent.current) return;
    const h = setTimeout(() => {
      sent.current = text;
      onChange(text);
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(h);
  }, [text]);
  return [text, setText];
};

const scalarText = (value: QuickFilterSelection): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/**
 * A text, number or custom input (spec 001 section 2): applied once its length reaches
 * minimumLength; shorter input is shown with the hint of how many characters are needed.
 */
export const TextFilter = ({ def, value, onChange, label, numeric, describedBy, invalid }: { def: QuickFilter; value: QuickFilterSelection; onChange: (v: QuickFilterSelection) => void; label: string; numeric?: boolean; describedBy?: string; invalid?: boolean }) => {
  const t = useT();
  const [text, setText] = usePausedText(scalarText(value), (v) => onChange(v === '' ? null : v));
  const min = def.minimumLength ?? 0;
  const short = text.trim() !== '' && text.trim().length < min;
  const hintId = `qf-${def.name}-min`;
  return (
    <>
      <input
        id={`qf-${def.name}`}
        type={numeric ? 'text' : 'search'}
        inputMode={numeric ? 'decimal' : undefined}
        aria-label={label}
        aria-describedby={[short ? hintId : '', describedBy ?? ''].join(' ').trim() || undefined}
        aria-invalid={invalid || undefined}
        placeholder={label}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && text !== '') {
            e.preventDefault();
            setText('');
          }
        }}
      />
      {short && (
        <span id={hintId} className="qf-hint" role="status">
          {t('MsgFilterMinimumLength', { n: min })}
        </span>
      )}
    </>
  );
};

/** A from-to pair: dates (daterange, dayrange with the 1801-2199 limits) or numbers (numericrange). */
export const RangeFilter = ({ def, value, onChange, label, describedBy, invalid }: { def: QuickFilter; value: QuickFilterSelection; onChange: (v: QuickFilterSelection) => void; label: string; describedBy?: string; invalid?: boolean }) => {
  const t = useT();
  const range: RangeSelection = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as RangeSelection) : {};
  const numeric = def.type === 'numericrange';
  const limits = def.type === 'dayrange' ? { min: DAY_MIN, max: DAY_MAX } : {};
  // Both ends pass on after a pause: each reads the latest range, not the one of its own render.
  const latest = useRef(range);
  latest.current = range;
  const set = (end: 'from' | 'to', v: string) => {
    const next = { ...latest.current, [end]: v === '' ? null : v };
    latest.current = next;
    onChange(next.from == null && next.to == null ? null : next);
  };
  const [from, setFrom] = usePausedText(String(range.from ?? ''), (v) => set('from', v));
  const [to, setTo] = usePausedText(String(range.to ?? ''), (v) => set('to', v));
  const common = { 'aria-describedby': describedBy, 'aria-invalid': invalid || undefined, ...limits };
  return (
    <div className="range" role="group" aria-label={label}>
      {numeric ? (
        <>
          <input type="text" inputMode="decimal" aria-label={`${label} ${t('LblFrom')}`} placeholder={t('LblFrom')} value={from} onChange={(e) => setFrom(e.target.value)} {...common} />
          <span aria-hidden="true">–</span>
          <input type="text" inputMode="decimal" aria-label={`${label} ${t('LblTo')}`} placeholder={t('LblTo')} value={to} onChange={(e) => setTo(e.target.value)} {...common} />
        </>
      ) : (
        <>
          {/* A date input is set at once (its value is whole or empty), no pause needed. */}
          <input type="date" aria-label={`${label} ${t('LblFrom')}`} value={String(range.from ?? '')} onChange={(e) => set('from', e.target.value)} {...common} />
          <span aria-hidden="true">–</span>
          <input type="date" aria-label={`${label} ${t('LblTo')}`} value={String(range.to ?? '')} onChange={(e) => set('to', e.target.value)} {...common} />
        </>
      )}
    </div>
  );
};

/** One day (spec 001 section 2: years 1801 to 2199 only). */
export const DayFilter = ({ def, value, onChange, label, describedBy, invalid }: { def: QuickFilter; value: QuickFilterSelection; onChange: (v: QuickFilterSelection) => void; label: string; describedBy?: string; invalid?: boolean }) => (
  <input
    id={`qf-${def.name}`}
    type="date"
    aria-label={label}
    aria-describedby={describedBy}
    aria-invalid={invalid || undefined}
    min={DAY_MIN}
    max={DAY_MAX}
    value={typeof value === 'string' ? value : ''}
    onChange={(e) => onChange(e.target.value || null)}
  />
);
