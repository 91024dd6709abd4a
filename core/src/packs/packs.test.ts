import { describe, expect, it } from 'vitest';
import { PROPERTY_FLAGS, type Entity, type PropertyType } from '../metadata/entity.js';
import { allPanels, type Panel } from '../metadata/form.js';
import type { ViewDefinition } from '../metadata/inu-view.js';
import { builtInPacks, demoPack, systemPack } from './packs.js';

const entityOf = (name: string): Entity => {
  const e = builtInPacks()
    .flatMap((p) => p.entities)
    .find((x) => x.logicalName === name);
  if (!e) throw new Error(`No Object:${name}`);
  return e;
};
const fieldsOf = (name: string) => entityOf(name).properties.map((p) => p.logicalName);
const prop = (entity: string, field: string) => entityOf(entity).properties.find((p) => p.logicalName === field);
const views = (): ViewDefinition[] => builtInPacks().flatMap((p) => p.views ?? []);

/** The main demo entities: the spec's shortcuts (spec 000 section 1) and product. */
const MAIN = ['account', 'contact', 'lead', 'opportunity', 'workorder', 'equipment', 'product', 'invoice'];

describe('the system pack (issue 2 section 3)', () => {
  it('holds every entity the system needs', () => {
    const names = systemPack().entities.map((e) => e.logicalName);
    for (const n of [
      'systemuser',
      'team',
      'systemuserroles',
      'teammembership',
      'inu_role',
      'inu_app',
      'inu_view',
      'inu_view_permission',
      'inu_orgsettings',
      'audit',
      'inu_localize',
      'inu_nextrule',
      'inu_whatsnextrule',
      'inu_autonumber',
      'inu_changehandler',
      'inu_asyncaction',
      'currency',
      'activity',
      'document',
      'report_template',
      'hr_doc_template',
      'inu_survey_template',
      'inu_survey_record',
    ])
      expect(names, n).toContain(n);
  });

  it('systemuser: emailaddress, a secret password hash, language, home_location, address_street, latitude, longitude', () => {
    expect(fieldsOf('systemuser')).toEqual(
      expect.arrayContaining(['emailaddress', 'language', 'home_location', 'address_street', 'latitude', 'longitude']),
    );
    expect(prop('systemuser', 'passwordhash')?.secret).toBe(true);
  });

  it('the user-to-role link joins roleid and systemuserid, the user-to-team link has teamid; both are link entities', () => {
    expect(entityOf('systemuserroles').type).toBe('many');
    expect(fieldsOf('systemuserroles')).toEqual(['id', 'systemuserid', 'roleid', 'versionnumber']);
    expect(entityOf('teammembership').type).toBe('many');
    expect(fieldsOf('teammembership')).toContain('teamid');
  });

  it('the fields the specification names on system entities', () => {
    expect(fieldsOf('inu_role')).toEqual(expect.arrayContaining(['name', 'appid', 'body']));
    expect(fieldsOf('inu_view')).toEqual(
      expect.arrayContaining(['id', 'name', 'label', 'kind', 'objectname', 'appid', 'body', 'isprivate']),
    );
    expect(fieldsOf('inu_orgsettings')).toContain('export_options');
    expect(fieldsOf('audit')).toEqual(expect.arrayContaining(['body', 'logicalname']));
    expect(fieldsOf('inu_localize')).toEqual(expect.arrayContaining(['id', 'name', 'lang', 'text']));
    expect(fieldsOf('inu_nextrule')).toEqual(
      expect.arrayContaining([
        'id',
        'name',
        'label',
        'description',
        'objectname',
        'related',
        'relatedmaxage',
        'nullrelatedmaxage',
        'statusfield',
        'statusvalues',
        'script',
        'can_create',
      ]),
    );
    expect(prop('inu_nextrule', 'statusfield')?.defaultValue).toBe('statuscode');
    expect(fieldsOf('inu_whatsnextrule')).toEqual(expect.arrayContaining(['scheduledstart', 'ownerid', 'category']));
    expect(fieldsOf('currency')).toEqual(
      expect.arrayContaining([
        'id',
        'name',
        'code',
        'symbol',
        'precision',
        'mode',
        'exchangerate',
        'isdefault',
        'formatstring',
      ]),
    );
    expect(prop('currency', 'precision')?.defaultValue).toBe(2);
    expect(fieldsOf('activity')).toEqual(
      expect.arrayContaining([
        'type',
        'ownerid',
        'createdon',
        'scheduledstart',
        'body',
        'document',
        'name',
        'objectid',
        'objectname',
      ]),
    );
    expect(fieldsOf('inu_survey_template')).toEqual(expect.arrayContaining(['meta', 'panel', 'object_name']));
    expect(fieldsOf('inu_survey_record')).toEqual(expect.arrayContaining(['templateid', 'targetid', 'body', 'status']));
    expect(fieldsOf('hr_doc_template')).toEqual(expect.arrayContaining(['name', 'body']));
  });

  it('the default currency is Euro, and the Customize app has the three-section home menu', () => {
    expect(systemPack().currencies?.find((c) => c.isdefault)?.code).toBe('EUR');
    const home = systemPack().views?.find((v) => v.kind === 'home' && v.appid === 'Customize');
    expect(home?.kind === 'home' && home.body.items.map((i) => i.label)).toEqual([
      'Configure',
      'Administration',
      'Data',
    ]);
  });
});

