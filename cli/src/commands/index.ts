import type { Command } from 'commander';
import { registerSchemaCommands } from './schema.js';
import { registerServe } from './serve.js';
import { registerOrg } from './org.js';
import { registerUser } from './user.js';
import { registerDemo } from './demo.js';
import { registerImport } from './import.js';
import { registerExport } from './export.js';

/** Each command module registers itself on the program; add new ones here. */
export type RegisterCommand = (program: Command) => void;

export const commands: RegisterCommand[] = [registerSchemaCommands, registerServe, registerOrg, registerUser, registerDemo, registerImport, registerExport];
