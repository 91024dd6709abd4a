export { runCli, buildProgram, CliFailure, EXIT } from './program.js';
