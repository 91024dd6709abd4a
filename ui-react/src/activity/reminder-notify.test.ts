import { describe, expect, it } from 'vitest';
import { reminderKey, remindersToNotify } from './reminder-notify.js';

const now = new Date('2026-11-26T06:00:30Z');
const a = (id: string, scheduledstart: string | null, status = 1) => ({ id, scheduledstart, status, body: id });

describe('issue 18: a reminder due is notified to its owner once', () => {
  it('due and open within the last day: notified oldest first, at most three; a future, closed, old or told one is not', () => {
    const rows = [
      a('late', '2026-11-26T06:00:00.000Z'),
      a('future', '2026-11-26T06:01:00.000Z'),
      a('closed', '2026-11-26T05:00:00.000Z', 2),
      a('old', '2026-11-25T05:00:00.000Z'),
      a('e1', '2026-11-26T01:00:00.000Z'),
      a('e2', '2026-11-26T02:00:00.000Z'),
      a('told', '2026-11-26T03:00:00.000Z'),
    ];
    const told = new Set([reminderKey(a('told', '2026-11-26T03:00:00.000Z'))]);
    expect(remindersToNotify(rows, told, now).map((x) => x.id)).toEqual(['e1', 'e2', 'late']);
  });
  it('a changed reminder of the same activity notifies again', () => {
    const told = new Set([reminderKey(a('x', '2026-11-26T01:00:00.000Z'))]);
    expect(remindersToNotify([a('x', '2026-11-26T05:00:00.000Z')], told, now).map((x) => x.id)).toEqual(['x']);
  });
});
