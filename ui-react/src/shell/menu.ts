import type { Caller, HomeMenuItem, InuViewRecord } from '../core.js';
import { checkPermissionString, HomeMenu, mayAccessSome } from '../core.js';
import type { MessageKey } from '@tessera/core/internal';
import { isRight } from 'fp-ts/lib/Either.js';
import { isWorkingRoute } from './coming-pages.js';

/** A menu item ready to draw: its label (or a catalogue key), route and icon. */
export type MenuEntry = { key: string; label: string; labelKey?: MessageKey; to: string; icon: string; external?: boolean; uniqueName?: string; kind: string; name?: string };
export type MenuSection = { key: string; label: string; labelKey?: MessageKey; items: MenuEntry[] };

export const CUSTOMIZE_APP = 'Customize';

type DefaultItem = [MessageKey, string, string];
/** The Customize app's default menu, three sections (spec 000 section 2). */
const CUSTOMIZE_MENU: Array<[MessageKey, DefaultItem[]]> = [
  [
    'MenuConfigure',
    [
      ['MenuMetadata', 'customizemetadata', 'settings'],
      ['MenuViews', 'list/inu_view', 'list'],
      ['MenuApps', 'list/inu_app', 'apps'],
      ['MenuLocalize', 'customizelocalization', 'list'],
      ['MenuSettings', 'list/inu_orgsettings', 'settings'],
    ],
  ],
  [
    'MenuAdministration',
    [
      ['MenuUsers', 'list/systemuser', 'user'],
      ['MenuTeams', 'list/team', 'user'],
      ['MenuRoles', 'list/inu_role', 'list'],
      ['MenuAudit', 'list/audit', 'list'],
    ],
  ],
  [
    'MenuData',
    [
      ['MenuReports', 'list/report_template', 'list'],
      ['MenuSpecialViews', 'list/inu_view_permission', 'list'],
      ['MenuAutoNumber', 'list/inu_autonumber', 'list'],
      ['MenuTriggers', 'list/inu_changehandler', 'list'],
      ['MenuTriggersLog', 'list/inu_asyncaction', 'list'],
      ['MenuNextRules', 'list/inu_nextrule', 'list'],
      ['MenuImport', 'import', 'export'],
      ['MenuExport', 'export', 'export'],
    ],
  ],
];

/** The entity a route of an app shows: `list/{name}` or `edit/{name}/{id}`. */
export const entityOfRoute = (to: string): string | undefined => /^list\/([^/?]+)/.exec(to)?.[1] ?? /^edit\/([^/]+)\//.exec(to)?.[1];

