/**
 * Spec 001 section 4: "Change events run one at a time and are rescheduled if changes arrive
 * while running." The queue is the pure state of that rule: which fields wait for the change
 * event, and whether one is running. The form model drives it (edit -> `changeQueued`, the run's
 * end -> `changeFinished`) and starts a run whenever an answer says so; the fields a run gets are those
 * changed since the previous run started.
 */
export type ChangeQueue = { running: boolean; pending: readonly string[] };

/** What the caller does next: start a run with these fields, or nothing (one is running or none waits). */
export type ChangeStep = { queue: ChangeQueue; start?: readonly string[] };

export const CHANGE_QUEUE_IDLE: ChangeQueue = { running: false, pending: [] };

const union = (a: readonly string[], b: readonly string[]): string[] => [...new Set([...a, ...b])];

/** Fields were edited: start now when idle, else wait for the running event to finish. */
export const changeQueued = (q: ChangeQueue, fields: readonly string[]): ChangeStep => {
  const pending = union(q.pending, fields);
  if (q.running || pending.length === 0) return { queue: { running: q.running, pending } };
  return { queue: { running: true, pending: [] }, start: pending };
};

/** The running event ended: the changes that arrived meanwhile start the next run. */
export const changeFinished = (q: ChangeQueue): ChangeStep =>
  q.pending.length === 0 ? { queue: CHANGE_QUEUE_IDLE } : { queue: { running: true, pending: [] }, start: q.pending };
