import type { Command } from 'commander';
import { registerSchemaCommands } from './schema.js';

/** Each command module registers itself on the program; add new ones here. */
export type RegisterCommand = (program: Command) => void;

export const commands: RegisterCommand[] = [registerSchemaCommands];
