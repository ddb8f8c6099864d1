import type { Command } from 'commander';

const HELP_FLAGS = new Set(['-h', '--help']);

/** The deepest command the leading words of `words` name, and the word after it. */
function resolveCommandPath(
  program: Command,
  words: readonly string[],
): { command: Command; path: string[]; next: string | undefined } {
  let command = program;
  const path: string[] = [];
  for (const word of words) {
    if (word.startsWith('-')) return { command, path, next: undefined };
    const sub = command.commands.find(
      (candidate) => candidate.name() === word || candidate.aliases().includes(word),
    );
    if (sub === undefined) return { command, path, next: word };
    command = sub;
    path.push(word);
  }
  return { command, path, next: undefined };
}

/**
 * The command line to parse. Commander prints the help of the nearest known command for
 * `team member restart --help` (and exits 0) before it looks at the unknown word; without
 * the help flag it reports the unknown command, so the flag is dropped when the word after
 * a command with subcommands (and no arguments of its own) names none of them.
 */
export function withoutHelpForUnknownCommand(program: Command, argv: readonly string[]): string[] {
  const words = argv.slice(2);
  if (!words.some((word) => HELP_FLAGS.has(word))) return [...argv];
  const { command, next } = resolveCommandPath(program, words);
  const unknown =
    next !== undefined && command.commands.length > 0 && command.registeredArguments.length === 0;
  return unknown ? argv.filter((word, index) => index < 2 || !HELP_FLAGS.has(word)) : [...argv];
}

/** Where to look for the commands of the command an unknown word followed. */
export function unknownCommandHint(program: Command, argv: readonly string[]): string {
  const { path } = resolveCommandPath(program, argv.slice(2));
  return `run ${['team', ...path, '--help'].join(' ')} for the commands.`;
}
