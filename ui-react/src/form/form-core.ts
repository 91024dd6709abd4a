/** The core rules the record form uses, in one place. */
export {
  allFormFields,
  canAccess,
  changedFields,
  checkPermissionString,
  checkRequired,
  cloneRecord,
  commandPermission,
  defaultFormOf,
  FormCodec,
  isEmptyValue,
  mergeOnConflict,
  metadataSet,
  modifierOf,
  requiredFieldsMessage,
  updatePayload,
} from '../core.js';
