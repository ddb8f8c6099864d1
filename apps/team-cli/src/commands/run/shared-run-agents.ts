import { TeamkitError } from '@teamkit/team-core';
import { parseAgentCommand, SCRIPTED_AGENT_NAME } from '../../process-host/agent-command.js';
import type { MemberLaunch, RunLaunch } from '../../process-host/run-launch.js';

/** Whether a member would start as the scripted `teamkit-agent` (its preset, or a template led by it). */
function isScriptedAgent(launch: MemberLaunch): boolean {
  if (launch.kind === 'preset') return launch.preset === SCRIPTED_AGENT_NAME;
  return parseAgentCommand(launch.template)[0] === SCRIPTED_AGENT_NAME;
}

/**
 * Refuses a launch that would start scripted `teamkit-agent` members in a run kept in a
 * shared store: that agent reaches its run through the home folder only, so each such
 * member would stop at once. Called before `team run start` or `team run join` writes
 * anything; `members` limits the check to the members the command starts.
 */
export function assertLaunchFitsSharedRun(
  launch: RunLaunch,
  shared: boolean,
  members?: readonly string[],
): void {
  if (!shared) return;
  const scripted = Object.entries(launch.members)
    .filter(([name]) => members === undefined || members.includes(name))
    .filter(([, member]) => isScriptedAgent(member))
    .map(([name]) => name);
  if (scripted.length === 0) return;
  throw new TeamkitError(
    'INVALID_INPUT',
    `${scripted.join(', ')} would run as ${SCRIPTED_AGENT_NAME}, which reaches its run through the home folder only, and this home's runs live in a shared store (TEAMKIT_STORE or the store.url setting). Start the members with an agent CLI preset (--agent claude|codex|opencode|gemini) or an --agent-cmd of your own.`,
    { details: { agent: SCRIPTED_AGENT_NAME, members: scripted } },
  );
}
