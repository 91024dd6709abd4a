import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { EntityRecord } from '../metadata/entity.js';
import type { MetadataSet } from '../metadata/metadata-set.js';
import { DEFAULT_STATUS_FIELD, parseRelated } from './next-rule.js';

/**
 * A follow-up rule as a pack ships it (docs/whats-next.md): the fields of inu_nextrule. Organization
 * set-up writes each as an inu_nextrule record, so a new organization of the pack starts with a
 * What's Next list that means something (the demo: leads to call, invoices to chase).
 */
export const PackNextRule = t.intersection(
  [
    t.type({ name: t.string, objectname: t.string }),
    t.partial({
      label: t.string,
      description: t.string,
      related: t.string,
      relatedmaxage: t.number,
      nullrelatedmaxage: t.number,
      statusfield: t.string,
      statusvalues: t.string,
      script: t.string,
      can_create: t.boolean,
    }),
  ],
  'PackNextRule',
);
export type PackNextRule = t.TypeOf<typeof PackNextRule>;

/** The inu_nextrule record of a pack's rule. */
export const nextRuleRecordOf = (r: PackNextRule): EntityRecord => ({ ...r });

/** What a pack's rule names must exist: its entity, status field and related entity.field. */
export const packNextRuleProblems = (set: MetadataSet, r: PackNextRule): string[] => {
  const where = `nextRule ${r.name}`;
  const problems: string[] = [];
  const field = (entity: string, name: string) => {
    const p = set.property(entity, name);
    if (isLeft(p)) problems.push(`${where}: ${p.left.message}`);
  };
  if (!set.has(r.objectname)) return [`${where}: No Object:${r.objectname}`];
  if (r.statusvalues !== undefined && r.statusvalues.trim() !== '') field(r.objectname, r.statusfield ?? DEFAULT_STATUS_FIELD);
  if (r.related !== undefined) {
    const rel = parseRelated(r.related);
    if (isLeft(rel)) problems.push(`${where}: ${rel.left}`);
    else field(rel.right.entity, rel.right.field);
  }
  return problems;
};
