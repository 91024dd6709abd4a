/** Microsoft Graph: the drive and calendar gateways, their requests (throttling, token expiry) and the per-user tokens. */
export * from './graph-requests.js';
export * from './graph-drive-gateway.js';
export * from './graph-calendar-gateway.js';
export * from './graph-user-tokens.js';
export * from './graph-config.js';
