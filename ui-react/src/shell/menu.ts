import type { Caller, HomeMenuItem, InuViewRecord } from '../core.js';
import { checkPermissionString, HomeMenu, mayAccessSome } from '../core.js';
import type { MessageKey } from '@tessera/core/internal';
import { isRight } from 'fp-ts/lib/Either.js';

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

const entityOfRoute = (to: string): string | undefined => /^list\/([^/?]+)/.exec(to)?.[1] ?? /^edit\/([^/]+)\//.exec(to)?.[1];

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
 * Spec 000 section 2: '!' is the last used app (session storage), else the first allowed app.
 * Customize counts last: an administrator who also has a working app starts there, and opens
 * the administration app when they mean to.
 */
export const resolveApp = (param: string, apps: readonly string[], stored: string | null): string | undefined => {
  if (param !== '!') return apps.includes(param) ? param : undefined;
  if (stored && apps.includes(stored)) return stored;
  return apps.find((a) => a !== CUSTOMIZE_APP) ?? apps[0];
};
