import type { CommandContext } from './command-context.js';

/**
 * One command's body: positional arguments and parsed options in, an exit code out
 * (`undefined` means 0). Errors are thrown and mapped to exit codes in one place.
 */
export type CommandHandler = (
  context: CommandContext,
  args: string[],
  options: Record<string, unknown>,
) => Promise<number | undefined>;
