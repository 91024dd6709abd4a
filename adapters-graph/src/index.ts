export * from './oidc-identity-provider.js';
export * from './graph-token-source.js';
export * from './google-directions-service.js';
