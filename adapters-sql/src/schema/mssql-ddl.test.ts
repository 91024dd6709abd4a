import fc from 'fast-check';
import pkg from 'node-sql-parser';
import { describe, expect, it } from 'vitest';
import { diffSchema, emptySchema, findTable, type Schema, type Table } from '@tessera/core/internal';
import { metadataPairArb } from '../../../core/src/schema/metadata-arbitrary.test.js';
import { compilePlan } from './ddl-dialect.js';
import { mssqlDdl } from './mssql-ddl.js';
import { entity, prop, schema } from '../../../tests/src/fixtures/metadata-builders.js';

/**
 * SQL Server cannot run here: every statement it would run is parsed by node-sql-parser in its
 * TransactSQL mode. That parser does not know the type name `rowversion`; it knows `timestamp`,
 * which SQL Server documents as rowversion's synonym, so only that word is swapped before parsing.
 */
const parser = new pkg.Parser();
const parse = (statement: string) => parser.astify(statement.replace(/\browversion\b/g, 'timestamp'), { database: 'TransactSQL' });

const statementsOf = (from: Schema, to: Schema): string[] => {
  const c = compilePlan(mssqlDdl, from, diffSchema(from, to));
  if (c._tag === 'Left') throw new Error(c.left);
  return c.right.flatMap((s) => [...s.statements]);
};

type ColumnDefinition = {
  column?: { column: string };
  definition: { dataType: string; length?: number | string; scale?: number };
  nullable?: { type: string };
  default_val?: { value: { name: { name: Array<{ value: string }> } } };
  constraint_type?: string;
  constraint?: string;
};
const definitionsOf = (statement: string): ColumnDefinition[] => {
  const ast = parse(statement) as unknown as { type: string; create_definitions: ColumnDefinition[] };
  expect(ast.type).toBe('create');
  return ast.create_definitions;
};

const everyType = entity('thing', [
  prop('fdatetime', 'DateTime'),
  prop('fmoney', 'Money'),
  prop('fdecimal', 'Decimal'),
  prop('ffloat', 'Float'),
  prop('finteger', 'Integer'),
  prop('fboolean', 'Boolean'),
  prop('fguid', 'Guid'),
  prop('flookup', 'Lookup', { targets: ['systemuser'] }),
  prop('fshort', 'String', { max: 40 }),
  prop('flong', 'String'),
  prop('fbinary', 'Binary'),
]);

describe('SQL Server DDL (spec 000 section 3 column types), parsed as T-SQL by node-sql-parser', () => {
  it('creates each column with the type of the specification table, bracket-quoted', () => {
    const [create] = mssqlDdl.createTable(findTable(schema([everyType]), 'thing') as Table);
    expect(create).toContain('CREATE TABLE [thing] ([id] uniqueidentifier NOT NULL DEFAULT NEWSEQUENTIALID()');
    const types = Object.fromEntries(
      definitionsOf(create)
        .filter((d) => d.column)
        .map((d) => [d.column!.column, [d.definition.dataType, d.definition.length, d.definition.scale].filter((x) => x !== undefined).join(' ')]),
    );
    expect(types).toMatchObject({
      id: 'UNIQUEIDENTIFIER',
      name: 'NVARCHAR 200',
      fdatetime: 'DATETIMEOFFSET',
      fmoney: 'MONEY',
      fdecimal: 'DECIMAL 23 10',
      ffloat: 'FLOAT',
      finteger: 'INT',
      fboolean: 'BIT',
      fguid: 'UNIQUEIDENTIFIER',
      flookup: 'UNIQUEIDENTIFIER',
      flookupTarget: 'NVARCHAR 200',
      fshort: 'NVARCHAR 40',
      flong: 'NVARCHAR max',
      fbinary: 'VARBINARY max',
      versionnumber: 'TIMESTAMP', // rowversion, see above
    });
  });

  it('gives the primary key the default of a newly generated id and a named PRIMARY KEY constraint', () => {
    const [create] = mssqlDdl.createTable(findTable(schema([everyType]), 'thing') as Table);
    const defs = definitionsOf(create);
    const id = defs.find((d) => d.column?.column === 'id')!;
    expect(id.nullable?.type).toBe('not null');
    expect(id.default_val?.value.name.name[0].value).toBe('NEWSEQUENTIALID');
    expect(defs.find((d) => d.constraint_type === 'primary key')).toMatchObject({ constraint: 'PK_thing' });
  });

  it('makes every other column nullable except versionnumber (rowversion NOT NULL)', () => {
    const [create] = mssqlDdl.createTable(findTable(schema([everyType]), 'thing') as Table);
    const nullability = Object.fromEntries(definitionsOf(create).filter((d) => d.column).map((d) => [d.column!.column, d.nullable?.type]));
    expect(nullability.versionnumber).toBe('not null');
    expect(nullability.fmoney).toBe('null');
  });

  it('gives a link table the unique pair over its first two lookups', () => {
    const link = entity('accountcontact', [prop('accountid', 'Lookup'), prop('contactid', 'Lookup')], { type: 'many' });
    const statements = mssqlDdl.createTable(findTable(schema([link]), 'accountcontact') as Table);
    expect(statements).toContain('CREATE UNIQUE INDEX [UX_accountcontact_pair] ON [accountcontact] ([accountid], [contactid])');
    for (const s of statements) parse(s);
  });

  it('changes a string length with ALTER COLUMN, cutting longer values first when it shortens', () => {
    const a = schema([entity('a', [prop('title', 'String', { max: 100 })])]);
    const b = schema([entity('a', [prop('title', 'String', { max: 20 })])]);
    const statements = statementsOf(a, b);
    expect(statements).toEqual([
      'UPDATE [a] SET [title] = LEFT([title], 20) WHERE DATALENGTH([title]) > 40',
      'ALTER TABLE [a] ALTER COLUMN [title] nvarchar(20) NULL',
    ]);
    const alter = parse(statements[1]) as unknown as { expr: Array<{ action: string; definition: { length: number } }> };
    expect(alter.expr[0]).toMatchObject({ action: 'alter', definition: { length: 20 } });
    expect(statementsOf(b, schema([entity('a', [prop('title', 'String')])]))).toEqual(['ALTER TABLE [a] ALTER COLUMN [title] nvarchar(max) NULL']);
  });

  it('every statement of any plan between two generated metadata sets parses as T-SQL', () => {
    fc.assert(
      fc.property(metadataPairArb, ([a, b]) => {
        for (const statement of [...statementsOf(emptySchema, schema(a)), ...statementsOf(schema(a), schema(b))])
          expect(() => parse(statement), statement).not.toThrow();
      }),
      { numRuns: 60 },
    );
  });

  it('the data-loss counts and the metadata table parse as T-SQL', () => {
    const a = schema([entity('a', [prop('title', 'String', { max: 100 }), prop('score', 'Integer')]), entity('b', [])]);
    const b = schema([entity('a', [prop('title', 'String', { max: 20 })])]);
    const counts = diffSchema(a, b)
      .map((s) => mssqlDdl.countAtRisk(s))
      .filter((s): s is string => s !== null);
    expect(counts).toEqual([
      'SELECT COUNT(*) AS [n] FROM [a] WHERE [score] IS NOT NULL',
      'SELECT COUNT(*) AS [n] FROM [b]',
      'SELECT COUNT(*) AS [n] FROM [a] WHERE DATALENGTH([title]) > 40',
    ]);
    for (const s of [...counts, ...mssqlDdl.metadataTable()]) parse(s);
  });
});
