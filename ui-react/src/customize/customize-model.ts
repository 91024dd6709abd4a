import { batch, computed, signal } from '@preact/signals-react';
import { isLeft, type Either } from 'fp-ts/lib/Either.js';
import type { Chart, CustomizationScope, Form, InputError, ListView, QuickFilterSet, StoredViewObject, ViewWrite } from '../core.js';
import { customizationWrites, VIEW_BODY_CODECS } from '../core.js';
import type { ApiClient } from '../api/client.js';

/**
 * Customize mode (spec 001 sections 1, 2 and 6, issue 15) as a model of signals: the level
 * (off, on, super), the drafts of the metadata objects being edited (forms, list views, quick
 * filter sets, charts), the undo stack of this session, and the save as inu_view records.
 * Screens draw the draft of an object in place of its stored body, so every edit shows live on
 * the real form and list. The edits themselves are the core's pure functions (layout-edits.ts).
 */

export type CustomizeLevel = 'off' | 'on' | 'super';
export type Bodies = { form: Form; view: ListView; filter: QuickFilterSet; chart: Chart };
export type DraftKind = keyof Bodies;
/** One metadata object: its kind, entity and inu_view name. */
export type DraftKey<K extends DraftKind = DraftKind> = { kind: K; objectname: string; name: string };
export type Draft = { [K in DraftKind]: DraftKey<K> & { body: Bodies[K] } }[DraftKind];

/** Undo keeps this many steps (a session's work; older steps drop off). */
export const UNDO_LIMIT = 200;

export const draftId = (k: DraftKey): string => `${k.kind}|${k.objectname}|${k.name}`;

/** A key event as the shortcuts read it (a KeyboardEvent fits). */
export type KeyLike = Pick<KeyboardEvent, 'code' | 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>;

export type SaveResult = { _tag: 'Saved'; writes: number } | { _tag: 'Nothing' } | { _tag: 'Failed'; error: unknown };

export type CustomizeApi = Pick<ApiClient, 'fetch' | 'update'>;

export type CustomizeOptions = {
  /** Spec 001 section 6: customize mode needs update permission on inu_view. */
  canCustomize: () => boolean;
  /** Spec 001 section 2: super edit for users with system user permission level 3. */
  canSuperEdit: () => boolean;
};

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const idOf = (v: unknown): string | null => (v && typeof v === 'object' ? str((v as { id?: unknown }).id) : str(v));

