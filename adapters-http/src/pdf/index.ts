export * from './pdf-fonts.js';
export * from './pdf-table-renderer.js';
export * from './pdf-export.js';
