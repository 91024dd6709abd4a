export { runCli, buildProgram, CliFailure, EXIT } from './program.js';
export * from './container.js';
export * from './container-server.js';
export * from './di.js';
export * from './limits-config.js';
