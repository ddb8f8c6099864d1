import { resolveRunId, splitOptionalRun } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';
import { UsageError } from '../../exit-codes.js';
import { runToolAs } from '../../tool-command.js';

function criteriaOf(options: Record<string, unknown>): string[] {
  const given = options.criterion;
  return Array.isArray(given) ? given.map(String) : typeof given === 'string' ? [given] : [];
}

/**
 * `team run goal [run] ["<goal>"] [--criterion C …]`: without a goal, shows the run's goal
 * and each criterion with its evidence; with one, the lead or the user sets it (once; the
 * same goal again only adds criteria).
 */
export const runGoalCommand: CommandHandler = async (context, args, options) => {
  const { run, rest } = await splitOptionalRun(context, args, 'team run goal <run> ["<goal>"]');
  if (rest.length > 1) throw new UsageError('Give the goal as one argument (quote it).');
  const runId = await resolveRunId(context, run);
  const criteria = criteriaOf(options);
  if (rest[0] === undefined) {
    if (criteria.length > 0)
      throw new UsageError(
        'Give the goal with its criteria: team run goal [run] "<goal>" --criterion …',
      );
    const { goalOutput, goalText } = await import('@teamkit/team-core/tools');
    const shown = goalOutput(await (await context.openRun(runId)).state.read());
    context.output.result(shown, () => goalText(shown));
    return undefined;
  }
  const { output, text } = await runToolAs(context, runId, 'goal_set', {
    goal: rest[0],
    ...(criteria.length > 0 ? { criteria } : {}),
  });
  context.output.result(output, () => text);
  return undefined;
};

/**
 * `team run criteria evidence [run] <criterion> --task ID | --commit REF | --message ID
 * [--note N]`: the lead or the user shows a criterion met by something that exists.
 */
export const runCriteriaEvidenceCommand: CommandHandler = async (context, args, options) => {
  const { run, rest } = await splitOptionalRun(
    context,
    args,
    'team run criteria evidence <run> <criterion> --task|--commit|--message <ref>',
  );
  if (rest.length !== 1) throw new UsageError('Name one criterion by its id (see team run goal).');
  const given = (['task', 'commit', 'message'] as const).filter(
    (kind) => typeof options[kind] === 'string',
  );
  if (given.length !== 1)
    throw new UsageError(
      'Give exactly one piece of evidence: --task ID, --commit REF or --message ID.',
    );
  const kind = given[0] as 'task' | 'commit' | 'message';
  const runId = await resolveRunId(context, run);
  const { output, text } = await runToolAs(context, runId, 'criterion_evidence', {
    criterion: rest[0],
    kind,
    ref: options[kind],
    note: options.note,
  });
  context.output.result(output, () => text);
  return undefined;
};

/**
 * `team run criteria waive <run> <criterion> --reason R`: the user lets the run complete
 * without evidence for a criterion; members get `PERMISSION_DENIED`.
 */
export const runCriteriaWaiveCommand: CommandHandler = async (context, args, options) => {
  const { run, rest } = await splitOptionalRun(
    context,
    args,
    'team run criteria waive <run> <criterion> --reason "<why>"',
  );
  if (rest.length !== 1) throw new UsageError('Name one criterion by its id (see team run goal).');
  const runId = await resolveRunId(context, run);
  const { output, text } = await runToolAs(context, runId, 'criterion_waive', {
    criterion: rest[0],
    reason: options.reason,
  });
  context.output.result(output, () => text);
  return undefined;
};
