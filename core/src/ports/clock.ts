/** Time comes through a port so every rule is deterministic under test. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };
