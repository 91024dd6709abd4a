import { batch, computed, effect, signal, untracked, type ReadonlySignal } from '@preact/signals-react';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Caller, CountedLane, EntityRecord, FetchRequest } from '../core.js';
import {
  cardRequest,
  countedLanes,
  KANBAN_PAGE_SIZE,
  kanbanFieldOf,
  laneCardsRequest,
  laneCountRequest,
  laneKeyOf,
  mayMoveCard,
  moveCard,
  moveCheckFields,
  optionLanes,
  restoreCard,
} from '../core.js';
import type { ApiClient } from '../api/client.js';
import type { ListModel } from '../list/list-model.js';

/**
 * The kanban board as a model of signals (spec 001 section 2, view mode 4). It follows the list
 * model: the list's fetch of the moment (`currentRequest()`: view query, quick filters, search)
 * gives the lane counts (one aggregate query) and each lane's cards (a page per lane, Show more
 * adds a page). A move is optimistic: the card changes lane at once, the save sends the lane value
 * with the card's version (the server's version check), and a failed save (ERR_8001 too) puts the
 * card back where it was and keeps the error for the board to show. No DOM here: tested in vitest.
 */

/** What the board needs of the API client. */
export type KanbanApi = Pick<ApiClient, 'fetch' | 'update'>;

/** A lane as the board draws it: the counted lane and the cards loaded (null before the first answer). */
export type KanbanLane = CountedLane & { cards: EntityRecord[]; more: boolean };

/** A move that failed: the card (back in its lane) and why. */
export type MoveFailure = { id: string; title: string; error: unknown };

export type KanbanModelOptions = {
  api: KanbanApi;
  list: ListModel;
  caller: () => Caller;
  pageSize?: number;
  /** the pause after a server change before the board reloads (a burst reloads once) */
  refreshDelayMs?: number;
};

export type KanbanModel = ReturnType<typeof kanbanModel>;

