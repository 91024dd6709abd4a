export * from './schema-model.js';
export * from './migration-plan.js';
export * from './migrate.js';
export * from './view-indexes.js';
export * from './plan-text.js';
