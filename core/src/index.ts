/**
 * @tessera/core: the public API of the embeddable core. Everything exported here is
 * documented in one line; anything not exported is internal.
 */
export * from './errors.js';
export * from './decode.js';
export * from './metadata/entity.js';
export * from './query/query.js';
export * from './permissions/types.js';
export * from './permissions/mask.js';
export * from './permissions/roles.js';
export * from './permissions/access.js';
export * from './permissions/permission-string.js';
export * from './records/values.js';
export * from './records/change-set.js';
export * from './records/merge.js';
export * from './ports/index.js';
export * from './i18n/index.js';
export * from './auth/sign-in-rules.js';
export * from './auth/failure-limiter.js';
export * from './auth/constant-time.js';
export * from './services/sign-in.js';
