import { computed, signal } from '@preact/signals-react';
import { isLeft } from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { Caller, Entity, InuViewRecord, LocalizedTexts, UserPermissions } from '../core.js';
import { localizeMetadata, METADATA_MAX_AGE_MS, UserContext } from '../core.js';
import { TOKEN_CHANGED_EVENT, type ApiClient } from '../api/client.js';
import { language, setOfferedLanguages } from '../i18n.js';

/** The user context with what the screens derive from it once. */
export type Session = {
  context: UserContext;
  caller: Caller;
  entities: Record<string, Entity>;
  loadedAt: number;
};

/**
 * The session the screens show: the user context with its metadata texts (entity, field, option,
 * view, quick-filter, menu, panel and command labels) in the chosen language. Every screen reads
 * metadata through it, so they all show the same translation (docs/ui.md, Localization).
 */
export const session = signal<Session | null>(null);
/** The session as the server sent it (English metadata texts) and the translations applied to it. */
let sentSession: Session | null = null;
let metadataTexts: LocalizedTexts = new Map();

/** A session whose metadata texts are those of `texts`; the rest of it is shared. */
export const localizedSession = (s: Session, texts: LocalizedTexts): Session => {
  if (texts.size === 0) return s;
  const m = localizeMetadata({ entities: s.entities, gui: s.context.gui }, texts);
  return { ...s, entities: m.entities, context: { ...s.context, metaDict: m.entities, gui: m.gui } };
};

const sameTexts = (a: LocalizedTexts, b: LocalizedTexts): boolean => a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);

/** Shows the metadata in another language (the inu_localize texts of spec 002 section 7). */
export const setMetadataTexts = (texts: LocalizedTexts): void => {
  // Unchanged texts keep the session as it is: screens keyed on its entities do not reload.
  if (sameTexts(texts, metadataTexts)) return;
  metadataTexts = texts;
  if (sentSession && session.value) session.value = localizedSession(sentSession, texts);
};

/** The tab's copy of the last translations loaded (state/metadata-texts.ts writes it). */
export const METADATA_TEXTS_KEY = 'tessera.metadataTexts';
export type StoredMetadataTexts = { token: string; lang: string; texts: Array<[string, string]> };
export const storedMetadataTexts = (token: string, lang: string): Map<string, string> | null => {
  try {
    const c = JSON.parse(sessionStorage.getItem(METADATA_TEXTS_KEY) ?? 'null') as StoredMetadataTexts | null;
    return c && c.token === token && c.lang === lang ? new Map(c.texts) : null;
  } catch {
    return null;
  }
};
export const sessionError = signal<string | null>(null);
/** The time this page was loaded: a build newer than it means a newer client is out. */
export const PAGE_LOADED_AT = Date.now();

export const caller = computed(() => session.value?.caller ?? null);

const describe = (errors: t.Errors): string =>
  errors
    .slice(0, 3)
    .map((e) => e.context.map((c) => c.key).filter(Boolean).join('.') || '(root)')
    .join(', ');

/** Decodes the answer of /api/getusercontext at the edge; inside, the types are trusted. */
export const toSession = (raw: unknown, now: number): Session => {
  const decoded = UserContext.decode(raw);
  if (isLeft(decoded)) throw new Error(`Invalid user context: ${describe(decoded.left)}`);
  return sessionOf(decoded.right, now);
};

/** A session from a context already decoded (the tab's cache holds only decoded contexts). */
const sessionOf = (context: UserContext, now: number): Session => {
  const permissions: UserPermissions = {
    permissions: context.permDict,
    apps: context.apps,
    owners: context.owners,
    needsTeams: (context.teams ?? []).length > 0,
  };
  return {
    context,
    caller: { userId: context.user.id, teams: context.teams ?? [], permissions },
    entities: context.metaDict,
    loadedAt: now,
  };
};

const CACHE_KEY = 'tessera.userContext';
type Cached = { token: string; loadedAt: number; raw: unknown };

const adopt = (s: Session, token: string): Session => {
  sentSession = s;
  setOfferedLanguages(s.context.languages);
  // A page load shows the translations this tab loaded last at once, not English first.
  if (metadataTexts.size === 0) metadataTexts = storedMetadataTexts(token, language.value) ?? metadataTexts;
  const shown = localizedSession(s, metadataTexts);
  session.value = shown;
  return shown;
};

/**
 * Loads the user context and caches it for this tab (spec 000 section 3: it is cached), keyed
 * by the session token so another sign-in never sees it.
 */
export const loadSession = async (api: ApiClient): Promise<Session> => {
  const raw = await api.getUserContext();
  const s = toSession(raw, Date.now());
  try {
    sessionStorage.setItem(CACHE_KEY, JSON.stringify({ token: api.token ?? '', loadedAt: s.loadedAt, raw } satisfies Cached));
  } catch {
    /* too large or storage disabled: the next page load asks the server again */
  }
  return adopt(s, api.token ?? '');
};

/** The cached context of this token, when younger than the metadata's maximum age. */
export const cachedSession = (token: string | null, now: number): Session | null => {
  if (!token) return null;
  try {
    const c = JSON.parse(sessionStorage.getItem(CACHE_KEY) ?? 'null') as Cached | null;
    if (!c || c.token !== token || now - c.loadedAt > METADATA_MAX_AGE_MS) return null;
    return adopt(sessionOf(c.raw as UserContext, c.loadedAt), token);
  } catch {
    return null;
  }
};

/** Refreshes the context behind a cached one; the screens re-render only when it changed. */
export const refreshSession = async (api: ApiClient): Promise<void> => {
  const before = sessionStorage.getItem(CACHE_KEY);
  const raw = await api.getUserContext();
  const cached = before ? (JSON.parse(before) as Cached) : null;
  if (cached && JSON.stringify(cached.raw) === JSON.stringify(raw)) return;
  // The download signature (`sas`, issue 18) is signed anew on every answer: a context that
  // differs only in it keeps the session (a form keyed on its entities would start over) and
  // takes the fresh signature quietly.
  const withoutSas = (c: unknown): string => JSON.stringify({ ...(c as object), sas: '' });
  if (cached && withoutSas(cached.raw) === withoutSas(raw)) {
    sessionStorage.setItem(CACHE_KEY, JSON.stringify({ ...cached, raw } satisfies Cached));
    for (const s of [sentSession, session.value]) if (s) s.context.sas = raw.sas;
    return;
  }
  const s = toSession(raw, Date.now());
  sessionStorage.setItem(CACHE_KEY, JSON.stringify({ token: api.token ?? '', loadedAt: s.loadedAt, raw } satisfies Cached));
  adopt(s, api.token ?? '');
};

export const clearSessionCache = (): void => {
  try {
    sessionStorage.removeItem(CACHE_KEY);
  } catch {
    /* nothing cached */
  }
};

export { metadataExpired, newerBuildOut } from './freshness.js';

export const entityOf = (name: string): Entity | undefined => session.value?.entities[name];

export const guiObjects = (kind: string, objectname?: string): InuViewRecord[] =>
  (session.value?.context.gui ?? []).filter((g) => g.kind === kind && (objectname === undefined || g.objectname === objectname));

export const parsedBody = (g: InuViewRecord): unknown => {
  if (g.parsedBody !== undefined && g.parsedBody !== null) return g.parsedBody;
  try {
    return JSON.parse(g.body);
  } catch {
    return undefined;
  }
};

// Another user (or none) now: drop the context of the previous token.
window.addEventListener(TOKEN_CHANGED_EVENT, () => {
  sentSession = null;
  metadataTexts = new Map();
  session.value = null;
  clearSessionCache();
});
