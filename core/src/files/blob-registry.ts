import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, permissionDenied, type DomainError } from '../errors.js';
import { hasFlag, primaryKeyOf, type Entity, type EntityRecord } from '../metadata/entity.js';
import type { Caller } from '../permissions/types.js';
import { isSystemCaller, systemCaller } from '../ports/record-store.js';
import { recordToCreate } from '../store/record-rules.js';
import { selectRows, type Steps, type WriteContext, type WriteRule, type WrittenRecord } from '../store/record-writes.js';
import { isBlobName } from './blob-names.js';

/**
 * The blob registry (issue 18): which records reference which blob, so a download can ask "may
 * this user read a record that references it?". One system entity, inu_blob, holds two kinds of row:
 * - the upload: name, filename, contenttype, size, uploadedby, no objectname (written by POST /api/blob);
 *   until a record references it, only its uploader may download it (the form's preview before save);
 * - a reference: name, objectname, objectid, field, written by this rule in the same transaction
 *   as the record write that sets the field (and removed by the write that clears or changes it,
 *   or deletes the record), so the registry never disagrees with the records.
 * A field may only reference a blob uploaded to this organization: a made-up or foreign name is
 * refused, so no record is saved with a reference to a blob that was not stored.
 */
export const BLOB_ENTITY = 'inu_blob';

/** The File and Image fields of an entity (those that hold blob names). */
export const blobFields = (entity: Entity): string[] =>
  entity.properties.filter((p) => hasFlag(p, 'Image') || hasFlag(p, 'File')).map((p) => p.logicalName);

/** The row of an upload, to create as the system (the registry belongs to no user). */
export const blobUploadRow = (upload: { name: string; fileName: string; contentType: string; size: number; uploadedBy: string }): EntityRecord => ({
  name: upload.name,
  uploadedby: upload.uploadedBy,
  filename: upload.fileName.slice(0, 400),
  contenttype: upload.contentType,
  size: upload.size,
});

/** A reference row's where-clause: the blob, the record and its field. */
const referenceOf = (name: string, written: WrittenRecord, field: string) => ({ name, objectname: written.entity.logicalName, objectid: written.id, field });

function* updateReferences(ctx: WriteContext, written: WrittenRecord, registry: Entity): Steps<Either<DomainError, null>> {
  const pk = primaryKeyOf(registry);
  for (const field of blobFields(written.entity)) {
    const was = written.before?.[field] ?? null;
    const now = written.after?.[field] ?? null;
    if (was === now) continue;
    if (isBlobName(was)) {
      for (const row of yield* selectRows(registry, referenceOf(was, written, field))) yield { kind: 'delete', entity: registry, id: String(row[pk]), version: undefined };
    }
    if (isBlobName(now)) {
      const uploads = yield* selectRows(registry, { name: now, objectname: null }, { limit: 1 });
      if (uploads.length === 0) return left(inputError(`Invalid value for ${written.entity.logicalName}.${field}: ${now}: no file of that name was uploaded`));
      const row = recordToCreate(registry, referenceOf(now, written, field), systemCaller(), ctx.now(), ctx.newId);
      if (isLeft(row)) return row;
      yield { kind: 'insert', entity: registry, record: row.right };
    }
  }
  return right(null);
}

/** The write rule of the registry: keeps reference rows with the records, and the registry the server's. */
export const blobRegistryRule: WriteRule = {
  name: 'blob registry',
  *afterWrite(ctx, caller: Caller, written) {
    const registry = ctx.lookup(BLOB_ENTITY);
    if (!registry) return right(null);
    if (written.entity.logicalName === BLOB_ENTITY) {
      // A row written by a user could grant reads of any blob: only the server writes the registry.
      return isSystemCaller(caller) ? right(null) : left(permissionDenied(`No ${written.operation} permission on ${BLOB_ENTITY}: the file registry is written by the server`));
    }
    if (blobFields(written.entity).length === 0) return right(null);
    return yield* updateReferences(ctx, written, registry);
  },
};

/** The references of a blob as stored rows (entity, record id, field), for the download's read check. */
export type BlobReference = { objectname: string; objectid: string; field: string };
export const referencesOf = (rows: ReadonlyArray<Record<string, unknown>>): BlobReference[] =>
  rows
    .filter((r) => typeof r.objectname === 'string' && r.objectname !== '' && typeof r.objectid === 'string')
    .map((r) => ({ objectname: String(r.objectname), objectid: String(r.objectid), field: String(r.field ?? '') }));