/** The entity of a browser path `/{appid}/list/{name}` or `/{appid}/edit/{name}/{id}...`. */
export const entityOfPath = (pathname: string): string | undefined => {
  const route = pathname.replace(/^\/[^/]*\//, '');
  const name = entityOfRoute(route);
  return name === undefined ? undefined : decodeURIComponent(name);
};

/** Whether an app's menu has an item that opens the entity (its list, or a record of it). */
export const menuShowsEntity = (sections: readonly MenuSection[], entity: string): boolean =>
  sections.some((s) => s.items.some((i) => !i.external && entityOfRoute(i.to) === entity));

const routeOf = (item: HomeMenuItem): { to: string; external?: boolean } | undefined => {
  switch (item.kind) {
    case 'entity':
      return item.name ? { to: `list/${item.name}${item.initialView ? `?view=${encodeURIComponent(item.initialView)}` : ''}` } : undefined;
    case 'page':
      return item.name ? { to: item.name } : undefined;
    case 'dashboard':
      return item.name ? { to: `dashboard/${item.name}` } : undefined;
    case 'custom':
      return item.name ? { to: `custom/${item.name}` } : undefined;
    case 'url':
      return item.url ? { to: item.url, external: true } : undefined;
    default:
      return undefined;
  }
};

/**
 * The menu of an app: its home definition, else the Customize default, else the user's own
 * record (spec 000 section 2). Items whose permission string fails are hidden, and so are entity
 * items the user cannot read at all.
 */
export const menuOf = (app: string, gui: readonly InuViewRecord[], caller: Caller, parse: (g: InuViewRecord) => unknown): MenuSection[] => {
  const allowed = (item: { permissions?: string }, to?: string): boolean => {
    if (!checkPermissionString(caller, item.permissions)) return false;
    const entity = to ? entityOfRoute(to) : undefined;
    return entity === undefined || to?.startsWith('edit/') || mayAccessSome(caller, 'read', entity);
  };
  const home = gui.find((g) => g.kind === 'home' && (g.appid?.label === app || g.name === app || g.appid?.id === app));
  const decoded = home ? HomeMenu.decode(parse(home)) : undefined;
  if (decoded && isRight(decoded)) {
    const sections: MenuSection[] = [];
    let loose: MenuEntry[] = [];
    const entry = (item: HomeMenuItem, i: string): MenuEntry | undefined => {
      const r = routeOf(item);
      if (!r || !allowed(item, r.to)) return undefined;
      return { key: i, label: item.label ?? item.name ?? '', to: r.to, external: r.external, icon: item.icon ?? (item.kind === 'entity' ? 'list' : 'home'), uniqueName: item.uniqueName, kind: item.kind, name: item.name };
    };
    decoded.right.items.forEach((item, i) => {
      if (item.kind === 'section') {
        if (!checkPermissionString(caller, item.permissions)) return;
        if (loose.length) sections.push({ key: `s${i}-loose`, label: '', items: loose });
        loose = [];
        const items = (item.items ?? []).map((x, j) => entry(x, `${i}.${j}`)).filter((x): x is MenuEntry => !!x);
        if (items.length) sections.push({ key: `s${i}`, label: item.label ?? '', items });
      } else if (item.kind === 'separator') {
        if (loose.length) sections.push({ key: `s${i}`, label: '', items: loose });
        loose = [];
      } else {
        const e = entry(item, String(i));
        if (e) loose.push(e);
      }
    });
    if (loose.length) sections.push({ key: 'last', label: '', items: loose });
    return sections;
  }
  if (app === CUSTOMIZE_APP) {
    return CUSTOMIZE_MENU.map(([section, items]) => ({
      key: section,
      label: '',
      labelKey: section,
      items: items
        .filter(([, to]) => allowed({}, to))
        .map(([label, to, icon]) => ({ key: to, label: '', labelKey: label, to, icon, kind: to.startsWith('list/') ? 'entity' : 'page', name: to.replace(/^list\//, '') })),
    })).filter((s) => s.items.length > 0);
  }
  return [{ key: 'own', label: '', items: [{ key: 'own', label: '', labelKey: 'LblMyRecord', to: `edit/systemuser/${caller.userId}`, icon: 'user', kind: 'entity', name: 'systemuser' }] }];
};

export const firstItem = (sections: readonly MenuSection[]): MenuEntry | undefined => sections.flatMap((s) => s.items).find((i) => !i.external);

/**
 * Where /{appid}/ lands (issue 23 item 3): the first menu item whose screen is built, so a new
 * organization (Customize only, Metadata first) opens on a working list, not a placeholder;
 * the first item at all when none is built yet.
 */
export const landingItem = (sections: readonly MenuSection[]): MenuEntry | undefined => {
  const items = sections.flatMap((s) => s.items).filter((i) => !i.external);
  return items.find((i) => isWorkingRoute(i.to)) ?? items[0];
};

/** Customize counts last: an administrator who also has a working app starts there. */
const customizeLast = (apps: readonly string[]): string[] => [...apps.filter((a) => a !== CUSTOMIZE_APP), ...apps.filter((a) => a === CUSTOMIZE_APP)];

/**
 * Spec 000 section 2: '!' is the last used app (session storage), else the first allowed app.
 * Issue 23 item 12: on a route of an entity (`list/opportunity`, `edit/opportunity/...`) '!' is
 * the last used app when its menu has that entity, else the first app whose menu does; only
 * when no app has it, the rule above. Customize counts last: an administrator who also has a
 * working app starts there, and opens the administration app when they mean to.
 */
export const resolveApp = (param: string, apps: readonly string[], stored: string | null, showsEntity?: (app: string) => boolean): string | undefined => {
  if (param !== '!') return apps.includes(param) ? param : undefined;
  const ordered = customizeLast(apps);
  const withEntity = showsEntity ? ordered.filter(showsEntity) : [];
  if (withEntity.length > 0) return stored && withEntity.includes(stored) ? stored : withEntity[0];
  if (stored && apps.includes(stored)) return stored;
  return ordered[0];
};
