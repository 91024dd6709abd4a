/**
 * @tessera/core: the public API of the embeddable core. Everything exported here is
 * documented in one line; anything not exported is internal.
 */
export * from './errors.js';
export * from './decode.js';
export * from './metadata/entity.js';
export * from './query/query.js';
export * from './permissions/types.js';
export * from './ports/index.js';
export * from './i18n/index.js';
