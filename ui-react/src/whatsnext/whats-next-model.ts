import { batch, computed, effect, signal, untracked } from '@preact/signals-react';
import type { FetchRequest, Filter, Guid, InuViewRecord, ListView, WhatsNextAnswer, WhatsNextRequest, WhatsNextScheduled } from '../core.js';
import { DEFAULT_WHATS_NEXT_SCHEDULED, likeLiteral, ListView as ListViewCodec, WhatsNextScheduled as ScheduledCodec } from '../core.js';
import { isRight } from 'fp-ts/lib/Either.js';

/**
 * The What's Next screen as a model of signals (spec 002 sections 2 and 4; docs/whats-next.md):
 * the filters (scheduled, owner, category) and the page make one POST /api/whatsnext; a change
 * of any of them cancels the load in flight (AbortController) and loads again. A failed load is
 * only logged (spec 002 section 8) and loading ends. No DOM: tested in vitest with a fake client.
 */

/** What the model needs of the API client. */
export type WhatsNextApi = { whatsNext(request: WhatsNextRequest, signal?: AbortSignal): Promise<WhatsNextAnswer> };
/** Where the filters are remembered (spec 002 section 9 "Stored client settings": nextListFilter). */
export type WhatsNextMemory = { get(key: string): string | null; set(key: string, value: string): void };
export type WhatsNextRow = WhatsNextAnswer['records'][number];

/** The local-storage key of the remembered filters. */
export const NEXT_LIST_FILTER_KEY = 'nextListFilter';
/** The saved view whose query lists the owners to choose from (spec 002 section 2). */
export const NEXT_LIST_USERS_VIEW = 'NextListUsers';
export const SCHEDULED_OPTIONS: readonly WhatsNextScheduled[] = ['today', 'tomorrow', 'next-week'];

/** A chosen owner: a user with the name the picker shows. */
export type Owner = { id: string; label: string };

/** The remembered filters; `user` is whose they are (another user signing in on this browser starts at the defaults). */
type Stored = { user: string; scheduled: WhatsNextScheduled; owner: Owner | null; category: string | null };

const remembered = (memory: WhatsNextMemory, user: string): Stored | null => {
  try {
    const s = JSON.parse(memory.get(NEXT_LIST_FILTER_KEY) ?? 'null') as Partial<Stored> | null;
    if (!s || s.user !== user || !ScheduledCodec.is(s.scheduled)) return null;
    const owner = s.owner && typeof s.owner.id === 'string' && typeof s.owner.label === 'string' ? { id: s.owner.id, label: s.owner.label } : null;
    return { user, scheduled: s.scheduled, owner, category: typeof s.category === 'string' ? s.category : null };
  } catch {
    return null;
  }
};

/** Where a row opens: its form, or for a virtual record (id "0") a new one with its init values (spec 002 section 2). */
export const rowLink = (appParam: string, row: WhatsNextRow): string =>
  `/${appParam}/edit/${row.objectName}/${row.id}${row.id === '0' && row.init ? `?init=${encodeURIComponent(JSON.stringify(row.init))}` : ''}`;

/** The New command's target: the entity of the first rule that allows creation (spec 002 section 2). */
export const newRecordLink = (entity: string): string => `/!/edit/${entity}/0`;

/** The rule of a row, opened in a new tab (spec 001: /edit/inu_nextrule/{id}). */
export const ruleLink = (appParam: string, row: WhatsNextRow): string => `/${appParam}/edit/inu_nextrule/${row.rule}`;

/**
 * The owner picker's search: the NextListUsers view's query (its filter and order) with the
 * typed text as a starts-with match on name; without the view, every user by name.
 */
export const ownerSearchRequest = (gui: readonly InuViewRecord[], parse: (g: InuViewRecord) => unknown, text: string, pageSize = 10): FetchRequest => {
  const found = gui.find((g) => g.kind === 'view' && g.objectname === 'systemuser' && g.name === NEXT_LIST_USERS_VIEW);
  const decoded = found ? ListViewCodec.decode(parse(found)) : undefined;
  const view: ListView | undefined = decoded && isRight(decoded) ? decoded.right : undefined;
  const q = likeLiteral(text.trim());
  const typed: Filter | undefined = q ? { type: 'and', conditions: [{ attribute: 'name', operator: 'like', value: `${q}%` }] } : undefined;
  const own = view?.query.filter;
  const filter = own && typed ? { type: 'and' as const, filters: [own, typed] } : (own ?? typed);
  return {
    entity: {
      name: 'systemuser',
      attributes: [{ attribute: 'id' }, { attribute: 'name' }, { attribute: 'emailaddress' }],
      ...(filter ? { filter } : {}),
      orders: view?.query.orders?.length ? view.query.orders : [{ attribute: 'name' }],
    },
    page: 1,
    pageSize,
  };
};

