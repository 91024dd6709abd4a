import * as t from 'io-ts';
import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { MAX_NESTING_DEPTH, nestsDeeperThan } from '../nesting-depth.js';
import type { ScriptJson } from '../ports/script-sandbox.js';
import type { FollowUp, NextRule } from './next-rule.js';

/**
 * A What's Next rule's script (spec 002 section 3 "What's Next rule": "custom script name";
 * docs/whats-next.md "Scripts"): it refines what its rule listed. It gets `context` = { rule,
 * records } and returns an array whose items are either the id of a listed record (kept) or
 * `{ name, init, info? }`, a virtual record to propose creating (a row with id "0" whose form
 * opens with `init`). Listed records it does not return are dropped; ids it did not get are
 * ignored (a script cannot list what the rule did not, nor what the user may not read).
 */

/** A rule script's time limit: What's Next waits for it, so it stays short. */
export const RULE_SCRIPT_TIME_MS = 2_000;
/** Virtual records one rule's script may propose; beyond, the rest are left out with a note. */
export const RULE_SCRIPT_MAX_VIRTUAL = 200;
/** The largest init of one virtual record, as JSON (it travels in the form's URL). */
export const RULE_SCRIPT_MAX_INIT_CHARS = 4_000;

/** The record fields a script gets: the rule's own fields, as its inu_nextrule record names them. */
export const ruleScriptRule = (rule: NextRule): ScriptJson => ({
  id: rule.id,
  name: rule.name,
  objectname: rule.objectName,
  related: rule.related ? `${rule.related.entity}.${rule.related.field}` : null,
  relatedmaxage: rule.relatedMaxAge,
  nullrelatedmaxage: rule.nullRelatedMaxAge,
  statusfield: rule.statusField,
  statusvalues: rule.statusValues.join(';'),
  script: rule.script,
  can_create: rule.canCreate,
  description: rule.info,
});

/** One listed record as the script sees it: id, name, createdon, and what the rule read of it. */
export type RuleScriptRecord = {
  id: string;
  name: string | null;
  createdon: string | null;
  /** The rule's status field and its value (when the rule reads one). */
  [field: string]: ScriptJson;
};

/** The script's `context`. */
export const ruleScriptInput = (rule: NextRule, records: readonly RuleScriptRecord[]): ScriptJson => ({
  rule: ruleScriptRule(rule),
  records: records as unknown as ScriptJson[],
});

const VirtualItem = t.intersection([
  t.type({ name: t.string, init: t.UnknownRecord }),
  t.partial({ info: t.union([t.string, t.null]) }),
]);
const AnswerItem = t.union([t.string, VirtualItem]);

/** What a script's answer made of the rule's rows, and notes (virtual records cut). */
export type RuleRefinement = { items: FollowUp[]; notes: string[] };

/**
 * The rule's rows after the script's answer, or why the answer is not one (then the caller keeps
 * the rule's rows as they were). Kept records keep the rule's order; virtual records follow, in
 * the script's order, at most RULE_SCRIPT_MAX_VIRTUAL.
 */
export const refineByScript = (rule: NextRule, listed: readonly FollowUp[], answer: ScriptJson): Either<string, RuleRefinement> => {
  if (!Array.isArray(answer)) return left('it returned no array (ids of listed records, or { name, init } objects)');
  const keep = new Set<string>();
  const virtual: FollowUp[] = [];
  let cut = 0;
  for (let i = 0; i < answer.length; i++) {
    const item = answer[i];
    const decoded = AnswerItem.decode(item);
    if (isLeft(decoded)) return left(`item ${i} is neither the id of a listed record nor { name, init }`);
    const v = decoded.right;
    if (typeof v === 'string') {
      keep.add(v.toLowerCase());
      continue;
    }
    if (nestsDeeperThan(v.init, MAX_NESTING_DEPTH)) return left(`item ${i}: init is nested deeper than ${MAX_NESTING_DEPTH}`);
    if (JSON.stringify(v.init).length > RULE_SCRIPT_MAX_INIT_CHARS) return left(`item ${i}: init is longer than ${RULE_SCRIPT_MAX_INIT_CHARS} characters`);
    if (virtual.length >= RULE_SCRIPT_MAX_VIRTUAL) {
      cut++;
      continue;
    }
    virtual.push({
      id: '0',
      objectName: rule.objectName,
      name: v.name,
      createdon: null,
      info: v.info === undefined ? rule.info : v.info,
      rule: rule.id,
      init: v.init,
    });
  }
  const kept = listed.filter((f) => keep.has(f.id.toLowerCase()));
  const notes = cut > 0 ? [`Rule ${rule.name}: only the first ${RULE_SCRIPT_MAX_VIRTUAL} proposed records are listed (${cut} more)`] : [];
  return right({ items: [...kept, ...virtual], notes });
};
