import type { EntityRecord } from '../core.js';
import type { ObjectState } from '../dashboard/dashboard-model.js';
import type { ScriptResult } from './sandbox-runner.js';

/**
 * A dashboard object's loaderScript (spec 000 section 3, issue 16): the script runs with the
 * dashboard's selections in `context.params.selections` and returns what the object shows:
 * - a number (or null): the object's figure;
 * - `{ first, second }`: a gauge (first of second, as a percent);
 * - an array of records: a grid (its columns: the keys of the first record, id aside).
 * Anything else, or a failure, shows the object as failed with the script's message.
 */
export const loaderState = (r: ScriptResult, failed: (r: Exclude<ScriptResult, { _tag: 'Completed' }>) => string): ObjectState => {
  if (r._tag !== 'Completed') return { _tag: 'Failed', message: failed(r) };
  const v = r.result;
  if (v === null || typeof v === 'number') return { _tag: 'Number', value: v };
  if (Array.isArray(v)) {
    const rows = v.filter((x): x is EntityRecord => !!x && typeof x === 'object' && !Array.isArray(x));
    const columns = Object.keys(rows[0] ?? {}).filter((k) => k !== 'id');
    return { _tag: 'Grid', entity: '', columns, rows, count: rows.length };
  }
  if (v && typeof v === 'object' && 'first' in v) {
    const { first, second } = v as { first: unknown; second: unknown };
    const num = (x: unknown) => (typeof x === 'number' ? x : null);
    const f = num(first);
    const s = num(second);
    return { _tag: 'Gauge', first: f, second: s, percent: f !== null && s ? Math.round((f / s) * 100) : null };
  }
  return { _tag: 'Failed', message: `loaderScript answered ${JSON.stringify(v)?.slice(0, 80) ?? String(v)}` };
};
