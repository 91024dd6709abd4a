import { autoNumberRule } from './auto-number.js';
import { lineItemTotalsRule } from './line-item-totals.js';
import type { WriteRule } from './record-writes.js';
import { triggerOutboxRule } from './trigger-outbox.js';
import { blobRegistryRule } from '../files/blob-registry.js';

/**
 * The rules every store runs inside each write's transaction (see `WriteRule` in
 * record-writes.ts), in this order. Each rule is a module of its own beside this one; add it here
 * with one line. A rule does nothing for an organization whose metadata or data does not use it
 * (no inu_autonumber row for the entity, no entity of a line item's shape, no trigger).
 */
export const WRITE_RULES: readonly WriteRule[] = [
  // before the line-item rule: a numbered line's number is in place before its amounts
  autoNumberRule,
  lineItemTotalsRule,
  // the file registry's references, in the record's transaction (issue 18, core/src/files/blob-registry.ts)
  blobRegistryRule,
  // last: a trigger's condition sees the record as the other rules left it
  triggerOutboxRule,
];
