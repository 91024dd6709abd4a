import { hasFlag, type Entity, type EntityRecord } from '../metadata/entity.js';
import { lineItemShapeOf } from '../store/line-item-totals.js';
import type { DemoEntityRecords } from './demo-records.js';

/**
 * The demo organization's auto numbers (issue 16): for each field with the AutoNumber flag whose
 * demo values are a prefix and a number (ACC-00001 ...), an inu_autonumber row that carries the
 * numbering on, so the next account a user creates is ACC-00061. Pure: a function of the set.
 */
export const demoAutoNumbers = (entities: readonly Entity[], set: readonly DemoEntityRecords[]): EntityRecord[] => {
  const out: EntityRecord[] = [];
  for (const { entity, records } of set) {
    const e = entities.find((x) => x.logicalName === entity);
    for (const p of e?.properties ?? []) {
      if (!hasFlag(p, 'AutoNumber') || p.type !== 'String') continue;
      const parts = records.map((r) => /^(.*?)(\d+)$/.exec(typeof r[p.logicalName] === 'string' ? String(r[p.logicalName]) : ''));
      if (parts.length === 0 || parts.some((m) => m === null)) continue;
      const prefix = parts[0]![1];
      const digits = parts[0]![2].length;
      if (parts.some((m) => m![1] !== prefix || m![2].length !== digits)) continue;
      const next = Math.max(...parts.map((m) => Number(m![2]))) + 1;
      out.push({ name: `${entity}.${p.logicalName}`, objectname: entity, fieldname: p.logicalName, prefix, digits, nextnumber: next });
    }
  }
  return out;
};

/**
 * The parents of line items among the entities and the field their lines add up to: the store's
 * line-item rule moves that field with each line written, so the demo writes a parent with 0 there
 * and its lines bring it to their sum (the set's value).
 */
export const lineItemParents = (entities: readonly Entity[]): Map<string, string> => {
  const lookup = (name: string) => entities.find((e) => e.logicalName === name);
  const out = new Map<string, string>();
  for (const e of entities) {
    const shape = lineItemShapeOf(lookup, e);
    if (shape) out.set(shape.parentEntity, shape.totalField);
  }
  return out;
};
