export * from './nominatim-geocoder.js';
export * from './in-memory-geocoder.js';
export * from './request-spacing.js';