describe('the demo CRM pack (issue 2 section 3)', () => {
  it('holds every entity the issue names', () => {
    const names = demoPack().entities.map((e) => e.logicalName);
    for (const n of [
      ...MAIN,
      'invoicedetail',
      'route_route',
      'route_address',
      'fi_budget_line',
      'fi_budget_line_type',
      'fi_osoba',
      'fi_family_member',
      'fi_employment',
      'fi_community_eval',
    ])
      expect(names, n).toContain(n);
    expect(fieldsOf('route_location')).toEqual(expect.arrayContaining(['county', 'longitude', 'latitude', 'label']));
  });

  it('product has listprice, invoice totalamount, and line items their product, quantity, prices, discount, totals and parent', () => {
    expect(prop('product', 'listprice')?.type).toBe('Money');
    expect(prop('invoice', 'totalamount')?.type).toBe('Money');
    expect(prop('invoicedetail', 'productid')?.targets).toEqual(['product']);
    expect(prop('invoicedetail', 'invoiceid')?.targets).toEqual(['invoice']);
    expect(prop('invoicedetail', 'quantity')?.precision).toBe(2);
    expect(prop('invoicedetail', 'discount')?.precision).toBe(0);
    expect(fieldsOf('invoicedetail')).toEqual(expect.arrayContaining(['priceperunit', 'baseamount', 'totalamount']));
  });

  it('route and budget entities carry the fields of spec 002 section 3', () => {
    expect(fieldsOf('route_route')).toEqual(
      expect.arrayContaining([
        'name',
        'report_date',
        'legs_json',
        'diet_json',
        'name_locations',
        'total_distance',
        'total_expense',
        'startdate',
        'enddate',
        'start_locationid',
        'end_locationid',
        'ownerid',
      ]),
    );
    expect(fieldsOf('route_address')).toEqual(expect.arrayContaining(['name', 'address', 'latitude', 'longitude']));
    expect(fieldsOf('fi_budget_line')).toEqual(
      expect.arrayContaining(['id', 'type', 'name', 'category', 'amount', 'comment', 'personid']),
    );
    expect(fieldsOf('fi_budget_line_type')).toEqual(expect.arrayContaining(['name', 'category', 'type']));
    expect(fieldsOf('fi_osoba')).toEqual(expect.arrayContaining(['id', 'name', 'birthday', 'child_bonus_end']));
    expect(fieldsOf('fi_family_member')).toEqual(expect.arrayContaining(['familyid', 'personid']));
    expect(fieldsOf('fi_employment')).toEqual(expect.arrayContaining(['personid', 'type', 'enddate']));
  });

  it('community evaluation has communityid, createdon and the eight scores from 0 to 5', () => {
    for (const s of [
      'housing_eval',
      'salary_eval',
      'usury_eval',
      'work_avail_eval',
      'education_eval',
      'transportation_eval',
      'health_eval',
      'city_eval',
    ])
      expect(
        prop('fi_community_eval', s)?.richOptions?.map((o) => o.value),
        s,
      ).toEqual([0, 1, 2, 3, 4, 5]);
    expect(fieldsOf('fi_community_eval')).toEqual(expect.arrayContaining(['communityid', 'createdon']));
  });

  it('main entities carry ownerid and teamid, and currencyid where money is involved', () => {
    // Reference data shared by the organization (geocoded addresses, budget line types) has no owner.
    const reference = ['route_address', 'fi_budget_line_type'];
    for (const e of demoPack().entities.filter((x) => x.type !== 'many' && !reference.includes(x.logicalName))) {
      expect(prop(e.logicalName, 'ownerid')?.targets, e.logicalName).toEqual(['systemuser']);
      expect(prop(e.logicalName, 'teamid')?.targets, e.logicalName).toEqual(['team']);
      if (e.properties.some((p) => p.type === 'Money'))
        expect(prop(e.logicalName, 'currencyid')?.targets, e.logicalName).toEqual(['currency']);
    }
  });

  it('the packs use every property type and every flag but None', () => {
    const props = builtInPacks().flatMap((p) => p.entities.flatMap((e) => e.properties));
    const types: PropertyType[] = [
      'String',
      'Integer',
      'Decimal',
      'Float',
      'Money',
      'DateTime',
      'Guid',
      'Lookup',
      'Boolean',
      'Binary',
      'VersionNumber',
    ];
    for (const t of types)
      expect(
        props.some((p) => p.type === t),
        t,
      ).toBe(true);
    for (const f of PROPERTY_FLAGS.filter((x) => x !== 'None'))
      expect(
        props.some((p) => (p.flags ?? []).includes(f)),
        f,
      ).toBe(true);
  });

  it('option sets with coloured rich options, a multi-select bitmap, tags, dependent options and a lookup filter pair', () => {
    expect(prop('account', 'industry')?.richOptions?.every((o) => o.color !== undefined)).toBe(true);
    expect(prop('contact', 'languages')).toMatchObject({ type: 'Integer', flags: ['OptionSet', 'MultiSelect'] });
    expect(prop('account', 'tags')).toMatchObject({ type: 'String', flags: ['MultiSelect', 'WriteIn'] });
    expect(prop('workorder', 'subtype')?.richOptions?.every((o) => o.depfield === 'workordertype')).toBe(true);
    expect(prop('opportunity', 'contactid')?.options).toEqual([
      { targetAttribute: 'parentcustomerid', recordField: 'customerid' },
    ]);
  });

  it('each main entity has a form with Tabs, Split and AssociatedList panels, two views, a chart and a quick-filter set', () => {
    for (const e of MAIN) {
      const mine = views().filter((v) => v.objectname === e);
      const forms = mine.filter((v) => v.kind === 'form');
      const types = new Set(
        forms.flatMap((f) => (f.kind === 'form' ? allPanels(f.body.panels).map((p: Panel) => p.type) : [])),
      );
      for (const t of ['Tabs', 'Split', 'AssociatedList'])
        expect(types.has(t as Panel['type']), `${e} ${t}`).toBe(true);
      expect(mine.filter((v) => v.kind === 'view').length, e).toBeGreaterThanOrEqual(2);
      expect(mine.filter((v) => v.kind === 'chart').length, e).toBeGreaterThanOrEqual(1);
      expect(mine.filter((v) => v.kind === 'filter').length, e).toBe(1);
    }
  });
});
