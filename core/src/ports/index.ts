export * from './clock.js';
export * from './id-generator.js';
export * from './tokens.js';
export * from './record-store.js';
export * from './change-feed.js';
