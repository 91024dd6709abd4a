import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isLeft, isRight, type Either } from 'fp-ts/lib/Either.js';
import { allFormFields, allPanels, CANNOT_PASTE, PANEL_TYPES, type Form, type Panel } from './form.js';
import {
  addColumn,
  addCommand,
  addField,
  addPanel,
  addQuickFilter,
  copyCommand,
  copyPanel,
  editChartSeries,
  editField,
  editPanel,
  editQuickFilter,
  fieldDialogProps,
  fieldsNotOnForm,
  moveColumn,
  moveCommand,
  moveField,
  moveItem,
  movePanel,
  movePersonalFilter,
  moveQuickFilter,
  panelPlace,
  pasteCommand,
  pastePanel,
  removeChartSeries,
  removeColumn,
  removeCommand as removeCommandAt,
  removeField,
  removePanel,
  removeQuickFilter,
  setChartType,
  setColumnWidth,
} from './layout-edits.js';
import type { Chart, ListView, QuickFilterSet } from './view.js';

const ok = <T>(e: Either<unknown, T>): T => {
  if (isLeft(e)) throw new Error(`expected Right, got ${JSON.stringify(e.left)}`);
  return e.right;
};
const fieldNames = (f: Form) => allFormFields(f.panels).map((x) => x.name);
const panelNames = (f: Form) => allPanels(f.panels).map((p) => p.name);

/** Forms of Fields panels (some inside a Tabs panel) with unique panel and field names. */
const formArb: fc.Arbitrary<Form> = fc
  .uniqueArray(fc.constantFrom('name', 'email', 'phone', 'city', 'street', 'zip', 'ownerid', 'notes', 'amount', 'status'), { minLength: 1, maxLength: 10 })
  .chain((fields) =>
    fc.tuple(fc.constant(fields), fc.array(fc.nat(3), { minLength: fields.length, maxLength: fields.length }), fc.boolean()),
  )
  .map(([fields, where, tabs]) => {
    const panels: Panel[] = [0, 1, 2, 3].map((i) => ({ name: `p${i}`, type: 'Fields', label: `P${i}`, fields: fields.filter((_, j) => where[j] === i).map((name) => ({ name })) }));
    return { name: 'main', panels: tabs ? [panels[0] as Panel, { name: 'tabs', type: 'Tabs', panels: panels.slice(1) }] : panels };
  });

/** A field address that exists in the form. */
const fieldAt = (form: Form) => {
  const places = allPanels(form.panels).flatMap((p) => (p.fields ?? []).map((_, index) => ({ panel: p.name, index })));
  return fc.constantFrom(...places);
};
const fieldsPanels = (form: Form) => allPanels(form.panels).filter((p) => p.type === 'Fields').map((p) => p.name);

