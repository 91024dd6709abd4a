import { describe, expect, it } from 'vitest';
import { effect } from '@preact/signals-react';
import { isLeft, right } from 'fp-ts/lib/Either.js';
import type { Entity, Form } from '../core.js';
import { addColumn, builtInPacks, moveField, pastePanel, withSystemFields } from '../core.js';
import { fullCaller, StoreClient } from '../testing/store-client.js';
import { customizeModel, type KeyLike } from './customize-model.js';

const ME = '0f8fad5b-d9cb-469f-a165-70867728950e';
const OTHER = '1f8fad5b-d9cb-469f-a165-70867728950f';
const key = (k: Partial<KeyLike>): KeyLike => ({ code: 'KeyE', key: 'e', ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...k });
const form: Form = { name: 'main', panels: [{ name: 'a', type: 'Fields', fields: [{ name: 'name' }, { name: 'city' }] }, { name: 'b', type: 'Fields', fields: [{ name: 'email' }] }] };
const formKey = { kind: 'form' as const, objectname: 'account', name: 'main' };

const model = (can = { customize: true, superEdit: true }) => customizeModel({ canCustomize: () => can.customize, canSuperEdit: () => can.superEdit });

const inuView = (): Entity => {
  const e = builtInPacks()
    .flatMap((p) => p.entities)
    .find((x) => x.logicalName === 'inu_view')!;
  const r = withSystemFields(e);
  if (isLeft(r)) throw new Error(r.left.message);
  return r.right;
};

describe('customize mode model (spec 001 sections 1, 2 and 6; issue 15)', () => {
  it('Ctrl+E toggles it for users with update on inu_view; others are refused', () => {
    const m = model();
    expect(m.shortcut(key({ ctrlKey: true }))).toBe(true);
    expect(m.level.value).toBe('on');
    expect(m.shortcut(key({ ctrlKey: true }))).toBe(true);
    expect(m.level.value).toBe('off');
    const none = model({ customize: false, superEdit: false });
    expect(none.shortcut(key({ ctrlKey: true }))).toBe(false);
    expect(none.level.value).toBe('off');
    expect(m.shortcut(key({ ctrlKey: true, code: 'KeyS', key: 's' }))).toBe(false);
  });

  it('Meta or Alt plus E enters super edit only for system user level 3 (its saves default to everyone)', () => {
    for (const mod of [{ metaKey: true }, { altKey: true }]) {
      const m = model();
      expect(m.shortcut(key(mod))).toBe(true);
      expect(m.level.value).toBe('super');
      expect(m.scope.value).toBe('everyone');
      const plain = model({ customize: true, superEdit: false });
      expect(plain.shortcut(key(mod))).toBe(false);
      expect(plain.level.value).toBe('off');
    }
  });

  it('a draft shows live while customizing (a computed that reads it follows every edit), and not when off', () => {
    const m = model();
    m.setLevel('on');
    const seen: string[][] = [];
    const stop = effect(() => void seen.push(m.shown(formKey, form).panels.map((p) => (p.fields ?? []).map((f) => f.name).join(','))));
    m.edit(formKey, form, (f) => moveField(f, { panel: 'a', index: 1 }, { panel: 'b', index: 0 }));
    expect(seen.at(-1)).toEqual(['name', 'city,email']);
    m.setLevel('off');
    expect(seen.at(-1)).toEqual(['name,city', 'email']);
    stop();
  });

  it('a refused edit changes nothing; undo steps back one edit at a time within the session', () => {
    const m = model();
    m.setLevel('on');
    const r = m.edit(formKey, form, (f) => pastePanel(f, null, '{"name":"x","type":"Custom"}'));
    expect(isLeft(r) && r.left.message).toBe('Cannot paste object');
    expect(m.dirty.value).toBe(false);
    m.edit(formKey, form, (f) => moveField(f, { panel: 'a', index: 0 }, { panel: 'b', index: 1 }));
    m.edit(formKey, form, (f) => moveField(f, { panel: 'a', index: 0 }, { panel: 'b', index: 0 }));
    expect(m.draft(formKey)!.panels[0]!.fields).toEqual([]);
    m.undo();
    expect(m.draft(formKey)!.panels[0]!.fields).toEqual([{ name: 'city' }]);
    m.undo();
    expect(m.dirty.value).toBe(false);
    expect(m.canUndo.value).toBe(false);
    m.undo(); // nothing left: no change
    expect(m.dirty.value).toBe(false);
  });

  it('saves as inu_view records: creates without id, updates after; private for the saver, then for everyone', async () => {
    const api = new StoreClient([inuView()], fullCaller(ME, ['inu_view']));
    const m = model();
    m.setLevel('on');
    m.edit(formKey, form, (f) => moveField(f, { panel: 'a', index: 1 }, { panel: 'b', index: 0 }));
    const view = { query: { name: 'account' }, columns: [{ name: 'name' }] };
    m.edit({ kind: 'view', objectname: 'account', name: 'active' }, view, (v) => addColumn(v, { name: 'city', width: 120 }));
    let reloaded = 0;
    const r = await m.save(api, ME, async () => void reloaded++);
    expect(r).toEqual({ _tag: 'Saved', writes: 2 });
    expect(reloaded).toBe(1);
    expect(m.dirty.value).toBe(false);
    expect(api.calls.map((c) => [c.operation, c.object.kind, c.object.isprivate])).toEqual([
      ['create', 'form', true],
      ['create', 'view', true],
    ]);
    expect(JSON.parse(String(api.calls[1]!.object.body))).toEqual({ query: { name: 'account' }, columns: [{ name: 'name' }, { name: 'city', width: 120 }] });

    // Again, for everyone: the public record is created and the saver's private copy goes.
    m.scope.value = 'everyone';
    m.edit(formKey, form, (f) => right({ ...f, label: 'Main' }));
    api.calls.length = 0;
    await m.save(api, ME);
    expect(api.calls.map((c) => c.operation)).toEqual(['create', 'delete']);
    // And once more: now an update of the public record, without an id created.
    m.edit(formKey, form, (f) => right({ ...f, label: 'Main 2' }));
    api.calls.length = 0;
    await m.save(api, ME);
    expect(api.calls.map((c) => c.operation)).toEqual(['update']);
    expect(api.calls[0]!.object.id).toBeTruthy();
  });

  it('another user\'s private copy is not the saver\'s: a private save creates the saver\'s own', async () => {
    const api = new StoreClient([inuView()], fullCaller(ME, ['inu_view']));
    await api.store.create(fullCaller(OTHER, ['inu_view']), 'inu_view', { name: 'main', kind: 'form', objectname: 'account', isprivate: true, body: JSON.stringify(form) });
    const m = model();
    m.setLevel('on');
    m.edit(formKey, form, (f) => right({ ...f, label: 'Mine' }));
    await m.save(api, ME);
    expect(api.calls.map((c) => [c.operation, c.object.isprivate])).toEqual([['create', true]]);
  });

  it('a failed save keeps the drafts (nothing is lost) and says why', async () => {
    const api = new StoreClient([inuView()], fullCaller(ME, []));
    const m = model();
    m.setLevel('on');
    m.edit(formKey, form, (f) => right({ ...f, label: 'X' }));
    const r = await m.save(api, ME);
    expect(r._tag).toBe('Failed');
    expect(m.dirty.value).toBe(true);
    expect(m.saving.value).toBe(false);
  });
});
