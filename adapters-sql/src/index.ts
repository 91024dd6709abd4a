/** @tessera/adapters-sql: the SQL adapters (embedded SQLite and SQL Server). */
// Data folder, SQLite connections and the schema generator (docs/schema.md).
export * from './data-dir.js';
export * from './sqlite/open-sqlite.js';
export * from './sqlite/org-database.js';
export * from './schema/ddl-dialect.js';
export * from './schema/sqlite-ddl.js';
export * from './schema/mssql-ddl.js';
export * from './schema/postgres-ddl.js';
export * from './schema/sqlite-schema-reader.js';
export * from './schema/kysely-schema-store.js';
export * from './schema/organization-database.js';
// The record store and query engine on Kysely (docs/sql-server.md).
export * from './dialects/sql-dialect.js';
export * from './records/sql-values.js';
export * from './records/sql-query.js';
export * from './records/sql-steps.js';
export * from './records/sql-runner.js';
export * from './records/kysely-record-store.js';
// Database work off the request thread: the SQLite worker pool of a data folder (issue 22).
export * from './workers/sqlite-worker-pool.js';
export * from './workers/worker-sqlite-runner.js';
// The catalog (organizations, sessions, links; versioned by Kysely's Migrator) and the per-organization databases.
export * from './catalog/catalog-database.js';
export * from './catalog/kysely-session-store.js';
export * from './catalog/kysely-attempt-ledger.js';
export * from './catalog/kysely-organization-directory.js';
export * from './tenants/organization-databases.js';
export * from './tenants/kysely-tenant-registry.js';
// Files of File and Image fields on disk, in the data folder (issue 18).
export * from './blobs/disk-blob-store.js';
