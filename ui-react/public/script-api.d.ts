/**
 * Tessera script API (issue 16): what a metadata script sees. A script is the text of an inu_view
 * record of kind `script` (body `{ "source": "..." }`); its source is the body of an async
 * function, so `await` and `return` work at its top level. It runs in a dedicated Web Worker with
 * no access to the page, the session token, storage or the network: everything goes through the
 * functions below, which the page answers with the user's own session (the server's permission
 * checks apply). Time limit: 5 s of the script's own time (an open alert or confirm does not count).
 *
 * Served with the web client at /script-api.d.ts; the same names as the server's trigger scripts
 * (`context`, `fetch`, `update`, `executeMultiple`).
 *
 * Add to an editor: `/// <reference path="script-api.d.ts" />`.
 */

/** A field value as the API sends it: text, number, boolean, null, or a lookup `{ id, name, label }`. */
type TesseraValue = string | number | boolean | null | { id: string; name: string; label?: string } | unknown;
type TesseraRecord = { id?: string; versionnumber?: number; [field: string]: TesseraValue };

/** What started the script. */
type TesseraEvent = 'change' | 'validate' | 'postsave' | 'command' | 'customFetch' | 'extraFetch' | 'loader' | 'wizardNext';

interface TesseraScriptRecord {
  /** A field's value (the form's current values, including edits not saved yet). */
  get(field: string): TesseraValue;
  /** Sets a field: a form event's or a form command's sets go into the form (and are saved with it). */
  set(field: string, value: TesseraValue): void;
  /** A copy of all the values. */
  values(): TesseraRecord;
  /** change: the fields edited since the previous change run; validate and postsave: the fields changed since load. */
  readonly changed: readonly string[];
}

interface TesseraScriptContext {
  readonly event: TesseraEvent;
  /** the entity's logical name, e.g. 'opportunity' */
  readonly entity: string;
  /** the script's own name, e.g. 'opportunity.change' */
  readonly script: string;
  readonly record: TesseraScriptRecord;
  /** a list command: the selected records (the list's columns plus id); a form command: the form's record */
  readonly selected: readonly TesseraRecord[];
  /** a command: `{ option }` when the command has one; a wizard step: `{ step }` */
  readonly params: Readonly<Record<string, unknown>>;
}

/** The query object of /api/fetch (docs/api.md). */
interface TesseraQuery {
  entity: { name: string; attributes?: { attribute: string }[]; allattrs?: boolean; filter?: unknown; links?: unknown[]; orders?: unknown[] };
  page?: number;
  pageSize?: number;
  count?: boolean;
}
interface TesseraFetchResult {
  records: TesseraRecord[];
  count: number | null;
  page: number;
  pageSize: number;
  moreRecords: boolean;
}
interface TesseraWrite {
  operation: 'create' | 'update' | 'delete';
  name: string;
  object: TesseraRecord;
}

declare const context: TesseraScriptContext;
/** Reads records as the user (POST /api/fetch). Rejects with the server's error text. */
declare function fetch(query: TesseraQuery): Promise<TesseraFetchResult>;
/** One write as the user (POST /api/update); answers the record's id. */
declare function update(item: TesseraWrite): Promise<{ id: string }>;
/** Several writes as the user, all or nothing (POST /api/executemultiple). */
declare function executeMultiple(items: TesseraWrite[]): Promise<Array<{ id: string } | { error: string }>>;
declare function alert(text: string): Promise<void>;
declare function confirm(text: string): Promise<boolean>;
declare function toast(text: string, kind?: 'success' | 'info' | 'error'): Promise<void>;
/** Moves to a route of the application, e.g. '/!/list/opportunity' (never another site). */
declare function navigate(path: string): Promise<void>;
/** validate: stops the save; the user sees the message. Elsewhere: the run answers Vetoed with it. */
declare function veto(message: string): void;
