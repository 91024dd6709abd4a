/** Offline mode of the desktop app (issue 21, docs/offline.md): queue, sync, pull, local password, store port. */
export * from './queue.js';
export * from './sync.js';
export * from './pull.js';
export * from './local-password.js';
export * from './offline-gate.js';
export * from './offline-store.js';
