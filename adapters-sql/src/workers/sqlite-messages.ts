import type { SqlResult } from '../records/sql-steps.js';
import type { Row } from '../records/sql-values.js';

/**
 * The messages between the main thread and a SQLite worker (sqlite-worker.ts). SQL is compiled on
 * the main thread; a worker only prepares and runs text with parameters, on its own connections.
 */
export type CompiledStatement = { readonly sql: string; readonly params: readonly unknown[] };

export type WorkerRequest =
  /** statements read in one snapshot on the worker's read connection of `file` */
  | { id: number; op: 'read'; file: string; statements: CompiledStatement[] }
  /** a statement of transaction `tx`; `begin` opens it (BEGIN IMMEDIATE) on the write connection of `file` */
  | { id: number; op: 'exec'; tx: number; file: string; begin: boolean; statement: CompiledStatement }
  /** ends transaction `tx`: COMMIT or ROLLBACK */
  | { id: number; op: 'end'; tx: number; commit: boolean }
  /** closes the connections of `file` (an organization closed by the host) */
  | { id: number; op: 'forget'; file: string };

export type WorkerReply =
  | { id: number; ok: true; rows?: Row[][]; result?: SqlResult }
  | { id: number; ok: false; message: string; code?: string };
