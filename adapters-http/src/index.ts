/**
 * @tessera/adapters-http: the /api contract on Express (translation only): the app, its routes,
 * the session guard, HTTP error mapping, the request log, the caller cache, the token header and
 * the sealed cookies of sign-up and provider sign-in. Stores, mail and files come in as ports.
 */
export * from './app.js';
export * from './http-errors.js';
export * from './caller-cache.js';
export * from './session-guard.js';
export * from './auth/scrypt-password-hasher.js';
export * from './auth/puzzle-seal.js';
export * from './auth/token-header.js';
export * from './routes/organization-routes.js';
export * from './routes/survey-routes.js';
export * from './routes/data-routes.js';
export * from './routes/import-export-routes.js';
export * from './routes/provider-routes.js';
export * from './routes/provider-flow.js';
export * from './routes/graph-routes.js';
export * from './routes/geocode-routes.js';
export * from './routes/graph-directions-request.js';
export * from './routes/blob-routes.js';
export * from './routes/drive-routes.js';
