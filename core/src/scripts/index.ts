/** Scripts from the metadata (issue 16): the sandbox protocol, which script runs where, the change-event queue, failures. */
export * from './protocol.js';
export * from './script-names.js';
export * from './change-queue.js';
export * from './script-error.js';
