import path from 'node:path';
import type { TeamSpec } from '@teamkit/team-core';
import { quote } from 'shell-quote';
import { agentCommandValues, planMemberLaunch } from '../../process-host/member-launch-plan.js';
import type { RunLaunch } from '../../process-host/run-launch.js';
import { currentTeamCommand } from '../../process-host/team-shim.js';
import { gitWritableRoots, prepareTurnAgent } from '../../turn-runner/prepare-turn-agent.js';

/** What `team run start --dry-run` shows for one member. */
export interface MemberLaunchDescription {
  member: string;
  agent: string;
  mode: 'turns' | 'long-lived';
  model?: string;
  cwd: string;
  /** The member's process as the host starts it. */
  process: string[];
  /** For turn-based members: the agent CLI's first turn and a resumed turn. */
  firstTurn?: string[];
  nextTurn?: string[];
  /** Variables a turn gets besides the member's identity (`TEAMKIT_*`). */
  env?: Record<string, string>;
  /** Files written for the member before its first turn. */
  files?: string[];
}

/** The run's id in paths shown before the run exists. */
const RUN = '<run>';

/**
 * Describes how each member would start, exactly as the host and the turn runner would
 * start it, without creating anything: the prompt of a turn is shown as `<prompt>` and
 * the run id as `<run>`.
 */
export function describeRunLaunch(input: {
  home: string;
  spec: TeamSpec;
  launch: RunLaunch;
  repo?: string;
}): MemberLaunchDescription[] {
  const writableRoots = input.repo === undefined ? [] : gitWritableRoots(input.repo);
  return input.spec.members.map((member) => {
    const launch = input.launch.members[member.name];
    if (launch === undefined) throw new Error(`no launch for ${member.name}`);
    const cwd =
      member.worktree && input.repo !== undefined
        ? path.join(input.home, 'worktrees', RUN, member.name)
        : (input.repo ?? input.home);
    const promptFile = path.join(input.home, 'runtime', RUN, 'prompts', `${member.name}.md`);
    const model = launch.model;
    const spawn = {
      runId: RUN,
      teamName: input.spec.id,
      member: {
        name: member.name,
        role: member.role,
        isLead: member.name === input.spec.lead,
        prompt: '',
      },
      cwd,
      env: {},
    };
    const plan = planMemberLaunch(
      launch,
      agentCommandValues(input.home, spawn, promptFile, model),
      currentTeamCommand(),
    );
    const description: MemberLaunchDescription = {
      member: member.name,
      agent: launch.kind === 'preset' ? launch.preset : 'custom command',
      mode: plan.mode,
      ...(model === undefined ? {} : { model }),
      cwd,
      process: plan.argv,
    };
    if (plan.mode !== 'turns') return description;
    const agent = prepareTurnAgent({
      home: input.home,
      runId: RUN,
      teamName: input.spec.id,
      member: { name: member.name, role: member.role, isLead: member.name === input.spec.lead },
      cwd,
      launch,
      promptFile,
      writableRoots,
    });
    return {
      ...description,
      firstTurn: agent.turnArgv({ prompt: '<prompt>' }),
      nextTurn: agent.turnArgv({ prompt: '<new messages>', sessionId: '<session>' }),
      env: agent.env,
      files: agent.files.map((file) => file.path),
    };
  });
}

/** The description as lines for a terminal. */
export function renderRunLaunch(descriptions: readonly MemberLaunchDescription[]): string {
  return descriptions
    .flatMap((entry) => [
      `${entry.member}: ${entry.agent} (${entry.mode === 'turns' ? 'one process per turn' : 'long-lived'})${entry.model === undefined ? '' : `, model ${entry.model}`}`,
      `  in:         ${entry.cwd}`,
      `  process:    ${quote(entry.process)}`,
      ...(entry.firstTurn === undefined ? [] : [`  first turn: ${quote(entry.firstTurn)}`]),
      ...(entry.nextTurn === undefined ? [] : [`  next turn:  ${quote(entry.nextTurn)}`]),
      ...Object.entries(entry.env ?? {}).map(([key, value]) => `  env:        ${key}=${value}`),
      ...(entry.files ?? []).map((file) => `  writes:     ${file}`),
    ])
    .join('\n');
}
