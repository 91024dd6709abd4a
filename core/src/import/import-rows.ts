import type { Entity, FieldValue, LookupValue, Property } from '../metadata/entity.js';
import { restoreNeutralized } from '../export/formula-neutralization.js';
import { bindColumn, ignoredColumnText, mapHeader, type ColumnBinding, type HeaderMap, type IgnoredColumn } from './header-map.js';

/**
 * What an adapter reads from a file, in order: CSV gives a header and rows of cells (parsed by
 * csv-parse, quoted cells already unescaped with `unescapeQuotedCell`); JSON gives objects.
 * `invalid` is a row that could not be read at all, `fatal` a file that cannot be read on.
 * `line` is the file's line on which the row starts (1-based, counting any `sep=` line).
 */
export type ImportFileEvent =
  | { type: 'header'; line: number; cells: readonly string[] }
  | { type: 'cells'; line: number; cells: readonly string[] }
  | { type: 'object'; line: number; value: Readonly<Record<string, unknown>> }
  | { type: 'invalid'; line: number; message: string }
  | { type: 'fatal'; message: string };

export type RowIssue = { line: number; column?: string; message: string };

/** A lookup given by name, waiting for its batch to be resolved. */
export type PendingLookup = { field: string; name: string; target: string };

/** A row after coercion: values by logical name, lookups still to resolve, its errors and notes. */
export type ImportRow = {
  line: number;
  values: Record<string, FieldValue>;
  pending: PendingLookup[];
  errors: RowIssue[];
  /** Values left empty and listed: unparseable dates, lookups not found. */
  notes: RowIssue[];
};

export const issueText = (i: RowIssue): string => `Line ${i.line}${i.column === undefined ? '' : `, ${i.column}`}: ${i.message}`;

/** Invalid UTF-8 decodes to U+FFFD: such a cell is an error of its line, never stored garbled. */
const REPLACEMENT = '\uFFFD';

type RowBuilder = {
  row: ImportRow;
  /** Made only for rows with a `...Target` cell. */
  targets?: Map<string, { property: Property; target: string }>;
};

const newRow = (line: number): RowBuilder => ({ row: { line, values: {}, pending: [], errors: [], notes: [] } });

const addCell = (b: RowBuilder, binding: ColumnBinding, raw: unknown, column: string): void => {
  const { row } = b;
  const p = binding.property;
  if (typeof raw === 'string' && raw.includes(REPLACEMENT)) {
    row.errors.push({ line: row.line, column, message: 'the cell is not valid UTF-8 (save the file as UTF-8)' });
    return;
  }
  if (binding.kind === 'label') return;
  if (binding.kind === 'target') {
    const t = typeof raw === 'string' ? raw.trim() : '';
    if (t !== '') (b.targets ??= new Map()).set(p.logicalName, { property: p, target: t });
    return;
  }
  const c = binding.coerce(raw);
  switch (c.tag) {
    case 'value':
      row.values[p.logicalName] = c.value;
      // Spec 002 section 5 cuts a text to the field's max length; the preview says so (issue 17).
      if (typeof raw === 'string' && typeof c.value === 'string' && p.type === 'String' && p.max !== undefined && c.value.length === p.max && raw.length > p.max) {
        row.notes.push({ line: row.line, column, message: `the text of ${raw.length} characters was cut to ${p.max}` });
      }
      return;
    case 'resolve': {
      const target = p.targets?.[0];
      if (target === undefined) row.errors.push({ line: row.line, column, message: 'the lookup has no target entity' });
      else row.pending.push({ field: p.logicalName, name: c.name, target });
      return;
    }
    case 'dropped':
      row.notes.push({ line: row.line, column, message: c.message });
      return;
    case 'error':
      row.errors.push({ line: row.line, column, message: c.message });
  }
};

