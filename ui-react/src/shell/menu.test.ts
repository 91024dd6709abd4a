import { describe, expect, it } from 'vitest';
import type { Caller, InuViewRecord } from '../core.js';
import { entityOfPath, firstItem, landingItem, menuOf, menuShowsEntity, resolveApp, type MenuSection } from './menu.js';

const FULL = 13107;
const caller = (permissions: Record<string, number>): Caller => ({ userId: 'u1', teams: [], permissions: { permissions, apps: [], owners: [], needsTeams: false } });
const parse = (g: InuViewRecord) => JSON.parse(g.body) as unknown;

describe('app menu (spec 000 section 2)', () => {
  it("'!' is the last used app when still allowed, else the first allowed app", () => {
    expect(resolveApp('!', ['Sales', 'Customize'], 'Customize')).toBe('Customize');
    expect(resolveApp('!', ['Sales', 'Customize'], 'Gone')).toBe('Sales');
    expect(resolveApp('!', ['Sales'], null)).toBe('Sales');
    expect(resolveApp('Sales', ['Sales'], null)).toBe('Sales');
    expect(resolveApp('Other', ['Sales'], null)).toBeUndefined();
  });

  it("'!' without a last used app opens the first app other than Customize; Customize only when it is the only app", () => {
    expect(resolveApp('!', ['Customize', 'Sales', 'Service'], null)).toBe('Sales');
    expect(resolveApp('!', ['Customize'], null)).toBe('Customize');
    expect(resolveApp('Customize', ['Customize', 'Sales'], null)).toBe('Customize');
  });

  it("issue 23 item 12: on an entity's route '!' is the last app whose menu has the entity, else the first app that has it", () => {
    const menus: Record<string, string[]> = { Sales: ['account', 'opportunity'], Service: ['workorder', 'account'], Customize: ['systemuser', 'inu_view'] };
    const shows = (entity: string) => (app: string) => (menus[app] ?? []).includes(entity);
    const apps = ['Customize', 'Sales', 'Service'];
    // After visiting Customize, /!/list/opportunity shows the Sales menu.
    expect(resolveApp('!', apps, 'Customize', shows('opportunity'))).toBe('Sales');
    // The last app is kept while it has the entity; else the first that has it.
    expect(resolveApp('!', apps, 'Service', shows('account'))).toBe('Service');
    expect(resolveApp('!', apps, 'Customize', shows('account'))).toBe('Sales');
    expect(resolveApp('!', apps, 'Sales', shows('workorder'))).toBe('Service');
    expect(resolveApp('!', apps, 'Sales', shows('systemuser'))).toBe('Customize');
    // No app has it: the last used app, else the first.
    expect(resolveApp('!', apps, 'Customize', shows('invoice'))).toBe('Customize');
    expect(resolveApp('!', apps, null, shows('invoice'))).toBe('Sales');
    // An app named in the route is kept as it is.
    expect(resolveApp('Customize', apps, 'Sales', shows('opportunity'))).toBe('Customize');
  });

  it('reads the entity of a list or form path, and whether a menu opens it', () => {
    expect(entityOfPath('/!/list/opportunity')).toBe('opportunity');
    expect(entityOfPath('/Sales/edit/account/123/main')).toBe('account');
    expect(entityOfPath('/!/edit/account/0')).toBe('account');
    expect(entityOfPath('/!/customizemetadata')).toBeUndefined();
    expect(entityOfPath('/!/')).toBeUndefined();
    const sections: MenuSection[] = [{ key: 's', label: '', items: [{ key: '1', label: 'Accounts', to: 'list/account?view=active', icon: 'list', kind: 'entity' }, { key: '2', label: 'Help', to: 'https://x/list/lead', external: true, icon: 'home', kind: 'url' }] }];
    expect(menuShowsEntity(sections, 'account')).toBe(true);
    expect(menuShowsEntity(sections, 'lead')).toBe(false);
  });

  it('issue 23 item 3: an app lands on its first working screen, never on a not-yet-built page while a list exists', () => {
    const all = Object.fromEntries(['inu_view', 'inu_app', 'inu_orgsettings', 'systemuser', 'team', 'inu_role', 'audit'].map((e) => [e, FULL]));
    // A new organization: the Customize app only, Metadata first (a working screen since issue 15).
    const customize = menuOf('Customize', [], caller(all), parse);
    expect(firstItem(customize)?.to).toBe('customizemetadata');
    expect(landingItem(customize)?.to).toBe('customizemetadata');
    // A not-yet-built first item is passed over for the next working one.
    const withComing: MenuSection[] = [{ key: 's', label: '', items: [{ key: '1', label: 'Custom', to: 'custom/42', icon: 'home', kind: 'page' }, ...customize[0].items] }];
    expect(landingItem(withComing)?.to).toBe('customizemetadata');
    const onlyPlaceholders: MenuSection[] = [{ key: 's', label: '', items: [{ key: '1', label: 'Dashboard', to: 'dashboard/sales', icon: 'home', kind: 'dashboard' }, { key: '2', label: "What's Next", to: 'whatsnext', icon: 'home', kind: 'page' }] }];
    expect(landingItem(onlyPlaceholders)?.to).toBe('dashboard/sales');
    expect(landingItem([])).toBeUndefined();
  });

  it('gives the Customize app its default menu of three sections', () => {
    const all = Object.fromEntries(['inu_view', 'inu_app', 'inu_orgsettings', 'systemuser', 'team', 'inu_role', 'audit', 'report_template', 'inu_view_permission', 'inu_autonumber', 'inu_changehandler', 'inu_asyncaction', 'inu_nextrule'].map((e) => [e, FULL]));
    const sections = menuOf('Customize', [], caller(all), parse);
    expect(sections.map((s) => s.labelKey)).toEqual(['MenuConfigure', 'MenuAdministration', 'MenuData']);
    expect(sections[0].items.map((i) => i.to)).toEqual(['customizemetadata', 'list/inu_view', 'list/inu_app', 'customizelocalization', 'list/inu_orgsettings']);
    expect(sections[1].items.map((i) => i.to)).toEqual(['list/systemuser', 'list/team', 'list/inu_role', 'list/audit']);
    expect(sections[2].items.map((i) => i.to)).toContain('import');
    expect(firstItem(sections)?.to).toBe('customizemetadata');
  });

  it("gives an app without a home definition the user's own record", () => {
    const sections = menuOf('Sales', [], caller({}), parse);
    expect(firstItem(sections)?.to).toBe('edit/systemuser/u1');
  });

  it('hides menu items whose permission string fails', () => {
    const home: InuViewRecord = {
      name: 'home',
      kind: 'home',
      appid: { id: 'a', name: 'inu_app', label: 'Sales' },
      body: JSON.stringify({
        items: [
          { kind: 'entity', name: 'account', label: 'Accounts' },
          { kind: 'entity', name: 'lead', label: 'Leads', permissions: 'lead;1' },
        ],
      }),
    };
    const sections = menuOf('Sales', [home], caller({ account: FULL }), parse);
    expect(sections.flatMap((s) => s.items).map((i) => i.label)).toEqual(['Accounts']);
  });
});
