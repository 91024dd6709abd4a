export * from './clock.js';
export * from './id-generator.js';
export * from './tokens.js';
