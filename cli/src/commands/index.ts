import type { Command } from 'commander';

/** Each command module registers itself on the program; add new ones here. */
export type RegisterCommand = (program: Command) => void;

export const commands: RegisterCommand[] = [];
