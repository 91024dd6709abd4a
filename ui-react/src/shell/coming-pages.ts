import type { MessageKey } from '@tessera/core/internal';

/**
 * The app routes of spec 000 section 2 whose screens this version does not have yet. A menu item
 * may point at them: the menu marks such items, the app never lands on them, and the route says
 * what the screen will hold (issue 23 item 4). When a screen is built, remove its row here.
 */
export type ComingPage = 'metadata' | 'custom';

const COMING: ReadonlyArray<{ page: ComingPage; path: string; match: RegExp; title: MessageKey; text: MessageKey }> = [
  { page: 'custom', path: 'custom/:id', match: /^custom\/[^/]+$/, title: 'ComingCustomTitle', text: 'ComingCustom' },
];

/** The router paths (under /{appid}/) drawn by the placeholder page. */
export const COMING_PAGE_PATHS: readonly string[] = COMING.map((c) => c.path);

/** A route of an app (`list/account`, `import`, `custom/42?x=1`) without its query. */
const pathOf = (to: string): string => to.split(/[?#]/)[0].replace(/^\/+|\/+$/g, '');

/** The not-yet-built page a route of an app opens, if it is one. */
export const comingPageOf = (to: string): ComingPage | undefined => {
  const path = pathOf(to);
  return COMING.find((c) => c.match.test(path))?.page;
};

/** Whether a route of an app opens a working screen (lists, forms, the session list...). */
export const isWorkingRoute = (to: string): boolean => comingPageOf(to) === undefined;

/** The catalogue keys of a not-yet-built page: its default title and what it will hold. */
export const comingPageTexts = (page: ComingPage): { title: MessageKey; text: MessageKey } => {
  const c = COMING.find((x) => x.page === page)!;
  return { title: c.title, text: c.text };
};