export const customizeModel = ({ canCustomize, canSuperEdit }: CustomizeOptions) => {
  const level = signal<CustomizeLevel>('off');
  const drafts = signal<ReadonlyMap<string, Draft>>(new Map());
  const undoStack = signal<ReadonlyArray<ReadonlyMap<string, Draft>>>([]);
  /** Who a save is for: the saver alone, or everyone (spec 000 section 3: isprivate). */
  const scope = signal<CustomizationScope>('private');
  const saving = signal(false);
  const active = computed(() => level.value !== 'off');
  const dirty = computed(() => drafts.value.size > 0);
  const canUndo = computed(() => undoStack.value.length > 0);

  /** Ctrl+E toggles; Meta or Alt plus E enters super edit. Answers whether the key was one of them. */
  const shortcut = (e: KeyLike): boolean => {
    if (e.code !== 'KeyE' && e.key.toLowerCase() !== 'e') return false;
    if (e.ctrlKey && !e.altKey && !e.metaKey) {
      if (level.value !== 'off') level.value = 'off';
      else if (canCustomize()) level.value = 'on';
      else return false;
      return true;
    }
    if ((e.metaKey || e.altKey) && !e.ctrlKey && canCustomize() && canSuperEdit()) {
      level.value = 'super';
      scope.value = 'everyone';
      return true;
    }
    return false;
  };

  const setLevel = (l: CustomizeLevel): void => {
    if (l === 'off' || (canCustomize() && (l === 'on' || canSuperEdit()))) level.value = l;
  };

  /** The draft body of an object, or undefined when it is not being edited (read in a computed: followed). */
  const draft = <K extends DraftKind>(key: DraftKey<K>): Bodies[K] | undefined => drafts.value.get(draftId(key))?.body as Bodies[K] | undefined;

  /** What a screen shows: the draft while customizing, else the stored body. */
  const shown = <K extends DraftKind>(key: DraftKey<K>, stored: Bodies[K]): Bodies[K] => (level.value === 'off' ? stored : (draft(key) ?? stored));

  /**
   * One edit of an object: `f` gets the current body (the draft, else the stored one) and answers
   * the next, or why not. A change is one undo step; a refusal changes nothing.
   */
  const edit = <K extends DraftKind>(key: DraftKey<K>, stored: Bodies[K], f: (body: Bodies[K]) => Either<InputError, Bodies[K]>): Either<InputError, Bodies[K]> => {
    const current = draft(key) ?? stored;
    const next = f(current);
    if (isLeft(next)) return next;
    if (JSON.stringify(next.right) === JSON.stringify(current)) return next;
    batch(() => {
      undoStack.value = [...undoStack.value, drafts.value].slice(-UNDO_LIMIT);
      const m = new Map(drafts.value);
      m.set(draftId(key), { ...key, body: next.right } as Draft);
      drafts.value = m;
    });
    return next;
  };

  /** Undo within the session: the drafts as they were before the last edit. */
  const undo = (): void => {
    const stack = undoStack.value;
    if (stack.length === 0) return;
    batch(() => {
      drafts.value = stack[stack.length - 1] as ReadonlyMap<string, Draft>;
      undoStack.value = stack.slice(0, -1);
    });
  };

  const discard = (): void =>
    batch(() => {
      drafts.value = new Map();
      undoStack.value = [];
    });

  /** The stored records of an object: public ones and private ones (with their owner). */
  const storedOf = async (api: CustomizeApi, d: Draft): Promise<StoredViewObject[]> => {
    const found = await api.fetch({
      entity: {
        name: 'inu_view',
        allattrs: true,
        filter: {
          type: 'and',
          conditions: [
            { attribute: 'kind', operator: 'eq', value: d.kind },
            { attribute: 'objectname', operator: 'eq', value: d.objectname },
            { attribute: 'name', operator: 'eq', value: d.name },
          ],
        },
      },
      page: 1,
      pageSize: 100,
    });
    return found.records.map((r) => ({
      id: String(r.id),
      isprivate: r.isprivate === true,
      ownerid: idOf(r.ownerid) ?? idOf(r.createdby),
      appid: r.appid && typeof r.appid === 'object' ? (r.appid as StoredViewObject['appid']) : null,
    }));
  };

  /** The writes of every draft (for the scope chosen), in the order to send them. */
  const plan = async (api: CustomizeApi, userId: string): Promise<ViewWrite[]> => {
    const writes: ViewWrite[] = [];
    for (const d of drafts.value.values()) {
      const body = JSON.stringify((VIEW_BODY_CODECS[d.kind] as { encode: (b: unknown) => unknown }).encode(d.body));
      writes.push(...customizationWrites({ kind: d.kind, name: d.name, objectname: d.objectname, body, scope: scope.value, userId, existing: await storedOf(api, d) }));
    }
    return writes;
  };

  /**
   * Saves the drafts as inu_view records (create without id, else update; private or for
   * everyone). `reload` brings the new metadata in before the drafts go, so the screen does not
   * flash the old layout; other clients reload through the metadata-changed event.
   */
  const save = async (api: CustomizeApi, userId: string, reload: () => Promise<void> = async () => {}): Promise<SaveResult> => {
    if (saving.value) return { _tag: 'Nothing' };
    if (drafts.value.size === 0) return { _tag: 'Nothing' };
    saving.value = true;
    try {
      const writes = await plan(api, userId);
      for (const w of writes) await api.update(w.operation, 'inu_view', w.object);
      await reload();
      discard();
      return { _tag: 'Saved', writes: writes.length };
    } catch (error) {
      return { _tag: 'Failed', error };
    } finally {
      saving.value = false;
    }
  };

  return { level, active, drafts, dirty, canUndo, scope, saving, shortcut, setLevel, draft, shown, edit, undo, discard, save };
};

export type CustomizeModel = ReturnType<typeof customizeModel>;

