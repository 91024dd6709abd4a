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
export * from './records/required.js';
export * from './records/clone.js';
export * from './records/duration.js';
export * from './records/tags.js';
export * from './records/multi-select.js';
export * from './records/age.js';
export * from './records/relative-time.js';
export * from './records/options.js';
export * from './records/file-size.js';
export * from './records/error-log.js';
export * from './ports/index.js';
export * from './i18n/index.js';
export * from './auth/sign-in-rules.js';
export * from './auth/failure-limiter.js';
export * from './auth/constant-time.js';
export * from './services/sign-in.js';
/** Schema model of metadata, its diff into a migration plan, and the migrate use case (docs/schema.md). */
export * from './schema/index.js';
export * from './services/caller.js';
export * from './metadata/rich-options.js';
export * from './metadata/form.js';
export * from './metadata/view.js';
export * from './metadata/inu-view.js';
export * from './metadata/role.js';
export * from './metadata/currency.js';
export * from './metadata/user-context.js';
export * from './metadata/system-fields.js';
export * from './metadata/metadata-set.js';
export * from './metadata/default-form.js';
export * from './metadata/pack.js';
export * from './packs/packs.js';
export * from './services/user-context.js';
export * from './services/app-error-log.js';
export * from './query/plan.js';
export * from './query/validate-query.js';
export * from './query/evaluate-like.js';
export * from './query/evaluate-query.js';
export * from './store/audit.js';
export * from './store/record-rules.js';
export * from './store/record-writes.js';
export * from './store/record-reads.js';
export * from './store/in-memory-record-store.js';
