import { computed, signal } from '@preact/signals-react';
import { isLeft } from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { Caller, Entity, InuViewRecord, UserPermissions } from '../core.js';
import { METADATA_MAX_AGE_MS, UserContext } from '../core.js';
import type { ApiClient } from '../api/client.js';
import { setOfferedLanguages } from '../i18n.js';

/** The user context with what the screens derive from it once. */
export type Session = {
  context: UserContext;
  caller: Caller;
  entities: Record<string, Entity>;
  loadedAt: number;
};

export const session = signal<Session | null>(null);
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
  const context = decoded.right;
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

export const loadSession = async (api: ApiClient): Promise<Session> => {
  const s = toSession(await api.getUserContext(), Date.now());
  session.value = s;
  setOfferedLanguages(s.context.languages);
  return s;
};

/** Spec 000 section 4: metadata reloads when older than 12 h. */
export const metadataExpired = (s: Session, now: number): boolean => now - s.loadedAt > METADATA_MAX_AGE_MS;

/** Spec 000 section 4: a build date later than the page load and already past means a newer build is out. */
export const newerBuildOut = (buildDate: string, pageLoadedAt: number, now: number): boolean => {
  const b = Date.parse(buildDate);
  return Number.isFinite(b) && b > pageLoadedAt && b <= now;
};

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
