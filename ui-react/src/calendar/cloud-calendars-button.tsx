import { useEffect, useMemo } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useApi } from '../api/context.js';
import { useT } from '../i18n.js';
import type { CalendarModel } from './calendar-model.js';
import { cloudCalendarModel } from './cloud-calendar-model.js';

const memory = {
  get: (k: string): string | null => {
    try {
      return sessionStorage.getItem(k);
    } catch {
      return null;
    }
  },
  set: (k: string, v: string | null): void => {
    try {
      if (v === null) sessionStorage.removeItem(k);
      else sessionStorage.setItem(k, v);
    } catch {
      /* storage may be disabled: the choice lasts the page */
    }
  },
};

/** The title bar's "cloud calendars" command (spec 001 "Calendar"): shows the user's Outlook events, read-only. */
export const CloudCalendarsButton = ({ calendar }: { calendar: CalendarModel }) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const cloud = useMemo(() => cloudCalendarModel(api, memory), [api]);
  const { year, month } = calendar.selected.value;
  useEffect(() => void cloud.load(year, month), [cloud, year, month]);
  useEffect(() => () => cloud.stop(), [cloud]);
  const on = cloud.shown.value;
  return (
    <>
      <button type="button" className={`btn ${on ? 'btn-primary' : 'btn-plain'} cal-cloud-btn`} aria-pressed={on} onClick={() => void cloud.toggle(year, month)} title={on ? t('CloudCalendarsHide') : t('CloudCalendars')}>
        {t('CloudCalendars')}
        {cloud.loading.value && <span className="spinner small" aria-hidden="true" />}
      </button>
      {cloud.error.value && (
        <span className="error-text small cal-cloud-error" role="alert">
          {cloud.error.value}
        </span>
      )}
    </>
  );
};
