import type { ClaudeTeamChange, ClaudeTeamView } from '@teamkit/claude-code';
import { errorMessage } from '@teamkit/team-core/errors';
import type { CommandHandler } from '../../command-handler.js';
import { UsageError } from '../../exit-codes.js';

async function openSource(env: NodeJS.ProcessEnv) {
  const { createClaudeTeamSource } = await import('@teamkit/claude-code');
  return createClaudeTeamSource({ env });
}

/** `team run list --claude`: the Claude Code teams under `$CLAUDE_CONFIG_DIR` (or `~/.claude`). */
export const claudeRunListCommand: CommandHandler = async (context) => {
  const source = await openSource(context.env);
  const listing = await source.listTeams();
  const { renderClaudeListing } = await import('./render-claude-team.js');
  context.output.result(
    { configDir: listing.configDir, teams: listing.teams, problems: listing.problems },
    () => renderClaudeListing(listing, context.output.style),
  );
  return undefined;
};

/** `team board --claude [team]`: one Claude Code team's members, task columns and waiting mail. */
export const claudeBoardCommand: CommandHandler = async (context, [given]) => {
  const source = await openSource(context.env);
  const { resolveClaudeTeam } = await import('./resolve-claude-team.js');
  const view = await source.readTeam(await resolveClaudeTeam(source, given));
  const { renderClaudeBoard } = await import('./render-claude-team.js');
  context.output.result({ team: view }, () =>
    renderClaudeBoard(view, context.output.style, process.stdout.columns ?? 100),
  );
  return undefined;
};

/**
 * `team watch --claude [team]`: one JSON line per change of Claude Code's teams (or of one
 * team), starting with each team as it is; with a team, returns once that team has
 * finished; otherwise on Ctrl-C.
 */
export const claudeWatchCommand: CommandHandler = async (context, [given]) => {
  const source = await openSource(context.env);
  let team: string | undefined;
  if (given !== undefined) {
    const { resolveClaudeTeam } = await import('./resolve-claude-team.js');
    team = (await source.readTeam(await resolveClaudeTeam(source, given))).name;
  }
  await new Promise<void>((resolve) => {
    const finish = () => {
      watch.close();
      process.off('SIGINT', finish);
      process.off('SIGTERM', finish);
      resolve();
    };
    const watch = source.watch(
      (change: ClaudeTeamChange) => {
        process.stdout.write(`${JSON.stringify(change)}\n`);
        const ended = (view: ClaudeTeamView) => view.liveness.status === 'finished';
        if (team !== undefined && (change.type === 'removed' || ended(change.team))) finish();
      },
      {
        ...(team === undefined ? {} : { team }),
        onError: (error) => context.output.note(`watch: ${errorMessage(error)}`),
      },
    );
    process.once('SIGINT', finish);
    process.once('SIGTERM', finish);
  });
  return undefined;
};

/** `team send --claude <team> --to NAME <body>`: a message into a live Claude Code team. */
export const claudeSendCommand: CommandHandler = async (context, args, options) => {
  const [given, ...body] = args;
  const text = body.join(' ');
  if (given === undefined || text.trim() === '') {
    throw new UsageError('Usage: team send --claude <team> --to NAME <message>.');
  }
  if (options.kind !== undefined) {
    throw new UsageError('Claude Code messages have no kind; leave out --kind.');
  }
  const source = await openSource(context.env);
  const { resolveClaudeTeam } = await import('./resolve-claude-team.js');
  const team = await resolveClaudeTeam(source, given);
  const { createClaudeTeamWriter } = await import('@teamkit/claude-code');
  const result = await createClaudeTeamWriter({ env: context.env }).sendMessage({
    team,
    to: String(options.to),
    text,
    ...(typeof options.summary === 'string' ? { summary: options.summary } : {}),
  });
  const { output } = context;
  output.result({ message: result }, () =>
    [
      `${output.style('green', 'sent')} to ${result.to} in Claude Code team ${team} (${result.state === 'pending' ? 'waiting in the inbox' : 'already taken by Claude Code'})`,
      ...result.warnings.map((warning) =>
        output.style('yellow', `warning ${warning.code}: ${warning.message}`),
      ),
    ].join('\n'),
  );
  return undefined;
};

/** `team task create --claude <team> <subject>`: a pending task in a live Claude Code team. */
export const claudeTaskCreateCommand: CommandHandler = async (context, args, options) => {
  const [given, ...words] = args;
  const subject = words.join(' ');
  if (given === undefined || subject.trim() === '') {
    throw new UsageError('Usage: team task create --claude <team> <subject> [--description TEXT].');
  }
  if (options.blockedBy !== undefined || options.role !== undefined) {
    throw new UsageError(
      'A task for a Claude Code team takes a subject and a description only; dependencies and roles are set from inside Claude Code.',
    );
  }
  const source = await openSource(context.env);
  const { resolveClaudeTeam } = await import('./resolve-claude-team.js');
  const team = await resolveClaudeTeam(source, given);
  const { createClaudeTeamWriter } = await import('@teamkit/claude-code');
  const result = await createClaudeTeamWriter({ env: context.env }).createTask({
    team,
    subject,
    ...(typeof options.description === 'string' ? { description: options.description } : {}),
  });
  const { output } = context;
  output.result({ task: result.task, team, warnings: result.warnings }, () =>
    [
      `${output.style('green', 'created')} task #${result.id} in Claude Code team ${team}: ${result.task.subject}`,
      ...result.warnings.map((warning) =>
        output.style('yellow', `warning ${warning.code}: ${warning.message}`),
      ),
    ].join('\n'),
  );
  return undefined;
};
