import path from 'node:path';
import type { CommandHandler } from '../../command-handler.js';
import { UsageError } from '../../exit-codes.js';

/**
 * `team member-turns` (internal, hidden from help): the process of a turn-based member.
 * The process host starts it with the member's environment and secret, in the member's
 * worktree (and pane); it runs the agent CLI one turn at a time (see `createMemberTurns`).
 * SIGINT ends the current turn and keeps the runner; SIGTERM ends both.
 */
export const memberTurnsCommand: CommandHandler = async (context) => {
  if (context.member === undefined || context.memberRun === undefined) {
    throw new UsageError(
      'team member-turns runs inside a member process that Teamkit started; it is not for direct use.',
    );
  }
  const { home, member, memberRun: runId } = context;
  const { findMember } = await import('@teamkit/team-core/state');
  const { readRunLaunch } = await import('../../process-host/run-launch.js');
  const { prepareTurnAgent, writePresetFiles } = await import(
    '../../turn-runner/prepare-turn-agent.js'
  );
  const { createMemberTurns } = await import('../../turn-runner/run-member-turns.js');
  const { loadCliSettings } = await import('../../cli-settings.js');
  const state = await (await context.openRun(runId)).state.read();
  const me = findMember(state, member);
  const launch = (await readRunLaunch(home, runId))?.members[member];
  if (launch === undefined) {
    throw new UsageError(`Run ${runId} records no launch for ${member}; it cannot take turns.`);
  }
  const promptFile = path.join(home, 'runtime', runId, 'prompts', `${member}.md`);
  const cwd = process.cwd();
  const agent = prepareTurnAgent({
    home,
    runId,
    teamName: state.teamName,
    member: {
      name: me.name,
      role: me.role,
      isLead: me.isLead,
      ...(me.model === undefined ? {} : { model: me.model }),
    },
    cwd,
    launch,
    promptFile,
  });
  await writePresetFiles(home, agent.files);
  const settings = await loadCliSettings(context);
  // Tuning for tests and impatient users: how often a failing turn is retried, and the
  // first wait (doubled each retry).
  const whole = (name: string) => {
    const value = context.env[name];
    return value !== undefined && /^[0-9]{1,7}$/.test(value) ? Number(value) : undefined;
  };
  const retries = whole('TEAMKIT_TURN_RETRIES');
  const retryDelayMs = whole('TEAMKIT_TURN_RETRY_DELAY_MS');
  const controller = new AbortController();
  const turns = createMemberTurns({
    home,
    store: context.store,
    runId,
    member,
    agent,
    cwd,
    env: context.env,
    promptFile,
    lock: { timeoutMs: settings['lock.timeoutMs'] },
    ...(retries === undefined ? {} : { retries }),
    ...(retryDelayMs === undefined ? {} : { retryDelayMs }),
    signal: controller.signal,
  });
  const onInterrupt = () => {
    void turns.interrupt();
  };
  const onStop = () => controller.abort();
  process.on('SIGINT', onInterrupt);
  process.once('SIGTERM', onStop);
  process.once('SIGHUP', onStop);
  try {
    const outcome = await turns.run();
    process.stderr.write(`turn runner: ${member} ends (${outcome.reason})\n`);
    return outcome.code;
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onStop);
    process.off('SIGHUP', onStop);
  }
};