export const kanbanModel = ({ api, list, caller, pageSize = KANBAN_PAGE_SIZE, refreshDelayMs = 300 }: KanbanModelOptions) => {
  const entity = list.entity;
  const name = untracked(() => entity.value.logicalName);
  /** The lane field, or why the view cannot be a board. */
  const field = computed(() => kanbanFieldOf(entity.value, list.view.value?.body.kanbanField));
  const lanes = signal<KanbanLane[] | null>(null);
  const loading = signal(false);
  const loadError = signal<unknown>(null);
  const failure = signal<MoveFailure | null>(null);
  /** Cards whose move is being saved: not draggable until it settles. */
  const saving = signal<ReadonlySet<string>>(new Set());
  /** The card moved last (the board keeps the keyboard focus on it in its new lane). */
  const lastMoved = signal<string | null>(null);
  const total = computed(() => lanes.value?.reduce((s, l) => s + l.count, 0) ?? null);
  /** Cards per lane beyond the first page: a reload keeps what Show more loaded (as the list keeps its grown page). */
  const sizes = new Map<string, number>();

  const fieldName = (): string | null => {
    const f = field.value;
    return isLeft(f) ? null : f.right.logicalName;
  };
  /**
   * The list's fetch of the moment, less its quick filters on the lane field: the lanes are that
   * filter (a status filter would empty every lane but one, and a moved card would leave the board).
   */
  const listRequest = () => list.currentRequest({ withoutFiltersOn: fieldName() ?? undefined });
  const extra = (): string[] => moveCheckFields(caller(), entity.value);
  const titleOf = (card: EntityRecord): string => String(card.name ?? card.id ?? '');

  /** Whether the user may move this card: update permission on the record and the field writable (spec 001 section 2). */
  const canMove = (card: EntityRecord): boolean => {
    const f = field.value;
    return !isLeft(f) && mayMoveCard(caller(), entity.value, f.right, card);
  };
  /** The lanes a card may go to: those that accept cards, other than its own. */
  const targetsOf = (card: EntityRecord): KanbanLane[] => {
    const f = fieldName();
    if (!f) return [];
    const own = laneKeyOf(card, f);
    return (lanes.value ?? []).filter((l) => l.accepts && l.key !== own);
  };

  let seq = 0;
  let wanted = false;
  /** Loads the lane counts, then each non-empty lane's first page(s); an answer older than the latest load is dropped. */
  const load = async (): Promise<void> => {
    const f = field.value;
    if (isLeft(f)) return;
    if (saving.value.size > 0) {
      // A reload while a move is saving would show the card in its old lane: load once the save settles.
      wanted = true;
      return;
    }
    const n = ++seq;
    const current = listRequest();
    if (current._tag === 'NoResults') {
      lanes.value = optionLanes(f.right).map((l) => ({ ...l, count: 0, cards: [], more: false }));
      loadError.value = null;
      return;
    }
    loading.value = true;
    const request: FetchRequest = current.request;
    try {
      const counts = await api.fetch(laneCountRequest(request, entity.value, f.right.logicalName));
      if (n !== seq) return;
      const counted = countedLanes(f.right, counts.records as EntityRecord[]);
      const pages = await Promise.all(
        counted.map((l) =>
          l.count > 0
            ? api.fetch(laneCardsRequest(request, entity.value, f.right.logicalName, l.value, { page: 1, pageSize: sizes.get(l.key) ?? pageSize }, extra()))
            : Promise.resolve(null),
        ),
      );
      if (n !== seq) return;
      batch(() => {
        lanes.value = counted.map((l, i) => ({ ...l, cards: (pages[i]?.records ?? []) as EntityRecord[], more: pages[i]?.moreRecords ?? false }));
        loadError.value = null;
      });
    } catch (e) {
      if (n !== seq) return;
      batch(() => {
        loadError.value = e;
        lanes.value = lanes.value ?? [];
      });
    } finally {
      if (n === seq) loading.value = false;
    }
  };

  /** Show more of one lane: it loads a page more (kept for reloads). */
  const showMore = async (key: string): Promise<void> => {
    const f = field.value;
    const lane = lanes.value?.find((l) => l.key === key);
    const current = listRequest();
    if (isLeft(f) || !lane || current._tag === 'NoResults') return;
    const size = (sizes.get(key) ?? pageSize) + pageSize;
    sizes.set(key, size);
    const n = seq;
    try {
      const page = await api.fetch(laneCardsRequest(current.request, entity.value, f.right.logicalName, lane.value, { page: 1, pageSize: size }, extra()));
      if (n !== seq || !lanes.value) return;
      lanes.value = lanes.value.map((l) => (l.key === key ? { ...l, cards: page.records as EntityRecord[], more: page.moreRecords } : l));
    } catch (e) {
      loadError.value = e;
    }
  };

  /** Reads a card again and puts it where the server says it belongs (or drops it when the list no longer holds it). */
  const refreshCard = async (id: string): Promise<void> => {
    const f = fieldName();
    const current = listRequest();
    if (!f || current._tag === 'NoResults') return;
    const answer = await api.fetch(cardRequest(current.request, entity.value, f, id, extra()));
    const fresh = answer.records[0] as EntityRecord | undefined;
    const now = lanes.value;
    if (!now) return;
    if (!fresh) {
      lanes.value = now.map((l) => (l.cards.some((c) => String(c.id) === id) ? { ...l, count: Math.max(0, l.count - 1), cards: l.cards.filter((c) => String(c.id) !== id) } : l));
      return;
    }
    const to = laneKeyOf(fresh, f);
    if (!now.some((l) => l.key === to)) {
      wanted = true; // a value no lane shows yet: the board reloads
      return;
    }
    const holder = now.find((l) => l.cards.some((c) => String(c.id) === id));
    if (holder?.key === to) {
      lanes.value = now.map((l) => (l === holder ? { ...l, cards: l.cards.map((c) => (String(c.id) === id ? fresh : c)) } : l));
      return;
    }
    lanes.value = moveCard(now, id, to, () => fresh)?.lanes ?? now;
  };

  /**
   * Spec 001 section 2: moving a card to a lane sets the field to the lane value. The card moves at
   * once; the save carries its version, so a record changed meanwhile answers ERR_8001. When the
   * save fails the card goes back and `failure` says why; either way the card is read again (its
   * new version, or the server's record) so the next move starts from the truth.
   */
  const move = async (id: string, toKey: string): Promise<'Moved' | 'Failed' | 'Refused'> => {
    const f = fieldName();
    const now = lanes.value;
    const target = now?.find((l) => l.key === toKey);
    const card = now?.flatMap((l) => l.cards).find((c) => String(c.id) === id);
    if (!f || !now || !target?.accepts || !card || !canMove(card) || saving.value.has(id)) return 'Refused';
    const moved = moveCard(now, id, toKey, (c) => ({ ...c, [f]: target.value }));
    if (!moved || moved.from.key === toKey) return 'Refused';
    batch(() => {
      lanes.value = moved.lanes;
      failure.value = null;
      saving.value = new Set([...saving.value, id]);
      lastMoved.value = id;
    });
    let result: 'Moved' | 'Failed' = 'Moved';
    try {
      await api.update('update', name, { id, ...(card.versionnumber !== undefined && card.versionnumber !== null ? { versionnumber: card.versionnumber } : {}), [f]: target.value });
    } catch (error) {
      result = 'Failed';
      batch(() => {
        lanes.value = restoreCard(lanes.value ?? [], id, moved.from);
        failure.value = { id, title: titleOf(card), error };
      });
    }
    try {
      await refreshCard(id);
    } catch {
      wanted = true;
    } finally {
      const rest = new Set(saving.value);
      rest.delete(id);
      saving.value = rest;
    }
    if (wanted && saving.value.size === 0) {
      wanted = false;
      void load();
    }
    return result;
  };

  let refresh: ReturnType<typeof setTimeout> | undefined;
  /** A change on the server: the board reloads after a short pause (after any save under way). */
  const serverChanged = () => {
    clearTimeout(refresh);
    refresh = setTimeout(() => void load(), refreshDelayMs);
  };

  /** Follows the list's query and the lane field: loads now and on every change. Returns the stop function. */
  const start = (): (() => void) => {
    const stop = effect(() => {
      void [field.value, listRequest()];
      untracked(() => void load());
    });
    return () => {
      stop();
      clearTimeout(refresh);
      seq++;
    };
  };

  return {
    field,
    lanes: lanes as ReadonlySignal<KanbanLane[] | null>,
    loading: loading as ReadonlySignal<boolean>,
    loadError: loadError as ReadonlySignal<unknown>,
    failure: failure as ReadonlySignal<MoveFailure | null>,
    saving: saving as ReadonlySignal<ReadonlySet<string>>,
    lastMoved: lastMoved as ReadonlySignal<string | null>,
    total,
    canMove,
    targetsOf,
    start,
    load,
    showMore,
    move,
    serverChanged,
    dismissFailure: () => (failure.value = null),
  };
};
