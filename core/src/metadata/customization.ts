import type { LookupValue } from './entity.js';
import type { InuViewRecord, ViewKind } from './inu-view.js';

/**
 * Where customize mode stores its edits (spec 000 section 3, spec 001 section 2, issue 15): as
 * inu_view records, created when there is no id, else updated; private (the saver's own) or for
 * everyone. A user's private object shadows the object for everyone of the same kind, entity and
 * name: that user sees their own layout until they drop it (docs/ui.md, Customize mode).
 */

export type CustomizationScope = 'private' | 'everyone';

/** What identifies one metadata object across its private and public copies. */
export const viewObjectKey = (v: Pick<InuViewRecord, 'kind' | 'name'> & { objectname?: string | null }): string =>
  `${v.kind}\u0000${v.objectname ?? ''}\u0000${v.name}`;

/**
 * The metadata objects a user works with: a private object (the user context holds only the
 * caller's own) replaces the public one of the same kind, entity and name; the order is kept.
 */
export const effectiveViewObjects = <V extends Pick<InuViewRecord, 'kind' | 'name' | 'isprivate'> & { objectname?: string | null }>(gui: readonly V[]): V[] => {
  const privateKeys = new Set(gui.filter((g) => g.isprivate === true).map(viewObjectKey));
  return gui.filter((g) => g.isprivate === true || !privateKeys.has(viewObjectKey(g)));
};

/** A stored inu_view record of the object being saved, as the saver's fetch answers it. */
export type StoredViewObject = { id: string; isprivate: boolean; ownerid?: string | null; appid?: LookupValue | null };

/** One write of a save through /api/update on inu_view. */
export type ViewWrite =
  | { operation: 'create'; object: { name: string; kind: ViewKind; objectname: string; body: string; isprivate: boolean; label?: string; appid?: LookupValue } }
  | { operation: 'update'; object: { id: string; body: string; label?: string } }
  | { operation: 'delete'; object: { id: string } };

export type CustomizationSave = {
  kind: ViewKind;
  name: string;
  objectname: string;
  label?: string;
  /** the body as JSON text (the codec of its kind encoded it) */
  body: string;
  scope: CustomizationScope;
  userId: string;
  /** the stored records of this kind, entity and name (public ones and private ones of any owner) */
  existing: readonly StoredViewObject[];
};

/**
 * The writes of a save. Private: update the saver's private copy, else create it (with the app of
 * the public one, so it shows where that one does). For everyone: update the public record, else
 * create it; the saver's own private copy is then deleted, so they see what everyone sees.
 * Other users' private copies are never touched: their own layout stays theirs.
 */
export const customizationWrites = (s: CustomizationSave): ViewWrite[] => {
  const mine = s.existing.find((e) => e.isprivate && e.ownerid === s.userId);
  const everyone = s.existing.find((e) => !e.isprivate);
  const label = s.label === undefined ? {} : { label: s.label };
  const create = (isprivate: boolean, appid?: LookupValue | null): ViewWrite => ({
    operation: 'create',
    object: { name: s.name, kind: s.kind, objectname: s.objectname, body: s.body, isprivate, ...label, ...(appid ? { appid } : {}) },
  });
  if (s.scope === 'private') return [mine ? { operation: 'update', object: { id: mine.id, body: s.body, ...label } } : create(true, everyone?.appid)];
  return [
    everyone ? { operation: 'update', object: { id: everyone.id, body: s.body, ...label } } : create(false, mine?.appid),
    ...(mine ? [{ operation: 'delete' as const, object: { id: mine.id } }] : []),
  ];
};
