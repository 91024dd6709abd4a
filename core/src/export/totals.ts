import type { Property } from '../metadata/entity.js';
import { isQuantity } from '../metadata/field-types.js';

/**
 * The totals row (spec 002 sections 5 and 9): quantities (field-types.ts: Integer, Decimal,
 * Money, Float that are not option sets) are summed, the others count their non-empty values.
 * With `chosen` a list of columns, only those are totalled; the rest of the row stays empty.
 */
export type TotalValue = { kind: 'sum' | 'count'; value: number };

export class Totals {
  private readonly sums = new Map<string, TotalValue>();

  constructor(
    readonly properties: readonly Property[],
    chosen: boolean | readonly string[] = true,
  ) {
    for (const p of properties) {
      if (chosen === false || (Array.isArray(chosen) && !chosen.includes(p.logicalName))) continue;
      this.sums.set(p.logicalName, { kind: isQuantity(p) ? 'sum' : 'count', value: 0 });
    }
  }

  add(record: Readonly<Record<string, unknown>>): void {
    for (const [field, t] of this.sums) {
      const v = record[field];
      if (v === null || v === undefined || v === '') continue;
      if (t.kind === 'count') t.value++;
      else {
        const n = typeof v === 'number' ? v : Number(v);
        if (Number.isFinite(n)) t.value += n;
      }
    }
  }

  /** The total of a field, or undefined when it is not totalled. Sums are rounded to 10 decimals (decimal(23,10)). */
  of(field: string): TotalValue | undefined {
    const t = this.sums.get(field);
    return t === undefined ? undefined : { kind: t.kind, value: t.kind === 'sum' ? Math.round(t.value * 1e10) / 1e10 : t.value };
  }
}
