/**
 * Which drive folder belongs to a record (spec 001 "Cloud file browser": the CloudFiles panel's
 * rootFolder and folderField), and who may use it: listing needs read on the record, changes need
 * update (docs/cloud-files.md). The panel is looked up in the entity's stored forms by name, so a
 * caller cannot point the drive at a folder no form configures.
 */
import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, noObject, notFound, permissionDenied, type DomainError } from '../errors.js';
import type { Entity } from '../metadata/entity.js';
import { allPanels, Form, type Panel } from '../metadata/form.js';
import { canAccess } from '../permissions/access.js';
import type { Caller } from '../permissions/types.js';
import { systemCaller, type RecordStore } from '../ports/record-store.js';
import type { EntityRecord } from '../metadata/entity.js';

/** Spec 001 section 8: the empty state of a record without a folder. */
export const NO_ONEDRIVE_FOLDER = 'No OneDrive folder for this record.';

/** Names OneDrive refuses (https://support.microsoft.com "Restrictions and limitations in OneDrive"): these characters, and names of dots. */
// eslint-disable-next-line no-control-regex -- control characters are what OneDrive refuses
const FORBIDDEN_CHARACTERS = /["*:<>?/\\|#%\u0000-\u001f]/g;
export const MAX_NAME_LENGTH = 255;
export const MAX_SUBFOLDER_DEPTH = 20;

/** A record's value turned into one folder name: forbidden characters become '_', surrounding spaces and trailing dots go. */
export const folderNameOf = (value: string): string =>
  value.replace(FORBIDDEN_CHARACTERS, '_').trim().replace(/[.\s]+$/, '').slice(0, MAX_NAME_LENGTH);

/** A name a user typed (a new folder, a rename, an upload): refused, not rewritten, when OneDrive would refuse it. */
export const checkItemName = (name: string): Either<string, string> => {
  const n = name.trim();
  if (n === '' || n === '.' || n === '..') return left('Invalid name: empty');
  if (n.length > MAX_NAME_LENGTH) return left(`Invalid name: longer than ${MAX_NAME_LENGTH} characters`);
  if (new RegExp(FORBIDDEN_CHARACTERS.source).test(n)) return left('Invalid name: it may not contain " * : < > ? / \\ | # %');
  if (/[.]$/.test(n)) return left('Invalid name: it may not end with a dot');
  return right(n);
};

/** The rootFolder setting split into folder names ('Accounts' or 'Clients/Accounts'). */
export const rootSegments = (rootFolder: string | undefined): string[] =>
  (rootFolder ?? '').split('/').map(folderNameOf).filter((s) => s !== '');

/** The text a record's folderField holds: a string, a number, a lookup's label or name. */
const folderValue = (record: EntityRecord, field: string | undefined): string => {
  const v = field ? (record as Record<string, unknown>)[field] : (record.name ?? record.id);
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (v && typeof v === 'object') {
    const o = v as { label?: unknown; name?: unknown };
    if (typeof o.label === 'string') return o.label;
    if (typeof o.name === 'string') return o.name;
  }
  return '';
};

export type DriveTarget = { entity: string; id: string; panel: string; path?: readonly string[] };

/** The record's folder and the panel that names it. `folder` is null when the record has no value for the folderField. */
export type DriveFolder = { panel: Panel; record: EntityRecord; root: string[]; folder: string[] | null };

const VIEW_ENTITY = 'inu_view';

/** The entity's CloudFiles panel of that name, from its stored forms (configuration: read as the system, like the forms the client is given). */
export const findCloudFilesPanel = async (store: Pick<RecordStore, 'retrieveMultiple'>, entity: string, panelName: string): Promise<Either<DomainError, Panel>> => {
  const forms = await store.retrieveMultiple(systemCaller(), {
    entity: {
      name: VIEW_ENTITY,
      attributes: [{ attribute: 'body' }],
      filter: { conditions: [{ attribute: 'kind', operator: 'eq', value: 'form' }, { attribute: 'objectname', operator: 'eq', value: entity }] },
    },
    pageSize: 200,
  });
  if (isLeft(forms)) return forms;
  for (const row of forms.right.records as EntityRecord[]) {
    let body: unknown;
    try {
      body = typeof row.body === 'string' ? JSON.parse(row.body) : row.body;
    } catch {
      continue;
    }
    const form = Form.decode(body);
    if (isLeft(form)) continue;
    const panel = allPanels(form.right.panels).find((p) => p.type === 'CloudFiles' && p.name === panelName);
    if (panel) return right(panel);
  }
  return left(inputError(`No CloudFiles panel ${panelName} on a form of ${entity}`));
};

/**
 * The folder of a record for the CloudFiles panel: the record read as the caller (one the caller
 * may not read is ERR_NOT_FOUND), update permission for changes, the panel from the entity's
 * forms, then rootFolder / the record's folderField value / the sub-folders the user opened.
 */
export const resolveDriveFolder = async (
  deps: { store: Pick<RecordStore, 'retrieveById' | 'retrieveMultiple'>; entities: readonly Entity[] },
  caller: Caller,
  target: DriveTarget,
  operation: 'read' | 'update',
): Promise<Either<DomainError, DriveFolder>> => {
  if (!deps.entities.some((e) => e.logicalName === target.entity)) return left(noObject(target.entity));
  const record = await deps.store.retrieveById(caller, target.entity, target.id);
  if (isLeft(record)) return record;
  if (operation === 'update' && !canAccess(caller, 'update', target.entity, record.right))
    return left(permissionDenied(`No update permission on ${target.entity}`));
  const panel = await findCloudFilesPanel(deps.store, target.entity, target.panel);
  if (isLeft(panel)) return panel;
  const sub: string[] = [];
  for (const s of target.path ?? []) {
    const n = checkItemName(s);
    if (isLeft(n)) return left(inputError(`Invalid path: ${n.left}`));
    sub.push(n.right);
  }
  if (sub.length > MAX_SUBFOLDER_DEPTH) return left(inputError(`Invalid path: deeper than ${MAX_SUBFOLDER_DEPTH} folders`));
  const root = rootSegments(panel.right.rootFolder);
  const own = folderNameOf(folderValue(record.right, panel.right.folderField));
  return right({ panel: panel.right, record: record.right, root, folder: own === '' ? null : [...root, own, ...sub] });
};

/** The folder the panel shows, or the spec's empty-state text when the record names none. */
export const requireFolder = (f: DriveFolder): Either<DomainError, string[]> =>
  f.folder ? right(f.folder) : left(notFound(f.panel.emptyMessage ?? NO_ONEDRIVE_FOLDER));
