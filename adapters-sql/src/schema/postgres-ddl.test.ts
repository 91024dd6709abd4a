import { describe, expect, it } from 'vitest';
import { diffSchema, emptySchema, type Schema } from '@tessera/core/internal';
import { compilePlan } from './ddl-dialect.js';
import { postgresDdl } from './postgres-ddl.js';
import { isPostgresSchemaName } from '../dialects/sql-dialect.js';
import { entity, prop, schema } from '../../../tests/src/fixtures/metadata-builders.js';

/**
 * The PostgreSQL DDL at the text level (issue 25), for machines without the server; the contract
 * suites in tests/src/contract run it on a real server (docs/postgres.md).
 */
const statementsOf = (from: Schema, to: Schema): string[] => {
  const c = compilePlan(postgresDdl, from, diffSchema(from, to));
  if (c._tag === 'Left') throw new Error(c.left);
  return c.right.flatMap((s) => [...s.statements]);
};

const thing = entity('thing', [
  prop('fmoney', 'Money'),
  prop('fdecimal', 'Decimal'),
  prop('ffloat', 'Float'),
  prop('fint', 'Integer'),
  prop('fbool', 'Boolean'),
  prop('fdate', 'DateTime'),
  prop('fcode', 'String', { max: 20 }),
  prop('ownerid', 'Lookup', { targets: ['systemuser'] }),
]);

describe('PostgreSQL DDL (issue 25: the schema generator for PostgreSQL)', () => {
  it('creates each column with the type of the issue, text in code-point order, the key as a uuid', () => {
    const [create] = statementsOf(emptySchema, schema([thing]));
    expect(create).toMatch(/^CREATE TABLE "thing" \(/);
    expect(create).toContain('"id" uuid NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY');
    for (const part of [
      '"fmoney" numeric(19,4)',
      '"fdecimal" numeric(23,10)',
      '"ffloat" double precision',
      '"fint" integer',
      '"fbool" boolean',
      '"fdate" timestamptz',
      '"fcode" varchar(20) COLLATE "C"',
      '"ownerid" uuid',
      '"owneridTarget" varchar(200) COLLATE "C"',
      '"versionnumber" bigint NOT NULL DEFAULT 0',
    ])
      expect(create).toContain(part);
  });

  it('indexes name on lower(name) (case-insensitive starts-with) and a full-text index with pg_trgm', () => {
    const all = statementsOf(emptySchema, schema([entity('account', [], { fullText: ['name'] })]));
    expect(all.some((s) => /CREATE INDEX "\w+" ON "account" \(lower\("name"\)\)/.test(s))).toBe(true);
    expect(all).toContain('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
    expect(all.some((s) => /USING gin \(lower\("name"\) public\.gin_trgm_ops\)/.test(s))).toBe(true);
  });

  it('cuts a shorter string in the ALTER itself and counts the rows at risk by characters', () => {
    const from = schema([entity('contact', [prop('email', 'String', { max: 100 })])]);
    const to = schema([entity('contact', [prop('email', 'String', { max: 10 })])]);
    expect(statementsOf(from, to)).toEqual(['ALTER TABLE "contact" ALTER COLUMN "email" TYPE varchar(10) COLLATE "C" USING left("email", 10)']);
    const plan = diffSchema(from, to);
    expect(postgresDdl.countAtRisk(plan[0])).toBe('SELECT COUNT(*) AS "n" FROM "contact" WHERE char_length("email") > 10');
  });

  it('takes only plain lower-case schema names for organizations', () => {
    expect(isPostgresSchemaName('org_acme')).toBe(true);
    for (const bad of ['Org', 'org-acme', 'org; drop', '', '1org']) expect(isPostgresSchemaName(bad)).toBe(false);
  });
});
