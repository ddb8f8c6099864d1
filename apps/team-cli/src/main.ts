import { Command, CommanderError, Option } from 'commander';
import type { CommandHandler } from './command-handler.js';
import type { CommandAccess } from './run-command.js';
import { unknownCommandHint, withoutHelpForUnknownCommand } from './unknown-command.js';

type Loader = () => Promise<CommandHandler>;

/**
 * Runs the `team` command line and resolves with its exit code. Every command's module
 * is imported only when that command runs, so start-up loads no more than it needs.
 */
export async function main(argv: readonly string[]): Promise<number> {
  // `team --version` (and `-V`, with or without `--json`) only as the whole command line:
  // a program-wide option would take `team artifact get … --version 2` for itself.
  const flags = argv.slice(2);
  if (
    flags.some((flag) => flag === '--version' || flag === '-V') &&
    flags.every((flag) => flag === '--version' || flag === '-V' || flag === '--json')
  ) {
    const { printVersion } = await import('./version.js');
    return printVersion(argv.includes('--json'));
  }
  let exitCode = 0;
  const program = new Command('team');
  const json = argv.includes('--json');

  const act =
    (load: Loader, access: CommandAccess = {}) =>
    async (...params: unknown[]): Promise<void> => {
      const command = params.at(-1) as Command;
      const args = params
        .slice(0, -2)
        .flatMap((value) => (Array.isArray(value) ? value : value === undefined ? [] : [value]))
        .map(String);
      const options = command.optsWithGlobals() as Record<string, unknown>;
      const { runCommand } = await import('./run-command.js');
      exitCode = await runCommand(load, args, options, access);
    };

  // `--claude` turns a command to Claude Code's own teams (commands/claude/).
  const orClaude =
    (handler: keyof typeof import('./commands/claude/index.js'), load: Loader): Loader =>
    async () =>
    async (context, args, options) =>
      options.claude === true
        ? (await import('./commands/claude/index.js'))[handler](context, args, options)
        : (await load())(context, args, options);
  const claudeOption = (command: Command, what: string): Command =>
    command.option('--claude', `${what} (Claude Code's own agent teams, in $CLAUDE_CONFIG_DIR)`);

  const common = (command: Command): Command =>
    command
      .option('--json', 'print one JSON document')
      .option('--home <dir>', 'the Teamkit home (default $TEAMKIT_HOME or ~/.teamkit)');

  program
    .description('Run and steer teams of coding agents from the shell.')
    .addHelpText('after', '\nteam --version prints the version of the team command.')
    .showHelpAfterError(false)
    .exitOverride()
    // Parse errors are printed once, by the failure printer below.
    .configureOutput({ writeErr: () => {} });

  common(
    program
      .command('init')
      .description('write a starter config and an example team package (never overwrites)')
      .option('--project [dir]', 'write into <dir>/.teamkit instead of the Teamkit home'),
  ).action(
    act(async () => (await import('./commands/init/index.js')).initCommand, {
      userOnly: 'write Teamkit config (team init)',
    }),
  );

  common(
    program
      .command('teams')
      .description('list the effective team library')
      .option('--project <dir>', 'include the teams of the project in <dir>'),
  ).action(act(async () => (await import('./commands/teams/index.js')).teamsCommand));

  common(
    program
      .command('doctor')
      .description("print the registry's doctor report")
      .option('--project <dir>', 'include the project config of <dir>'),
  ).action(
    act(async () => (await import('./commands/doctor/index.js')).doctorCommand, { ownStore: true }),
  );

  const run = program.command('run').description('start, list, inspect and stop team runs');
  common(
    run
      .command('start <team>')
      .description('start a team run with its members as processes')
      .option('--repo <dir>', 'the git repository members work in (worktrees)')
      .option('--no-tmux', 'run members in the background even inside tmux')
      .option(
        '--agent <preset>',
        'the agent CLI of every member: claude|codex|opencode|gemini|teamkit-agent',
      )
      .option('--agent-cmd <template>', 'argv template of each member process, instead of a preset')
      .addOption(
        new Option(
          '--agent-cmd-mode <mode>',
          'whether the --agent-cmd template runs one turn or the whole run',
        ).choices(['one-shot', 'long-lived']),
      )
      .option('--model <id>', "the model of every member, in the agent CLI's own words")
      .option('--dry-run', "print each member's exact command and start nothing")
      .option('--project <dir>', 'also see the project teams of <dir>')
      .option('--goal <text>', 'what the run is for; it completes only when its criteria are met')
      .option(
        '--criterion <text>',
        'an acceptance criterion of the goal (repeat for more)',
        (value: string, previous: string[] = []) => [...previous, value],
      )
      .option(
        '--elsewhere <members>',
        'leave these members (comma-separated) for another machine to join (shared store only)',
        (value: string, previous: string[] = []) => [...previous, value],
      )
      .option('--attach', 'supervise the run in the foreground until it ends'),
  ).action(
    act(async () => (await import('./commands/run/index.js')).runStartCommand, {
      userOnly: 'start a run',
    }),
  );
  common(
    run
      .command('join <run> <members...>')
      .description('run members of a shared run on this machine, each in its own worktree')
      .requiredOption('--repo <dir>', "this machine's clone of the run's repository")
      .option(
        '--agent <preset>',
        'the agent CLI of the members: claude|codex|opencode|gemini|teamkit-agent',
      )
      .option('--agent-cmd <template>', 'argv template of each member process, instead of a preset')
      .addOption(
        new Option(
          '--agent-cmd-mode <mode>',
          'whether the --agent-cmd template runs one turn or the whole run',
        ).choices(['one-shot', 'long-lived']),
      )
      .option('--model <id>', "the model of the members, in the agent CLI's own words"),
  ).action(
    act(async () => (await import('./commands/run/join-run.js')).runJoinCommand, {
      userOnly: 'join a run from this machine',
    }),
  );
  common(
    claudeOption(run.command('list').description('list runs'), 'list Claude Code teams instead'),
  ).action(
    act(
      orClaude(
        'claudeRunListCommand',
        async () => (await import('./commands/run/index.js')).runListCommand,
      ),
    ),
  );
  common(run.command('status [run]').description("a run's members, tasks and progress")).action(
    act(async () => (await import('./commands/run/index.js')).runStatusCommand),
  );
  common(
    run
      .command('stop <run>')
      .description('stop a run: members, panes, worktrees (by the safety rule)')
      .option(
        '--force',
        'remove worktrees even with unsaved work, and go on past failing steps (listing them)',
      )
      .option('--project <dir>', 'also read the settings of the project in <dir>'),
  ).action(act(async () => (await import('./commands/run/index.js')).runStopCommand));
  common(
    run
      .command('interrupt <run> <member>')
      .description("stop a member's current turn; the member stays and takes its next turn"),
  ).action(act(async () => (await import('./commands/run/index.js')).runInterruptCommand));
  common(run.command('resume [run]').description('resume one run (or all) after a restart')).action(
    act(async () => (await import('./commands/run/index.js')).runResumeCommand),
  );
  common(
    run
      .command('supervise <run>')
      .description('keep a run going: start waiting members, stop approved ones'),
  ).action(act(async () => (await import('./commands/run/index.js')).runSuperviseCommand));
  common(
    run
      .command('sweep')
      .description('remove the folders of finished runs (of runs this CLI hosts)')
      .option('--all-hosts', 'also the runs other hosts (OpenCode, …) started'),
  ).action(
    act(async () => (await import('./commands/run/index.js')).runSweepCommand, {
      userOnly: 'sweep finished runs',
    }),
  );
  const { registerLifecycleCommands } = await import('./register-lifecycle-commands.js');
  registerLifecycleCommands({ program, run, act: (load) => act(load), common });

  common(
    program
      .command('send <args...>')
      .description('send a message: team send [run] --to NAME|* <body>')
      .requiredOption('--to <name>', 'a member name, or * for everyone')
      .option('--kind <kind>', 'message kind: message | announcement | task_update')
      .option('--summary <text>', 'a one-line summary')
      .option(
        '--claude',
        'send into a Claude Code team: team send --claude <team> --to NAME <body>',
      ),
  ).action(
    act(
      orClaude(
        'claudeSendCommand',
        async () => (await import('./commands/send/index.js')).sendCommand,
      ),
    ),
  );
  common(
    program
      .command('inbox [run]')
      .description("the caller's unread mail")
      .option('--wait <seconds>', 'wait up to this long for mail')
      .option('--ack', 'acknowledge what was shown'),
  ).action(act(async () => (await import('./commands/inbox/index.js')).inboxCommand));
  common(
    program.command('ack <args...>').description('acknowledge messages: team ack [run] <id…>'),
  ).action(act(async () => (await import('./commands/ack/index.js')).ackCommand));

  const task = program.command('task').description('create, claim and move tasks');
  const taskCommand = (
    spec: string,
    description: string,
    handler: keyof typeof import('./commands/task/index.js'),
    extra: (command: Command) => Command = (command) => command,
  ) =>
    common(extra(task.command(spec).description(description))).action(
      act(async () => (await import('./commands/task/index.js'))[handler]),
    );
  common(
    task
      .command('create <args...>')
      .description('create a task: [run] <subject>')
      .option('--description <text>', 'what done means')
      .option('--blocked-by <ids>', 'comma-separated ids this task waits for')
      .option('--role <role>', 'the role expected to take it (metadata)')
      .option(
        '--claude',
        'create it in a Claude Code team: team task create --claude <team> <subject>',
      ),
  ).action(
    act(
      orClaude(
        'claudeTaskCreateCommand',
        async () => (await import('./commands/task/index.js')).taskCreateCommand,
      ),
    ),
  );
  taskCommand('list [run]', 'list tasks', 'taskListCommand', (c) =>
    c
      .option('--ready', 'only tasks that can be claimed now')
      .option('--owner <name>', 'only tasks of this owner')
      .option('--status <status>', 'only tasks in this status (comma-separated)'),
  );
  taskCommand('get <args...>', 'show a task: [run] <id>', 'taskGetCommand');
  taskCommand('claim <args...>', 'claim a task: [run] <id>', 'taskClaimCommand');
  taskCommand('start <args...>', 'start a claimed task: [run] <id>', 'taskStartCommand');
  taskCommand('complete <args...>', 'complete a task: [run] <id>', 'taskCompleteCommand');
  taskCommand('review <args...>', 'offer a task for review: [run] <id>', 'taskReviewCommand');
  taskCommand(
    'approve <args...>',
    'approve a reviewed task (lead): [run] <id>',
    'taskApproveCommand',
  );
  taskCommand(
    'request-changes <args...>',
    'send a reviewed task back: [run] <id> --note',
    'taskRequestChangesCommand',
    (c) => c.requiredOption('--note <text>', 'what to change'),
  );
  taskCommand('block <args...>', 'block a task: [run] <id> --reason', 'taskBlockCommand', (c) =>
    c.requiredOption('--reason <text>', 'why'),
  );
  taskCommand('unblock <args...>', 'unblock a task: [run] <id>', 'taskUnblockCommand');
  taskCommand('release <args...>', 'hand a task back: [run] <id>', 'taskReleaseCommand');
  taskCommand('cancel <args...>', 'cancel a task: [run] <id> --reason', 'taskCancelCommand', (c) =>
    c.requiredOption('--reason <text>', 'why'),
  );
  taskCommand('delete <args...>', 'delete a task: [run] <id>', 'taskDeleteCommand', (c) =>
    c.option('--reason <text>', 'why'),
  );

  common(
    claudeOption(
      program.command('board [run]').description('tasks as kanban columns'),
      'show a Claude Code team: its members, tasks and waiting messages',
    ),
  ).action(
    act(
      orClaude(
        'claudeBoardCommand',
        async () => (await import('./commands/board/index.js')).boardCommand,
      ),
    ),
  );
  common(
    program
      .command('dashboard [run]')
      .description('a live dashboard of members and progress (Ctrl-C exits)')
      .option('--once', 'print one frame and exit'),
  ).action(act(async () => (await import('./commands/dashboard/index.js')).dashboardCommand));
  common(
    claudeOption(
      program.command('watch [run]').description('one JSON line per run event, live'),
      'one JSON line per change of Claude Code teams',
    ),
  ).action(
    act(
      orClaude(
        'claudeWatchCommand',
        async () => (await import('./commands/watch/index.js')).watchCommand,
      ),
    ),
  );

  common(
    program
      .command('ui [run]')
      .description('serve the live web dashboard on 127.0.0.1 (Ctrl-C stops it)')
      .option('--port <port>', 'the port to listen on (default: a free one)')
      .option('--open', 'open the page in the desktop browser'),
  ).action(act(async () => (await import('./commands/ui/index.js')).uiCommand));

  const worktree = program.command('worktree').description('member worktrees');
  common(worktree.command('list').description('orphan worktrees of finished runs')).action(
    act(async () => (await import('./commands/worktree/index.js')).worktreeListCommand, {
      userOnly: "list other runs' worktrees",
    }),
  );
  common(
    worktree
      .command('prune')
      .description('remove orphan worktrees whose work is saved')
      .option('--force', 'remove even with unsaved work'),
  ).action(
    act(async () => (await import('./commands/worktree/index.js')).worktreePruneCommand, {
      userOnly: 'prune worktrees',
    }),
  );
  const tmux = program.command('tmux').description('tmux sessions');
  common(tmux.command('sweep').description('kill teamkit tmux sessions of finished runs')).action(
    act(async () => (await import('./commands/tmux/index.js')).tmuxSweepCommand, {
      userOnly: 'sweep tmux sessions',
    }),
  );

  const artifact = program
    .command('artifact')
    .description("publish and read a run's named Markdown deliverables");
  common(
    artifact
      .command('put <args...>')
      .description('publish the next version: [run] <name> (body from --file or stdin)')
      .option('--file <file>', 'read the Markdown from this file instead of stdin')
      .option('--title <text>', 'a one-line title'),
  ).action(act(async () => (await import('./commands/artifact/index.js')).artifactPutCommand));
  common(
    artifact
      .command('get <args...>')
      .description("print an artifact's Markdown: [run] <name>")
      .option('--version <n>', 'this version instead of the newest'),
  ).action(act(async () => (await import('./commands/artifact/index.js')).artifactGetCommand));
  common(artifact.command('list [run]').description("a run's artifacts")).action(
    act(async () => (await import('./commands/artifact/index.js')).artifactListCommand),
  );

  const mcp = common(
    program
      .command('mcp')
      .description(
        "serve the team's tools over MCP on stdio (for agent CLIs); see docs/adapters/mcp.md",
      )
      .option('--as <who>', 'act as the user ("user") when the process has no member identity')
      .option('--run <id>', 'the run to act in without a member identity')
      .option('--tools <profile>', 'minimal | member (default) | lead | all')
      .option('--member-argument', 'accept an asMember argument (one server for several agents)')
      .option('--members <names>', 'with --member-argument: the members it may name (a,b)')
      .option('--host <host>', 'claude | codex | gemini | opencode: name tools as that host does')
      .option('--name <name>', "the server's name in the host's configuration (default teamkit)")
      .option('--log-file <file>', 'also log, as JSON lines, to this file')
      .option('--agent-cmd <cmd>', 'the agent command the create tool starts members with'),
  ).action(act(async () => (await import('./commands/mcp/index.js')).mcpCommand));
  common(
    mcp
      .command('config')
      .description("print or write a host's configuration for the Teamkit MCP server")
      .option('--host <host>', 'claude | codex | gemini | opencode')
      .option('--member <name>', 'start the server as this member (needs --run)')
      .option('--as <who>', 'start the server acting as the user ("user"): its inbox, lead rights')
      .option('--run <id>', 'the run (its id or a unique prefix)')
      .option('--tools <profile>', 'minimal | member | lead | all')
      .option('--write', "merge it into the host's configuration file")
      .option('--file <file>', 'the file to write instead of the host default'),
  ).action(act(async () => (await import('./commands/mcp/index.js')).mcpConfigCommand));

  common(
    program
      .command('demo')
      .description('run the built-in coding team with scripted members in a temp repo')
      .option('--keep', 'keep the temp folder for inspection')
      .option('--timeout <seconds>', 'give up after this long', '300')
      .option('--no-tmux', 'run members in the background even inside tmux'),
  ).action(
    act(async () => (await import('./commands/demo/index.js')).demoCommand, {
      userOnly: 'run the demo',
    }),
  );

  // The process of a turn-based member (started by the process host, never by hand).
  common(program.command('member-turns', { hidden: true })).action(
    act(async () => (await import('./commands/member-turns/index.js')).memberTurnsCommand),
  );

  try {
    await program.parseAsync(withoutHelpForUnknownCommand(program, argv));
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.exitCode === 0) return 0;
    const { UsageError, EXIT_CODES } = await import('./exit-codes.js');
    const { createOutput } = await import('./output.js');
    const message = error.message.replace(/^error: /, '');
    await createOutput({ json }).failure(
      new UsageError(
        error.code === 'commander.unknownCommand'
          ? `${message}\n(${unknownCommandHint(program, argv)})`
          : message,
      ),
    );
    return EXIT_CODES.usage;
  }
  return exitCode;
}
