import { describe, expect, it } from 'vitest';
import type { Entity, Property } from '../metadata/entity.js';
import { systemPack } from '../packs/packs.js';
import { requiredMetadataRemoved } from './migrate.js';

const entity = (logicalName: string, properties: Property[]): Entity => ({
  logicalName,
  displayName: logicalName,
  displayNamePlural: logicalName,
  properties,
});
const email: Property = { logicalName: 'emailaddress', displayName: 'E-mail', type: 'String', max: 200 };
const notes: Property = { logicalName: 'notes', displayName: 'Notes', type: 'String' };
const required = [entity('systemuser', [email]), entity('inu_localize', [])];
const applied = [entity('systemuser', [email, notes]), entity('inu_localize', []), entity('account', [notes])];

describe('a schema change never takes away the system metadata the product needs', () => {
  it('keeping every required entity and field, adding, dropping and retyping the others, is allowed', () => {
    const target = [entity('systemuser', [email, { ...notes, type: 'Integer' }]), entity('INU_LOCALIZE', []), entity('lead', [])];
    expect(requiredMetadataRemoved(applied, target, required)).toEqual([]);
  });

  it('dropping a required entity or field, or retyping a required field, is named', () => {
    expect(requiredMetadataRemoved(applied, [entity('systemuser', [notes]), entity('account', [])], required)).toEqual([
      'field systemuser.emailaddress',
      'entity inu_localize',
    ]);
    expect(
      requiredMetadataRemoved(applied, [entity('systemuser', [{ ...email, type: 'Integer' }]), entity('inu_localize', [])], required),
    ).toEqual(['field systemuser.emailaddress (String to Integer)']);
  });

  it('only what the applied metadata holds is required: an organization without it may go on without it', () => {
    expect(requiredMetadataRemoved([entity('account', [notes])], [], required)).toEqual([]);
    expect(requiredMetadataRemoved([entity('systemuser', [])], [entity('systemuser', [])], required)).toEqual([]);
  });

  it('the system pack applied as it is removes nothing, and without it every system entity is named', () => {
    const system = systemPack().entities;
    expect(requiredMetadataRemoved(system, system, system)).toEqual([]);
    expect(requiredMetadataRemoved(system, [], system)).toEqual(system.map((e) => `entity ${e.logicalName}`));
  });
});
