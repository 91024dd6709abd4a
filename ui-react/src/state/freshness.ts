import { METADATA_MAX_AGE_MS } from '../core.js';

/** Spec 000 section 4: metadata reloads when older than 12 h (43,200,000 ms). */
export const metadataExpired = (s: { loadedAt: number }, now: number): boolean => now - s.loadedAt > METADATA_MAX_AGE_MS;

/** Spec 000 section 4: a build date later than the page load and already past means a newer build is out. */
export const newerBuildOut = (buildDate: string, pageLoadedAt: number, now: number): boolean => {
  const b = Date.parse(buildDate);
  return Number.isFinite(b) && b > pageLoadedAt && b <= now;
};