describe('customize mode: layout edits are pure functions of the form (spec 001 section 2, issue 15)', () => {
  it('moving a field to another panel and back is the identity', () => {
    fc.assert(
      fc.property(
        formArb.chain((f) => fc.tuple(fc.constant(f), fieldAt(f), fc.constantFrom(...fieldsPanels(f)), fc.nat(10))),
        ([form, from, toPanel, toIndex]) => {
          const moved = ok(moveField(form, from, { panel: toPanel, index: toIndex }));
          // Where it landed (the index is clamped to the panel).
          const target = allPanels(moved.panels).find((p) => p.name === toPanel)!;
          const name = allPanels(form.panels).find((p) => p.name === from.panel)!.fields![from.index]!.name;
          const landed = target.fields!.findIndex((x) => x.name === name);
          expect(ok(moveField(moved, { panel: toPanel, index: landed }, from))).toEqual(form);
        },
      ),
    );
  });

  it('edits never lose a field or duplicate one (move, add, remove, move panels)', () => {
    fc.assert(
      fc.property(
        formArb.chain((f) => fc.tuple(fc.constant(f), fieldAt(f), fc.constantFrom(...fieldsPanels(f)), fc.nat(10), fc.constantFrom(...panelNames(f)), fc.constantFrom('name', 'email', 'website'))),
        ([form, from, toPanel, toIndex, panel, extra]) => {
          const before = [...fieldNames(form)].sort();
          expect([...fieldNames(ok(moveField(form, from, { panel: toPanel, index: toIndex })))].sort()).toEqual(before);
          const parent = panelPlace(form, panel)!.parent;
          const movedPanel = movePanel(form, panel, parent, toIndex);
          expect([...fieldNames(ok(movedPanel))].sort()).toEqual(before);
          const added = addField(form, toPanel, { name: extra });
          if (before.includes(extra)) expect(isLeft(added)).toBe(true);
          else expect([...fieldNames(ok(added))].sort()).toEqual([...before, extra].sort());
          for (const f of [ok(moveField(form, from, { panel: toPanel, index: toIndex })), ok(movedPanel)]) expect(new Set(fieldNames(f)).size).toBe(fieldNames(f).length);
        },
      ),
    );
  });

  it('removing a field after adding it is the identity; so is removing an added panel', () => {
    fc.assert(
      fc.property(
        formArb.chain((f) => fc.tuple(fc.constant(f), fc.constantFrom(...fieldsPanels(f)), fc.nat(10))),
        ([form, panel, index]) => {
          const added = ok(addField(form, panel, { name: 'website', label: 'Web' }, index));
          const at = allPanels(added.panels).find((p) => p.name === panel)!.fields!.findIndex((x) => x.name === 'website');
          expect(ok(removeField(added, panel, at))).toEqual(form);
          const withPanel = ok(addPanel(form, null, { name: 'p0', type: 'Fields', fields: [{ name: 'website' }] }, index));
          const addedName = withPanel.panels.find((p) => !form.panels.includes(p))!.name;
          expect(addedName).not.toBe('p0'); // a taken name gets a fresh one
          expect(ok(removePanel(withPanel, addedName))).toEqual(form);
        },
      ),
    );
  });

  it('moving a panel and moving it back is the identity (the tab order of a Tabs panel too)', () => {
    fc.assert(
      fc.property(
        formArb.chain((f) => fc.tuple(fc.constant(f), fc.constantFrom(...panelNames(f)), fc.nat(5))),
        ([form, name, index]) => {
          const place = panelPlace(form, name)!;
          const moved = ok(movePanel(form, name, place.parent, index));
          const now = panelPlace(moved, name)!;
          expect(ok(movePanel(moved, name, place.parent, place.index))).toEqual(form);
          expect(now.parent).toBe(place.parent);
        },
      ),
    );
  });

  it('a panel cannot move into itself or into a panel that does not hold panels', () => {
    const form: Form = { name: 'f', panels: [{ name: 'tabs', type: 'Tabs', panels: [{ name: 'a', type: 'Fields', fields: [] }] }, { name: 'list', type: 'AssociatedList', field: 'contact.parentcustomerid' }] };
    expect(isLeft(movePanel(form, 'tabs', 'a', 0))).toBe(true);
    expect(isLeft(movePanel(form, 'tabs', 'tabs', 0))).toBe(true);
    expect(isLeft(movePanel(form, 'a', 'list', 0))).toBe(true);
    expect(ok(movePanel(form, 'a', null, 0)).panels.map((p) => p.name)).toEqual(['a', 'tabs', 'list']);
  });

  it('the field dialog (formFieldDialog) sets label, disabled, gridColumn/gridRow, cssClass, tooltip, the required override and customComponent; empty clears', () => {
    const form: Form = { name: 'f', panels: [{ name: 'p', type: 'Fields', fields: [{ name: 'email', extraFetch: {} }] }] };
    const props = { label: 'E-mail', disabled: true, required: true, gridColumn: '1 / 3', gridRow: '2', cssClass: 'wide', tooltip: 'Work address', customComponent: 'EmailPicker' };
    const edited = ok(editField(form, 'p', 0, props));
    expect(fieldDialogProps(edited.panels[0]!.fields![0]!)).toEqual(props);
    expect(edited.panels[0]!.fields![0]!.extraFetch).toEqual({}); // what the dialog does not show stays
    const cleared = ok(editField(edited, 'p', 0, { label: '', disabled: undefined, required: false }));
    expect(cleared.panels[0]!.fields![0]).toEqual({ name: 'email', extraFetch: {}, required: false, gridColumn: '1 / 3', gridRow: '2', cssClass: 'wide', tooltip: 'Work address', customComponent: 'EmailPicker' });
    expect(isLeft(editField(form, 'p', 3, props))).toBe(true);
    expect(isLeft(editField(form, 'nope', 0, props))).toBe(true);
  });

  it('panel properties are edited; the name and type stay', () => {
    const form: Form = { name: 'f', panels: [{ name: 'p', type: 'Fields', label: 'Old' }] };
    expect(ok(editPanel(form, 'p', { label: 'New', minColumnWidth: 300, showLabel: false })).panels[0]).toEqual({ name: 'p', type: 'Fields', label: 'New', minColumnWidth: 300, showLabel: false });
  });

  it('fieldsNotOnForm offers the fields the form does not show yet', () => {
    const form: Form = { name: 'f', panels: [{ name: 'p', type: 'Fields', fields: [{ name: 'name' }, { name: '-' }] }] };
    expect(fieldsNotOnForm(form, ['name', 'email', 'phone'])).toEqual(['email', 'phone']);
  });
});

