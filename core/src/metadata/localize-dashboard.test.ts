import { describe, expect, it } from 'vitest';
import { localizeKey, localizeMetadata } from './localize.js';
import type { InuViewRecord } from './inu-view.js';
import type { Dashboard } from './view.js';
import { demoPack } from '../packs/packs.js';

/** Dashboards in the user's language (issue 13 section 4; docs/metadata.md "Localization"). */
describe('dashboard object labels are translated by dashboard.{owner}.{dashboard}.{object}', () => {
  const body: Dashboard = { label: 'Sales', objects: [{ kind: 'label', name: 'title', label: 'Sales overview' }, { kind: 'filter', name: 'period', label: 'Period' }, { kind: 'grid', name: 'nolabel' }] };
  const record: InuViewRecord = { name: 'sales', kind: 'dashboard', appid: { id: 'a', name: 'inu_app', label: 'Sales' }, body: JSON.stringify(body), parsedBody: body };

  it('translates each labelled object and the dashboard label; objects without a label stay without', () => {
    const texts = new Map([
      ['dashboard.Sales.sales', 'Nástenka predaja'],
      [localizeKey.dashboardObject('Sales', 'sales', 'title'), 'Prehľad predaja'],
      ['dashboard.Sales.sales.period', 'Obdobie'],
      ['dashboard.Sales.sales.nolabel', 'Nič'],
    ]);
    const [g] = localizeMetadata({ entities: {}, gui: [record] }, texts).gui;
    const out = g.parsedBody as Dashboard;
    expect(out.label).toBe('Nástenka predaja');
    expect(out.objects.map((o) => o.label)).toEqual(['Prehľad predaja', 'Obdobie', undefined]);
    expect(record.parsedBody).toBe(body);
    expect(body.objects[0].label).toBe('Sales overview');
  });

  it("the demo's Sales dashboard has every object label in sk, cz and de", () => {
    const pack = demoPack();
    const sales = (pack.views ?? []).find((v) => v.kind === 'dashboard' && v.name === 'sales');
    const objects = (sales?.body as Dashboard).objects.filter((o) => o.label !== undefined);
    expect(objects.length).toBeGreaterThan(5);
    for (const lang of ['sk', 'cz', 'de'])
      for (const o of objects) expect(pack.translations?.[lang]?.[localizeKey.dashboardObject('Sales', 'sales', o.name)], `${lang} ${o.name}`).toEqual(expect.any(String));
  });
});