export type WhatsNextModelOptions = {
  api: WhatsNextApi;
  /** The signed-in user: the default owner. */
  me: Owner;
  memory: WhatsNextMemory;
  timeZone?: string;
  /** Failures and rule notes go here (spec 002 section 8: a load failure is only logged). */
  log?: (message: string, detail?: unknown) => void;
};

export type WhatsNextModel = ReturnType<typeof whatsNextModel>;

export const whatsNextModel = ({ api, me, memory, timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone, log = (m, d) => console.warn(m, d) }: WhatsNextModelOptions) => {
  const stored = remembered(memory, me.id);
  // Spec 002 section 4: scheduled today and the current user, unless this user chose otherwise before.
  const scheduled = signal<WhatsNextScheduled>(stored?.scheduled ?? DEFAULT_WHATS_NEXT_SCHEDULED);
  const owner = signal<Owner | null>(stored ? stored.owner : me);
  const category = signal<string | null>(stored?.category ?? null);
  const page = signal(1);

  const rows = signal<WhatsNextRow[] | null>(null);
  const count = signal(0);
  const pageSize = signal(10);
  const more = signal(false);
  const categories = signal<readonly string[]>([]);
  const createEntity = signal<string | null>(null);
  const loading = signal(false);
  /** Set once a load failed: the screen shows its empty state, the reason is in the log. */
  const failed = signal(false);
  const pages = computed(() => Math.max(1, Math.ceil(count.value / Math.max(1, pageSize.value))));
  /** The category filter's choices: the types present, and the chosen one while it is chosen (so it can be cleared). */
  const categoryChoices = computed(() => (category.value && !categories.value.includes(category.value) ? [...categories.value, category.value] : categories.value));

  let inFlight: AbortController | null = null;

  /** The request of the filters now. */
  const request = (): WhatsNextRequest => ({
    scheduled: scheduled.value,
    // An owner picked from the users' own ids: a UUID (the server checks it again).
    owner: owner.value ? (owner.value.id as Guid) : null,
    category: category.value,
    page: page.value,
    timeZone,
  });

  /** Loads the page of the filters now; a load still running is cancelled first. */
  const load = async (): Promise<void> => {
    inFlight?.abort();
    const mine = new AbortController();
    inFlight = mine;
    loading.value = true;
    try {
      const res = await api.whatsNext(request(), mine.signal);
      if (mine.signal.aborted) return;
      batch(() => {
        rows.value = res.records;
        count.value = res.count;
        pageSize.value = res.pageSize;
        more.value = res.moreRecords;
        categories.value = res.categories;
        createEntity.value = res.createEntity;
        failed.value = false;
      });
      for (const note of res.notes) log(`What's Next: ${note}`);
    } catch (e) {
      if (mine.signal.aborted) return;
      log("What's Next: the list could not be loaded", e);
      batch(() => {
        failed.value = true;
        if (rows.value === null) rows.value = [];
      });
    } finally {
      if (inFlight === mine) {
        inFlight = null;
        loading.value = false;
      }
    }
  };

  /** Follows the filters: loads now and on every change, and remembers them. Returns the stop function. */
  const start = (): (() => void) => {
    const stopLoading = effect(() => {
      void [scheduled.value, owner.value, category.value, page.value];
      untracked(() => void load());
    });
    const stopRemembering = effect(() =>
      memory.set(NEXT_LIST_FILTER_KEY, JSON.stringify({ user: me.id, scheduled: scheduled.value, owner: owner.value, category: category.value } satisfies Stored)),
    );
    return () => {
      stopLoading();
      stopRemembering();
      inFlight?.abort();
      inFlight = null;
    };
  };

  // A filter change goes back to the first page, in one reload.
  const setScheduled = (s: WhatsNextScheduled) =>
    batch(() => {
      scheduled.value = s;
      page.value = 1;
    });
  const setOwner = (o: Owner | null) =>
    batch(() => {
      owner.value = o;
      page.value = 1;
    });
  const setCategory = (c: string | null) =>
    batch(() => {
      category.value = c;
      page.value = 1;
    });
  const nextPage = () => {
    if (more.value) page.value = page.value + 1;
  };
  const previousPage = () => {
    if (page.value > 1) page.value = page.value - 1;
  };

  return {
    scheduled,
    owner,
    category,
    page,
    rows,
    count,
    pageSize,
    pages,
    more,
    categories,
    categoryChoices,
    createEntity,
    loading,
    failed,
    start,
    load,
    setScheduled,
    setOwner,
    setCategory,
    nextPage,
    previousPage,
  };
};
