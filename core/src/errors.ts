/**
 * Expected failures are values (ARCHITECTURE.md). Each carries the specification's text;
 * the edge maps `code` to a status (API.md) or an exit code.
 */
export type ErrorCode = 'ERR_INPUT' | 'ERR_PERMISSION' | 'ERR_NOT_FOUND' | 'ERR_8001' | 'ERR_TOO_LARGE' | 'ERR_TIMEOUT' | 'ERR_SERVER';

export type InputError = { _tag: 'InputError'; code: 'ERR_INPUT'; message: string };
export type PermissionDenied = { _tag: 'PermissionDenied'; code: 'ERR_PERMISSION'; message: string };
export type NotFound = { _tag: 'NotFound'; code: 'ERR_NOT_FOUND'; message: string };
/** A stale versionnumber; `modifier` is the label of the server record's modifiedby, when known. */
export type VersionConflict = { _tag: 'VersionConflict'; code: 'ERR_8001'; message: string; modifier?: string };

export type DomainError = InputError | PermissionDenied | NotFound | VersionConflict;

export const inputError = (message: string): InputError => ({ _tag: 'InputError', code: 'ERR_INPUT', message });
export const permissionDenied = (message: string): PermissionDenied => ({
  _tag: 'PermissionDenied',
  code: 'ERR_PERMISSION',
  message,
});
export const notFound = (message: string): NotFound => ({ _tag: 'NotFound', code: 'ERR_NOT_FOUND', message });
export const versionConflict = (message: string, modifier?: string): VersionConflict => ({
  _tag: 'VersionConflict',
  code: 'ERR_8001',
  message,
  ...(modifier === undefined ? {} : { modifier }),
});

/** Spec 000 section 8: 'No Object:{name}'. */
export const noObject = (name: string): InputError => inputError(`No Object:${name}`);
/** Spec 001 section 8: 'Field not found:{entity}.{field}'. */
export const fieldNotFound = (entity: string, field: string): InputError =>
  inputError(`Field not found:${entity}.${field}`);

/** The wire text of an error: a code, a colon, a message (API.md). */
export const errorText = (e: DomainError): string => `${e.code}: ${e.message}`;
