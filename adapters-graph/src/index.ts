/** @tessera/adapters-graph: the outbound services: identity providers, Microsoft Graph tokens, directions, mail, documents and files. */
export * from './oidc-identity-provider.js';
// Facebook's OAuth 2 login and the provider router (issue 18).
export * from './facebook-identity-provider.js';
export * from './identity-providers.js';
export * from './graph-token-source.js';
export * from './google-directions-service.js';
export * from './geocoding/index.js';
export * from './mail/index.js';
export * from './documents/index.js';
export * from './scripts/quickjs-script-sandbox.js';
// Files of File and Image fields on Azure block blobs (issue 18).
export * from './blobs/azure-blob-store.js';
export * from './graph/index.js';
