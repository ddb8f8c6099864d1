import type { Command } from 'commander';
import type { CommandHandler } from './command-handler.js';

/** How main wires a command's action: load its handler only when it runs. */
export type ActionOf = (
  load: () => Promise<CommandHandler>,
) => (...params: unknown[]) => Promise<void>;

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * The commands of a run's end: shutdowns, permission requests, the goal and its
 * criteria, the report and the merge. Each handler is imported only when it runs.
 */
export function registerLifecycleCommands(parts: {
  program: Command;
  run: Command;
  act: ActionOf;
  common: (command: Command) => Command;
}): void {
  const { program, run, act, common } = parts;

  common(
    run
      .command('report [run]')
      .description('what a run did: tasks, commits, messages, turns, criteria, merges, worktrees'),
  ).action(act(async () => (await import('./commands/run/run-report.js')).runReportCommand));
  common(
    run
      .command('merge <run>')
      .description("merge the approved tasks' work into the base branch, in dependency order")
      .option('--into <branch>', 'merge into this branch instead (created from the base if new)')
      .option('--dry-run', 'do the merges in a scratch worktree and report; move no branch'),
  ).action(act(async () => (await import('./commands/run/run-merge.js')).runMergeCommand));
  common(
    run
      .command('goal [args...]')
      .description(
        'show the run goal and criteria, or set them: goal [run] ["<goal>"] [--criterion C]',
      )
      .option('--criterion <text>', 'an acceptance criterion (repeat for more)', collect),
  ).action(act(async () => (await import('./commands/run/run-goal.js')).runGoalCommand));
  const criteria = run
    .command('criteria')
    .description("evidence for, and waivers of, a run's criteria");
  common(
    criteria
      .command('evidence <args...>')
      .description(
        'attach evidence that a criterion is met: [run] <criterion> --task|--commit|--message',
      )
      .option('--task <id>', 'a task of the run')
      .option('--commit <ref>', 'a commit (id or branch) of the run’s repository')
      .option('--message <id>', 'a message of the run (id or a unique prefix)')
      .option('--note <text>', 'what it shows'),
  ).action(
    act(async () => (await import('./commands/run/run-goal.js')).runCriteriaEvidenceCommand),
  );
  common(
    criteria
      .command('waive <args...>')
      .description('as the user, let the run complete without evidence: <run> <criterion> --reason')
      .requiredOption('--reason <text>', 'why the criterion no longer matters'),
  ).action(act(async () => (await import('./commands/run/run-goal.js')).runCriteriaWaiveCommand));

  const shutdown = program
    .command('shutdown')
    .description('ask members to finish and shut down, and answer such requests');
  const shutdownCommand = (name: keyof typeof import('./commands/shutdown/index.js')) =>
    act(async () => (await import('./commands/shutdown/index.js'))[name]);
  common(
    shutdown
      .command('request [args...]')
      .description('as the lead or the user: [run] [member|*] (default *, everyone still working)')
      .option('--reason <text>', 'why, for the members'),
  ).action(shutdownCommand('shutdownRequestCommand'));
  common(
    shutdown
      .command('approve [args...]')
      .description('inside a member: approve its own open shutdown request: [run] [id]'),
  ).action(shutdownCommand('shutdownApproveCommand'));
  common(
    shutdown
      .command('reject [args...]')
      .description('inside a member: reject its own open shutdown request: [run] [id] --reason')
      .requiredOption('--reason <text>', 'why it cannot stop yet'),
  ).action(shutdownCommand('shutdownRejectCommand'));

  const permission = program
    .command('permission')
    .description("members' requests to act outside their worktree, and the answers");
  const permissionCommand = (name: keyof typeof import('./commands/permission/index.js')) =>
    act(async () => (await import('./commands/permission/index.js'))[name]);
  common(
    permission
      .command('request [run]')
      .description('inside a member: ask the lead before acting outside the worktree')
      .requiredOption('--action <what>', 'what it wants to do, e.g. write')
      .option('--path <path>', 'the absolute path it touches')
      .option('--reason <text>', 'why'),
  ).action(permissionCommand('permissionRequestCommand'));
  common(
    permission
      .command('list [run]')
      .description("the run's permission requests (a member sees its own)")
      .option('--pending', 'only those not decided yet'),
  ).action(permissionCommand('permissionListCommand'));
  common(
    permission
      .command('approve <args...>')
      .description('as the lead or the user: approve a request: [run] <id>')
      .option('--remember', 'keep the path allowed for the member from now on')
      .option('--reason <text>', 'why'),
  ).action(permissionCommand('permissionApproveCommand'));
  common(
    permission
      .command('deny <args...>')
      .description('as the lead or the user: deny a request: [run] <id>')
      .option('--reason <text>', 'why'),
  ).action(permissionCommand('permissionDenyCommand'));
}