describe('customize mode: copy and paste (spec 001 sections 2 and 5)', () => {
  const form: Form = { name: 'f', panels: [{ name: 'p', type: 'Fields', fields: [{ name: 'name' }] }], commands: [{ kind: 'std', name: 'Save' }] };

  it('a panel paste accepts only Tabs, Fields, AssociatedList, Split, Flex; anything else is "Cannot paste object"', () => {
    for (const type of PANEL_TYPES) {
      const r = pastePanel(form, null, JSON.stringify({ name: 'x', type }));
      if (['Tabs', 'Fields', 'AssociatedList', 'Split', 'Flex'].includes(type)) expect(isRight(r)).toBe(true);
      else expect(isLeft(r) && r.left.message).toBe(CANNOT_PASTE);
    }
    for (const text of ['', 'not json', '42', '{"type":"Fields"}', JSON.stringify({ name: 'x', type: 'Pie' })]) {
      const r = pastePanel(form, null, text);
      expect(isLeft(r) && r.left.message).toBe(CANNOT_PASTE);
    }
  });

  it('a copied panel pastes back with a fresh name and without the fields the form already shows', () => {
    fc.assert(
      fc.property(formArb, fc.constantFrom(...[0, 1]), (f, i) => {
        const p = f.panels[i] ?? f.panels[0]!;
        const pasted = ok(pastePanel(f, null, copyPanel(p)));
        expect(new Set(panelNames(pasted)).size).toBe(panelNames(pasted).length);
        expect([...fieldNames(pasted)].sort()).toEqual([...fieldNames(f)].sort());
      }),
    );
  });

  it('a pasted command needs a name and a kind of custom or std', () => {
    expect(ok(pasteCommand(form, copyCommand({ kind: 'custom', name: 'Approve', label: 'Approve' }))).commands).toHaveLength(2);
    for (const text of [JSON.stringify({ kind: 'other', name: 'x' }), JSON.stringify({ kind: 'std' }), JSON.stringify({ kind: 'std', name: '  ' }), '{']) {
      const r = pasteCommand(form, text);
      expect(isLeft(r) && r.left.message).toBe(CANNOT_PASTE);
    }
  });

  it('commands move and move back; add then remove is the identity', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom('Save', 'Delete', 'Clone', 'Approve', 'Print'), { minLength: 1 }), fc.nat(6), fc.nat(6), (names, a, b) => {
        const f: Form = { ...form, commands: names.map((name) => ({ kind: 'std' as const, name })) };
        const from = a % names.length;
        const moved = ok(moveCommand(f, from, b));
        const at = moved.commands!.findIndex((c) => c.name === names[from]);
        expect(ok(moveCommand(moved, at, from))).toEqual(f);
        const added = ok(addCommand(f, { kind: 'custom', name: 'Run' }, b));
        const i = added.commands!.findIndex((c) => c.name === 'Run');
        expect(ok(removeCommandAt(added, i))).toEqual(f);
      }),
    );
  });
});
describe('customize mode: list columns, quick filters and charts (spec 001 section 2)', () => {
  const view = (names: string[]): ListView => ({ query: { name: 'account' }, columns: names.map((name) => ({ name })) });

  it('columns: move then move back, add then remove are identities; a column never repeats', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom('name', 'city', 'email', 'phone', 'ownerid'), { minLength: 1 }), fc.nat(6), fc.nat(6), (names, a, b) => {
        const v = view(names);
        const name = names[a % names.length]!;
        const moved = ok(moveColumn(v, name, b));
        expect(ok(moveColumn(moved, name, names.indexOf(name)))).toEqual(v);
        expect(ok(removeColumn(ok(addColumn(v, { name: 'revenue' }, b)), 'revenue'))).toEqual(v);
        expect(isLeft(addColumn(v, { name }))).toBe(true);
      }),
    );
  });

  it('column widths are whole pixels from 40 to 2000, or cleared', () => {
    const v = view(['name']);
    expect(ok(setColumnWidth(v, 'name', 240)).columns[0]).toEqual({ name: 'name', width: 240 });
    expect(ok(setColumnWidth(ok(setColumnWidth(v, 'name', 240)), 'name', undefined))).toEqual(v);
    for (const w of [39, 2001, 12.5, Number.NaN]) expect(isLeft(setColumnWidth(v, 'name', w))).toBe(true);
    expect(isLeft(setColumnWidth(v, 'nope', 100))).toBe(true);
  });

  it('quick filters: add (a fresh name when taken), edit, reorder and remove; personal ones reorder too', () => {
    const set: QuickFilterSet = { filters: [{ name: 'owner', type: 'owner' }, { name: 'status', type: 'options', propertyName: 'statuscode' }] };
    const added = ok(addQuickFilter(set, { name: 'owner', type: 'text', propertyName: 'name' }));
    expect(added.filters.map((f) => f.name)).toEqual(['owner', 'status', 'owner-2']);
    expect(ok(editQuickFilter(added, 'owner-2', { label: 'Name', minimumLength: 3 })).filters[2]).toEqual({ name: 'owner-2', type: 'text', propertyName: 'name', label: 'Name', minimumLength: 3 });
    expect(ok(moveQuickFilter(added, 'owner-2', 0)).filters.map((f) => f.name)).toEqual(['owner-2', 'owner', 'status']);
    expect(ok(removeQuickFilter(added, 'owner-2'))).toEqual(set);
    expect(isLeft(removeQuickFilter(set, 'nope'))).toBe(true);
    expect(movePersonalFilter(set.filters, 'status', 0).map((f) => f.name)).toEqual(['status', 'owner']);
    fc.assert(
      fc.property(fc.array(fc.integer()), fc.nat(10), fc.nat(10), (list, a, b) => {
        if (list.length === 0) return;
        const from = a % list.length;
        const moved = moveItem(list, from, b);
        expect([...moved].sort()).toEqual([...list].sort());
        expect(moveItem(moved, Math.min(b, list.length - 1), from)).toEqual(list);
      }),
    );
  });

  it('charts: type, series colour and label; the last series stays', () => {
    const chart: Chart = { type: 'bar', series: [{ aggregateField: 'id', aggregateMethod: 'count' }], groups: [{ field: 'industrycode', method: 'column' }] };
    expect(setChartType(chart, 'line').type).toBe('line');
    expect(ok(editChartSeries(chart, 0, { color: '#ff0000', label: 'Count' })).series[0]).toEqual({ aggregateField: 'id', aggregateMethod: 'count', color: '#ff0000', label: 'Count' });
    expect(isLeft(removeChartSeries(chart, 0))).toBe(true);
  });
});
