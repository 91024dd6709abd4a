import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { mssqlCompiler, mssqlDialect, parseMssqlConnectionString, recordDatabaseConfig, tediousConfig } from './sql-dialect.js';

describe('the SQL dialect is chosen by configuration (docs/sql-server.md)', () => {
  it('uses SQLite files in the data folder unless TESSERA_MSSQL names a SQL Server', () => {
    expect(recordDatabaseConfig({}, '/data')).toEqual({ kind: 'sqlite', dataDir: '/data' });
    expect(recordDatabaseConfig({ TESSERA_MSSQL: 'Server=db' }, '/data')).toEqual({ kind: 'mssql', connectionString: 'Server=db' });
  });

  it('reads an ADO.NET connection string with its usual key spellings', () => {
    expect(
      parseMssqlConnectionString('Data Source=tcp:sql.example.com,1444;Initial Catalog=crm;UID=app;PWD=p=w;Encrypt=false;TrustServerCertificate=yes;Max Pool Size=4'),
    ).toEqual({ server: 'sql.example.com', port: 1444, database: 'crm', user: 'app', password: 'p=w', encrypt: false, trustServerCertificate: true, poolMax: 4 });
    expect(parseMssqlConnectionString('server=db')).toEqual({ server: 'db', database: 'master' });
  });

  it('connects with TLS by default and SQL authentication when a user is given', () => {
    const c = tediousConfig({ server: 'db', database: 'crm', user: 'u', password: 'p' });
    expect(c.options).toMatchObject({ database: 'crm', port: 1433, encrypt: true, trustServerCertificate: false });
    expect(c.authentication).toEqual({ type: 'default', options: { userName: 'u', password: 'p' } });
  });

  it('builds a SQL Server dialect without connecting, and a compiler that never runs a query', async () => {
    const d = mssqlDialect({ server: 'nowhere.invalid', database: 'crm' });
    expect(d.kind).toBe('mssql');
    await d.db.destroy();
    const c = mssqlCompiler();
    expect(c.db.selectFrom('account').select('name').top(5).compile().sql).toBe('select top(5) "name" from "account"');
    await expect(sql`select 1`.execute(c.db)).rejects.toThrow('compiles SQL only');
  });
});
