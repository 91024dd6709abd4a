import { describe, expect, it } from 'vitest';
import { isLeft, isRight, type Either } from 'fp-ts/lib/Either.js';
import systemRaw from '../packs/system.json' with { type: 'json' };
import demoRaw from '../packs/demo-crm.json' with { type: 'json' };
import { builtInPacks, systemPack } from '../packs/packs.js';
import { loadPack } from './pack.js';

type Raw = { entities: Array<Record<string, any>>; views: Array<Record<string, any>>; [k: string]: any };
const clone = (raw: unknown): Raw => JSON.parse(JSON.stringify(raw)) as Raw;
const message = (r: Either<{ message: string }, unknown>): string => (isLeft(r) ? r.left.message : 'decoded');
const entityIndex = (raw: Raw, name: string) => raw.entities.findIndex((e) => e.logicalName === name);
const propOf = (raw: Raw, entity: string, field: string) =>
  raw.entities[entityIndex(raw, entity)].properties.find((p: { logicalName: string }) => p.logicalName === field);
const viewOf = (raw: Raw, kind: string, objectname: string) =>
  raw.views.find((v) => v.kind === kind && v.objectname === objectname)!;
const loadDemo = (raw: Raw) => loadPack(raw, 'core/src/packs/demo-crm.json', [systemPack()]);

describe('the codecs accept every built-in pack', () => {
  it('the system pack decodes on its own', () => {
    expect(isRight(loadPack(systemRaw, 'system.json'))).toBe(true);
  });
  it('the demo CRM pack decodes on top of the system pack', () => {
    expect(message(loadDemo(clone(demoRaw)))).toBe('decoded');
  });
  it('the demo CRM pack alone fails: it refers to system entities', () => {
    expect(message(loadPack(demoRaw, 'demo-crm.json'))).toContain('account.ownerid: target No Object:systemuser');
  });
  it('loading gives every entity its system fields', () => {
    for (const pack of builtInPacks())
      for (const e of pack.entities) expect(e.properties.map((p) => p.logicalName)).toContain('versionnumber');
  });
});

