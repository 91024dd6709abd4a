/** The wire contract of docs/api.md: request and answer codecs per call, and the one route table. */
export * from './contract.js';
export * from './guid.js';
export * from './text-fields.js';
export * from './records.js';
export * from './sign-in.js';
export * from './sessions.js';
export * from './surveys.js';
export * from './cloud.js';
export * from './geocode.js';
export * from './files.js';
export * from './whats-next.js';
export * from './metadata-editor.js';
export * from './routes.js';
export * from './documents.js';
export * from './blobs.js';
export * from './provider-settings.js';
export * from './drive.js';
