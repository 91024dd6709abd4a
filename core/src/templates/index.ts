/** Document generation (spec 002, issue 20): the text template language, report bodies and their layout, the use case. */
export * from './template-errors.js';
export * from './text-template.js';
export * from './report-template.js';
export * from './report-images.js';
export * from './generate-document.js';
export * from './demo-templates.js';
