import { describe, expect, it } from 'vitest';
import type { Entity, Property, PropertyType } from '../metadata/entity.js';
import { schemaOfMetadata } from './migrate.js';
import { findColumn, findTable, schemaOf, type Schema, type Table } from './schema-model.js';

const entity = (logicalName: string, properties: Property[], extra: Partial<Entity> = {}): Entity => ({
  logicalName,
  displayName: logicalName,
  displayNamePlural: logicalName,
  properties,
  ...extra,
});
const prop = (logicalName: string, type: PropertyType, extra: Partial<Property> = {}): Property => ({
  logicalName,
  displayName: logicalName,
  type,
  ...extra,
});
const right = (s: ReturnType<typeof schemaOf>): Schema => {
  if (s._tag === 'Left') throw new Error(s.left.message);
  return s.right;
};
const table = (s: Schema, name: string): Table => findTable(s, name) as Table;
const error = (s: ReturnType<typeof schemaOf>): string => (s._tag === 'Left' ? s.left.message : 'no error');

describe('the schema model (spec 000 section 3, schema generator)', () => {
  it('maps each property type to the column kind of the specification table', () => {
    const types: PropertyType[] = ['DateTime', 'Money', 'Decimal', 'Float', 'Integer', 'Boolean', 'Guid', 'Lookup', 'String', 'Binary'];
    const t = table(right(schemaOf([entity('thing', types.map((ty) => prop(`f${ty.toLowerCase()}`, ty)))])), 'thing');
    expect(t.columns.map((c) => [c.name, c.kind])).toEqual([
      ['id', 'guid'],
      ['fdatetime', 'datetime'],
      ['fmoney', 'money'],
      ['fdecimal', 'decimal'],
      ['ffloat', 'float'],
      ['finteger', 'integer'],
      ['fboolean', 'boolean'],
      ['fguid', 'guid'],
      ['flookup', 'guid'],
      ['flookupTarget', 'string'],
      ['fstring', 'string'],
      ['fbinary', 'binary'],
    ]);
  });

  it('gives a lookup the companion column {field}Target of 200 characters', () => {
    const t = table(right(schemaOf([entity('contact', [prop('parentcustomerid', 'Lookup', { targets: ['account'] })])])), 'contact');
    expect(findColumn(t, 'parentcustomeridTarget')).toEqual({ name: 'parentcustomeridTarget', kind: 'string', max: 200, nullable: true });
  });

  it('makes a String nvarchar(n) when max is set and unbounded otherwise; max above 4000 is unbounded', () => {
    const t = table(
      right(schemaOf([entity('note', [prop('short', 'String', { max: 40 }), prop('body', 'String'), prop('huge', 'String', { max: 10000 })])])),
      'note',
    );
    expect([findColumn(t, 'short')?.max, findColumn(t, 'body')?.max, findColumn(t, 'huge')?.max]).toEqual([40, null, null]);
  });

  it('gives every table the primary key (primaryKeyName, else id): a Guid that is not null', () => {
    const s = right(schemaOf([entity('a', []), entity('b', [], { primaryKeyName: 'bid' })]));
    expect(table(s, 'a').primaryKey).toBe('id');
    expect(table(s, 'b').primaryKey).toBe('bid');
    expect(table(s, 'b').columns[0]).toEqual({ name: 'bid', kind: 'guid', max: null, nullable: false });
  });

  it('adds the system fields: name (max 200), audit lookups with their Target, status and versionnumber', () => {
    const t = table(right(schemaOfMetadata([entity('account', [prop('revenue', 'Money')])])), 'account');
    expect(t.columns.map((c) => c.name)).toEqual([
      'id',
      'name',
      'revenue',
      'createdon',
      'createdby',
      'createdbyTarget',
      'modifiedon',
      'modifiedby',
      'modifiedbyTarget',
      'statuscode',
      'statecode',
      'versionnumber',
    ]);
    expect(findColumn(t, 'name')?.max).toBe(200);
    expect(findColumn(t, 'versionnumber')).toEqual({ name: 'versionnumber', kind: 'versionnumber', max: null, nullable: false });
  });

  it('indexes ownerid, teamid, every lookup column, createdon and name', () => {
    const t = table(
      right(
        schemaOfMetadata([
          entity('account', [
            prop('ownerid', 'Lookup', { targets: ['systemuser'] }),
            prop('teamid', 'Lookup', { targets: ['team'] }),
            prop('primarycontactid', 'Lookup', { targets: ['contact'] }),
            prop('revenue', 'Money'),
          ]),
        ]),
      ),
      'account',
    );
    expect(t.indexes.map((i) => i.columns.join(','))).toEqual([
      'name',
      'ownerid',
      'teamid',
      'primarycontactid',
      'createdon',
      'createdby',
      'modifiedby',
    ]);
    expect(t.indexes.every((i) => !i.unique && i.name === `IX_account_${i.columns[0]}`)).toBe(true);
  });

  it('does not index strings longer than 850 characters nor binary columns', () => {
    const t = table(right(schemaOf([entity('x', [prop('ownerid', 'String', { max: 900 }), prop('teamid', 'Binary')])])), 'x');
    expect(t.indexes).toEqual([]);
  });

  it('gives a link entity (type many) a unique pair over its first two lookups', () => {
    const s = right(
      schemaOfMetadata([
        entity(
          'accountcontact',
          [
            prop('accountid', 'Lookup', { targets: ['account'] }),
            prop('contactid', 'Lookup', { targets: ['contact'] }),
            prop('roleid', 'Lookup', { targets: ['role'] }),
          ],
          { type: 'many' },
        ),
      ]),
    );
    expect(table(s, 'accountcontact').indexes).toEqual([
      { name: 'UX_accountcontact_pair', columns: ['accountid', 'contactid'], unique: true },
      { name: 'IX_accountcontact_contactid', columns: ['contactid'], unique: false },
      { name: 'IX_accountcontact_roleid', columns: ['roleid'], unique: false },
    ]);
  });

  it('refuses a link entity with fewer than two lookups', () => {
    expect(error(schemaOf([entity('l', [prop('a', 'Lookup')], { type: 'many' })]))).toBe(
      'Invalid metadata: entity l: a link entity (type many) needs two lookups, it has 1',
    );
  });

  it('refuses names that cannot be identifiers, naming the entity and property', () => {
    expect(error(schemaOf([entity('bad name', [])]))).toMatch(/^Invalid metadata: entity bad name: "bad name" is not a valid name/);
    expect(error(schemaOf([entity('a', [prop('x]; DROP TABLE a', 'String')])]))).toMatch(
      /^Invalid metadata: entity a: property x\]; DROP TABLE a: ".*" is not a valid name/,
    );
    expect(error(schemaOf([entity('a', [prop('x'.repeat(61), 'String')])]))).toMatch(/is longer than 60 characters/);
  });

  it('refuses the reserved table prefixes tessera_ and sqlite_', () => {
    expect(error(schemaOf([entity('tessera_metadata', [])]))).toMatch(/reserved/);
    expect(error(schemaOf([entity('SQLite_x', [])]))).toMatch(/reserved/);
  });

  it('refuses two columns whose names differ only in case, or clash with a lookup companion', () => {
    expect(error(schemaOf([entity('a', [prop('Title', 'String'), prop('title', 'String')])]))).toMatch(/clashes/);
    expect(error(schemaOf([entity('a', [prop('owner', 'Lookup'), prop('ownerTarget', 'String')])]))).toBe(
      'Invalid metadata: entity a: column ownerTarget of property ownerTarget clashes with the lookup owner',
    );
  });

  it('refuses the same entity twice (names compare without case)', () => {
    expect(error(schemaOf([entity('Account', []), entity('account', [])]))).toBe('Invalid metadata: entity account is defined twice');
  });

  it('refuses a second VersionNumber column and a primary key that is not a Guid', () => {
    expect(error(schemaOf([entity('a', [prop('v1', 'VersionNumber'), prop('v2', 'VersionNumber')])]))).toMatch(/at most one VersionNumber/);
    expect(error(schemaOf([entity('a', [prop('id', 'Integer')])]))).toMatch(/primary key must be of type Guid/);
  });

  it('refuses a String max that is not a whole number from 1', () => {
    expect(error(schemaOf([entity('a', [prop('s', 'String', { max: 0 })])]))).toMatch(/max must be a whole number from 1/);
  });

  it('refuses an index name that is already the name of a table', () => {
    expect(error(schemaOf([entity('a', [prop('b', 'Lookup')]), entity('IX_a_b', [])]))).toMatch(/index IX_a_b clashes with table IX_a_b/);
  });
});