describe('a broken pack fails loudly with the path: the file, the entity, the property, what was expected and what came', () => {
  it('a wrong property type', () => {
    const raw = clone(demoRaw);
    propOf(raw, 'account', 'industry').type = 'Text';
    expect(message(loadDemo(raw))).toBe(
      `Invalid pack core/src/packs/demo-crm.json: entities.${entityIndex(raw, 'account')}(account).properties.${raw.entities[entityIndex(raw, 'account')].properties.indexOf(propOf(raw, 'account', 'industry'))}(industry).type: expected PropertyType, got "Text"`,
    );
  });
  it('an unknown flag', () => {
    const raw = clone(demoRaw);
    propOf(raw, 'contact', 'birthdate').flags = ['DateOnly', 'Birthday'];
    expect(message(loadDemo(raw))).toMatch(
      /\(contact\)\.properties\.\d+\(birthdate\)\.flags\.1: expected PropertyFlag, got "Birthday"$/,
    );
  });
  it('a missing displayName', () => {
    const raw = clone(demoRaw);
    delete propOf(raw, 'lead', 'rating').displayName;
    expect(message(loadDemo(raw))).toMatch(
      /\(lead\)\.properties\.\d+\(rating\)\.displayName: expected string, got undefined$/,
    );
  });
  it('a rich option without a numeric value', () => {
    const raw = clone(demoRaw);
    propOf(raw, 'workorder', 'priority').richOptions[0].value = 'low';
    expect(message(loadDemo(raw))).toMatch(
      /\(workorder\)\.properties\.\d+\(priority\)\.richOptions\.0\.value: expected number, got "low"$/,
    );
  });
  it('a lookup to an entity that does not exist', () => {
    const raw = clone(demoRaw);
    propOf(raw, 'account', 'primarycontactid').targets = ['person'];
    expect(message(loadDemo(raw))).toContain(
      'Invalid pack core/src/packs/demo-crm.json: account.primarycontactid: target No Object:person',
    );
  });
  it('a dependent option naming a field that does not exist', () => {
    const raw = clone(demoRaw);
    propOf(raw, 'workorder', 'subtype').richOptions[0].depfield = 'kind';
    expect(message(loadDemo(raw))).toContain('workorder.subtype: dependent option 11: Field not found:workorder.kind');
  });
  it('an option set without options', () => {
    const raw = clone(demoRaw);
    delete propOf(raw, 'account', 'industry').richOptions;
    expect(message(loadDemo(raw))).toContain('account.industry: an option set needs options or richOptions');
  });
  it('an entity defined twice', () => {
    const raw = clone(demoRaw);
    raw.entities.push(clone(systemRaw).entities[0]);
    expect(message(loadDemo(raw))).toBe(
      'Invalid pack core/src/packs/demo-crm.json: Entity systemuser is defined twice',
    );
  });
  it('a system field declared with another type', () => {
    const raw = clone(demoRaw);
    raw.entities[0].properties.push({ logicalName: 'createdon', displayName: 'Created', type: 'String' });
    expect(message(loadDemo(raw))).toBe(
      'Invalid pack core/src/packs/demo-crm.json: System field account.createdon is DateTime and cannot be declared as String',
    );
  });
  it('a panel of an unknown type names the view body path', () => {
    const raw = clone(demoRaw);
    const i = raw.views.indexOf(viewOf(raw, 'form', 'account'));
    raw.views[i].body.panels[0].panels[1].type = 'Grid';
    expect(message(loadDemo(raw))).toBe(
      `Invalid pack core/src/packs/demo-crm.json: views.${i}.body.panels.0.panels.1.type: expected PanelType, got "Grid"`,
    );
  });
  it('a form field that the entity does not have', () => {
    const raw = clone(demoRaw);
    viewOf(raw, 'form', 'account').body.panels[0].panels[0].fields.push('nosuch');
    expect(message(loadDemo(raw))).toBe(
      'Invalid pack core/src/packs/demo-crm.json: view form account/main: Field not found:account.nosuch',
    );
  });
  it('an associated list whose field is not a lookup to the form entity', () => {
    const raw = clone(demoRaw);
    viewOf(raw, 'form', 'account').body.panels[1].panels[0].field = 'contact.jobtitle';
    expect(message(loadDemo(raw))).toContain(
      'view form account/main: panel contacts: contact.jobtitle is not a lookup to account',
    );
  });
  it('a view column, a chart field and a quick filter property that do not exist', () => {
    const raw = clone(demoRaw);
    raw.views.find((v) => v.kind === 'view' && v.objectname === 'lead')!.body.columns.push({ name: 'budget' });
    viewOf(raw, 'chart', 'lead').body.groups[0].field = 'origin';
    viewOf(raw, 'filter', 'lead').body.filters[1].propertyName = 'phase';
    const m = message(loadDemo(raw));
    expect(m).toContain('view view lead/open: Field not found:lead.budget');
    expect(m).toContain('view chart lead/bysource: Field not found:lead.origin');
    expect(m).toContain('view filter lead/quickfilters: Field not found:lead.phase');
  });
  it('a chart with an unknown aggregate, and a quick filter of an unknown type', () => {
    const raw = clone(demoRaw);
    const c = raw.views.indexOf(viewOf(raw, 'chart', 'invoice'));
    raw.views[c].body.series[0].aggregateMethod = 'median';
    expect(message(loadDemo(raw))).toBe(
      `Invalid pack core/src/packs/demo-crm.json: views.${c}.body.series.0.aggregateMethod: expected ChartAggregate, got "median"`,
    );
    const raw2 = clone(demoRaw);
    const f = raw2.views.indexOf(viewOf(raw2, 'filter', 'invoice'));
    raw2.views[f].body.filters[0].type = 'fulltext';
    expect(message(loadDemo(raw2))).toBe(
      `Invalid pack core/src/packs/demo-crm.json: views.${f}.body.filters.0.type: expected QuickFilterType, got "fulltext"`,
    );
  });
  it('a command with a malformed permissions string', () => {
    const raw = clone(demoRaw);
    const i = raw.views.indexOf(viewOf(raw, 'form', 'lead'));
    raw.views[i].body.commands[3].permissions = 'opportunity:create';
    expect(message(loadDemo(raw))).toBe(
      `Invalid pack core/src/packs/demo-crm.json: views.${i}.body.commands.3.permissions: expected PermissionString, got "opportunity:create"`,
    );
  });
  it('a view of an unknown kind', () => {
    const raw = clone(demoRaw);
    raw.views[0].kind = 'report';
    expect(message(loadDemo(raw))).toBe(
      'Invalid pack core/src/packs/demo-crm.json: views.0.kind: expected ViewKind, got "report"',
    );
  });
  it('a field of the wrong type for its use: quick filter, chart aggregate, date grouping, kanban lanes', () => {
    const raw = clone(demoRaw);
    viewOf(raw, 'filter', 'account').body.filters[1].propertyName = 'website';
    viewOf(raw, 'chart', 'opportunity').body.series[0].aggregateField = 'name';
    viewOf(raw, 'chart', 'invoice').body.groups[0].field = 'customerid';
    raw.views.find((v) => v.name === 'board')!.body.kanbanField = 'companyname';
    const m = message(loadDemo(raw));
    expect(m).toContain('view filter account/quickfilters: account.website is not an option set');
    expect(m).toContain('view chart opportunity/pipelinebystage: opportunity.name is not a number to sum');
    expect(m).toContain('view chart invoice/revenuepermonth: invoice.customerid is not a DateTime to group by month');
    expect(m).toContain('view view lead/board: lead.companyname is not an option set');
  });
  it('a Split of three panels, and an associated list or menu item opening a view that does not exist', () => {
    const raw = clone(demoRaw);
    const form = viewOf(raw, 'form', 'account');
    form.body.panels[0].panels.push({ name: 'third', type: 'Fields' });
    form.body.panels[1].panels[0].initialView = 'recent';
    raw.views.find((v) => v.kind === 'home' && v.appid === 'Sales')!.body.items[0].allowedViews = ['active', 'closed'];
    const m = message(loadDemo(raw));
    expect(m).toContain('view form account/main: panel top: a Split holds two panels');
    expect(m).toContain('view form account/main: panel contacts: contact has no view recent');
    expect(m).toContain('view home Sales/home: menu item Accounts: account has no view closed');
  });
});
