/** A command line the fast path answers: `team run status [run] [--json] [--home <dir>]`. */
export interface FastRunStatus {
  args: string[];
  options: { json?: true; home?: string };
}

/**
 * Reads `argv` as `team run status [run] [--json] [--home <dir>|--home=<dir>]` and
 * nothing else, giving the arguments and options commander would give the command's
 * handler; `undefined` for any other line (another command, `--help`, an unknown option,
 * `--`, a second argument, a missing or dash-led `--home` value), which goes to the full
 * command line so that its answer, errors included, stays commander's.
 */
export function parseFastRunStatus(argv: readonly string[]): FastRunStatus | undefined {
  if (argv[2] !== 'run' || argv[3] !== 'status') return undefined;
  const args: string[] = [];
  const options: FastRunStatus['options'] = {};
  const rest = argv.slice(4);
  for (let index = 0; index < rest.length; index += 1) {
    const word = rest[index] as string;
    if (word === '--json') options.json = true;
    else if (word === '--home' || word.startsWith('--home=')) {
      const value = word === '--home' ? rest[++index] : word.slice('--home='.length);
      if (value === undefined || value === '' || value.startsWith('-')) return undefined;
      options.home = value;
    } else if (word.startsWith('-') || args.length > 0) return undefined;
    else args.push(word);
  }
  return { args, options };
}

/**
 * Answers the one command whose start-up is timed, `team run status`, without building
 * the commander program: the same handler through the same {@link runCommand} as `main`,
 * so output and exit codes are the same byte for byte. Resolves with the exit code, or
 * `undefined` when `argv` is any other command line (then `main` answers it).
 */
export async function runFastPath(argv: readonly string[]): Promise<number | undefined> {
  const line = parseFastRunStatus(argv);
  if (line === undefined) return undefined;
  const { runCommand } = await import('./run-command.js');
  return runCommand(
    async () => (await import('./commands/run/run-status.js')).runStatusCommand,
    line.args,
    line.options,
  );
}
