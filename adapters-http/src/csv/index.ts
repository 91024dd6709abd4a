export * from './import-file-reader.js';
export * from './export-stream.js';
export * from './export-file.js';
export * from './file-row-spool.js';
