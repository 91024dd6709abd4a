import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isLeft, isRight, type Either } from 'fp-ts/lib/Either.js';
import demoRaw from '../packs/demo-crm.json' with { type: 'json' };
import { systemPack } from '../packs/packs.js';
import { systemCaller } from '../ports/record-store.js';
import { InMemoryRecordStore } from '../store/in-memory-record-store.js';
import type { Entity, EntityRecord } from './entity.js';
import { composeField, fieldTemplateOf, templateFields } from './field-template.js';
import { loadPack } from './pack.js';
import { withSystemFields } from './system-fields.js';

const right = <A>(e: Either<unknown, A>): A => {
  if (!isRight(e)) throw new Error(JSON.stringify(e.left));
  return e.right;
};

const person = right(
  withSystemFields({
    logicalName: 'person',
    displayName: 'Person',
    displayNamePlural: 'People',
    properties: [
      { logicalName: 'name', displayName: 'Name', type: 'String', formatString: '{firstname} {lastname}' },
      { logicalName: 'firstname', displayName: 'First Name', type: 'String', max: 100 },
      { logicalName: 'lastname', displayName: 'Last Name', type: 'String', max: 100 },
      { logicalName: 'tags', displayName: 'Tags', type: 'String', formatString: 'tags' },
    ],
  }),
);

const storeOf = (entity: Entity) => {
  let n = 0;
  return new InMemoryRecordStore((name) => (name === entity.logicalName ? entity : undefined), { now: () => new Date('2026-11-21T10:00:00Z') }, {
    newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  });
};
const caller = systemCaller();
const nameOf = async (store: InMemoryRecordStore, id: string): Promise<unknown> =>
  right(await store.retrieveMultiple(caller, { entity: { name: 'person', allattrs: true, filter: { conditions: [{ attribute: 'id', operator: 'eq', value: id }] } } })).records[0]?.name;
const create = async (store: InMemoryRecordStore, object: EntityRecord) => right(await store.create(caller, 'person', object));
const update = async (store: InMemoryRecordStore, object: EntityRecord) => right(await store.update(caller, 'person', object));

describe('composed fields: a String property whose formatString has {field} placeholders (docs/metadata.md)', () => {
  it('a format string with placeholders is a template; one without (tags) is not', () => {
    expect(fieldTemplateOf(person.properties.find((p) => p.logicalName === 'name')!)).toBe('{firstname} {lastname}');
    expect(fieldTemplateOf(person.properties.find((p) => p.logicalName === 'tags')!)).toBeUndefined();
    expect(templateFields('{lastname}, {firstname} ({lastname})')).toEqual(['lastname', 'firstname']);
  });

  it('fills the placeholders, joins white space and trims the separators an empty field leaves; nothing left is null', () => {
    expect(composeField('{firstname} {lastname}', { firstname: 'Eva', lastname: 'Novak' })).toBe('Eva Novak');
    expect(composeField('{firstname} {lastname}', { firstname: null, lastname: 'Novak' })).toBe('Novak');
    expect(composeField('{lastname}, {firstname}', { lastname: 'Novak' })).toBe('Novak');
    expect(composeField('{a}, {b}, {c}', { a: 'A', c: 'C' })).toBe('A, C');
    expect(composeField('{firstname} {lastname}', {})).toBeNull();
    expect(composeField('{firstname} {lastname}', { firstname: 'Anna', lastname: 'Maria' }, 6)).toBe('Anna M');
  });

  it('property: the composed text is the non-empty parts joined by one space, never longer than max', () => {
    const part = fc.string({ maxLength: 20 }).map((s) => s.replace(/[\s,;:|/–-]/g, 'x'));
    fc.assert(
      fc.property(part, part, fc.integer({ min: 1, max: 50 }), (first, last, max) => {
        const joined = [first, last].filter((s) => s !== '').join(' ');
        const composed = composeField('{firstname} {lastname}', { firstname: first, lastname: last }, max);
        if (joined === '') return composed === null;
        return composed !== null && composed.length <= max && joined.startsWith(composed);
      }),
    );
  });

  it("a record created without its composed field gets it from the sources; one given keeps the given text", async () => {
    const store = storeOf(person);
    expect(await nameOf(store, await create(store, { firstname: 'Eva', lastname: 'Novak' }))).toBe('Eva Novak');
    expect(await nameOf(store, await create(store, { name: '', lastname: 'Weber' }))).toBe('Weber');
    expect(await nameOf(store, await create(store, { name: 'Dr. Ines Toth', firstname: 'Ines', lastname: 'Toth' }))).toBe('Dr. Ines Toth');
    expect(await nameOf(store, await create(store, { tags: 'a' }))).toBeNull();
  });

  it('an update of a source follows a composed name, keeps a name typed by hand, and an emptied name is composed again', async () => {
    const store = storeOf(person);
    const composed = await create(store, { firstname: 'Eva', lastname: 'Novak' });
    await update(store, { id: composed, lastname: 'Kovac' });
    expect(await nameOf(store, composed)).toBe('Eva Kovac');
    const typed = await create(store, { name: 'Dr. Ines Toth', firstname: 'Ines', lastname: 'Toth' });
    await update(store, { id: typed, lastname: 'Balaz' });
    expect(await nameOf(store, typed)).toBe('Dr. Ines Toth');
    await update(store, { id: typed, name: null });
    expect(await nameOf(store, typed)).toBe('Ines Balaz');
    await update(store, { id: typed, name: 'Ines B.', firstname: 'Inés' });
    expect(await nameOf(store, typed)).toBe('Ines B.');
  });

  it('the demo pack composes a contact name from firstname and lastname', () => {
    const pack = right(loadPack(demoRaw, 'demo-crm.json', [systemPack()]));
    const contact = pack.entities.find((e) => e.logicalName === 'contact')!;
    expect(fieldTemplateOf(contact.properties.find((p) => p.logicalName === 'name')!)).toBe('{firstname} {lastname}');
  });

  it('a pack whose template names a field the entity lacks fails with the path', () => {
    const raw = JSON.parse(JSON.stringify(demoRaw)) as { entities: Array<{ logicalName: string; properties: Array<{ logicalName: string; formatString?: string }> }> };
    raw.entities.find((e) => e.logicalName === 'contact')!.properties.find((p) => p.logicalName === 'name')!.formatString = '{firstname} {surname}';
    const loaded = loadPack(raw, 'demo-crm.json', [systemPack()]);
    expect(isLeft(loaded) && loaded.left.message).toContain('contact.name: formatString {surname}: Field not found:contact.surname');
  });
});