/** A `...Target` column overrides the lookup's target entity, which must be one of its targets. */
const applyTargets = (b: RowBuilder): ImportRow => {
  const { row } = b;
  if (b.targets === undefined) return row;
  for (const [field, { property, target }] of b.targets) {
    const allowed = property.targets ?? [];
    if (!allowed.includes(target)) {
      row.errors.push({ line: row.line, column: `${field}Target`, message: `'${target}' is not a target of ${field} (${allowed.join(', ')})` });
      continue;
    }
    const v = row.values[field];
    if (v !== null && typeof v === 'object') row.values[field] = { ...(v as LookupValue), name: target };
    for (const p of row.pending) if (p.field === field) p.target = target;
  }
  return row;
};

export type RowReaderOptions = {
  /** Cells neutralized against formula injection by export ('=x written as '=x) are read back (default true). */
  restoreFormulas?: boolean;
};

/**
 * Turns the events of one file into coerced rows. It keeps only the header binding (CSV) or
 * the bindings of the keys seen so far (JSON) and the list of ignored columns: rows pass through.
 */
export class RowReader {
  private header: HeaderMap | undefined;
  private readonly keyBindings = new Map<string, ColumnBinding | IgnoredColumn>();
  private readonly ignored = new Map<string, IgnoredColumn>();
  private readonly restore: boolean;
  /** The file cannot be imported (no header, unreadable structure): nothing may be written. */
  fatal: string | undefined;
  /** Columns mapped to a property (CSV header), for checks such as "the match field is a column". */
  mappedFields = new Set<string>();

  constructor(
    readonly entity: Entity,
    options: RowReaderOptions = {},
  ) {
    this.restore = options.restoreFormulas ?? true;
  }

  /** Whether the file had a header row (CSV). */
  get hasHeader(): boolean {
    return this.header !== undefined;
  }

  /** The listed, ignored columns (spec: unknown columns are ignored and listed). */
  ignoredColumns(): string[] {
    return [...this.ignored.values()].map(ignoredColumnText);
  }

  /** The row of an event, or undefined for the header and for fatal events (recorded in `fatal`). */
  read(e: ImportFileEvent): ImportRow | undefined {
    switch (e.type) {
      case 'fatal':
        this.fatal ??= e.message;
        return undefined;
      case 'header': {
        this.header = mapHeader(this.entity, e.cells);
        for (const c of this.header.ignored) this.ignored.set(c.header, c);
        for (const b of this.header.bindings) if (b !== null && b.kind === 'value') this.mappedFields.add(b.property.logicalName);
        if (!this.header.bindings.some((b) => b !== null)) {
          this.fatal ??= `Line ${e.line}: no column of the header names a field of ${this.entity.logicalName}`;
        }
        return undefined;
      }
      case 'invalid':
        return { line: e.line, values: {}, pending: [], errors: [{ line: e.line, message: e.message }], notes: [] };
      case 'cells':
        return this.fromCells(e.line, e.cells);
      case 'object':
        return this.fromObject(e.line, e.value);
    }
  }

  private fromCells(line: number, cells: readonly string[]): ImportRow {
    const b = newRow(line);
    const bindings = this.header?.bindings ?? [];
    let extra = false;
    for (let i = bindings.length; i < cells.length && !extra; i++) extra = cells[i] !== '';
    if (cells.length < bindings.length || extra) {
      b.row.errors.push({ line, message: `the row has ${cells.length} cells, the header has ${bindings.length}` });
      return b.row;
    }
    for (let i = 0; i < bindings.length; i++) {
      const binding = bindings[i];
      if (binding === null) continue;
      const cell = cells[i];
      const raw = this.restore && cell.charCodeAt(0) === 39 ? restoreNeutralized(cell) : cell; // 39: a leading quote
      addCell(b, binding, raw, binding.property.logicalName);
    }
    return applyTargets(b);
  }

  private fromObject(line: number, value: Readonly<Record<string, unknown>>): ImportRow {
    const b = newRow(line);
    for (const key of Object.keys(value)) {
      let binding = this.keyBindings.get(key);
      if (binding === undefined) {
        binding = bindColumn(this.entity, key);
        this.keyBindings.set(key, binding);
        if ('reason' in binding) this.ignored.set(key, binding);
        else if (binding.kind === 'value') this.mappedFields.add(binding.property.logicalName);
      }
      if ('reason' in binding) continue;
      addCell(b, binding, value[key], binding.property.logicalName);
    }
    return applyTargets(b);
  }
}
