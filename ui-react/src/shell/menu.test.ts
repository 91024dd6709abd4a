import { describe, expect, it } from 'vitest';
import type { Caller, InuViewRecord } from '../core.js';
import { firstItem, menuOf, resolveApp } from './menu.js';

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
