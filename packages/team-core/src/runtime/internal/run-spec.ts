import { errorMessage, TeamkitError } from '../../errors/index.js';
import {
  loadTeamLibrary,
  resolveStartableTeam,
  type SettingsValues,
} from '../../registry/index.js';
import { describeIssues } from '../../schema/describe-issues.js';
import {
  type RuntimeState,
  type TeamPolicy,
  type TeamSpec,
  type TeamSpecInput,
  TeamSpecSchema,
} from '../../schema/index.js';
import { requireLead } from '../../state/index.js';
import { runKeys } from '../../storage/run-keys.js';
import { readDocument } from '../../storage/store-documents.js';
import type { RuntimeContext } from './runtime-context.js';

/** The team a run starts with, and where it came from. */
export interface ResolvedRunSpec {
  spec: TeamSpec;
  source: RuntimeState['teamSource'];
}

/**
 * The run's policy: the team's, with its mailbox caps combined with the `mailbox.*`
 * settings so the stricter of the two holds (the smaller cap; `lead-only` if either says so).
 */
export function policyUnderSettings(
  policy: TeamPolicy,
  settings: Pick<
    SettingsValues,
    'mailbox.payloadMaxBytes' | 'mailbox.unreadMaxBytes' | 'mailbox.broadcast'
  >,
): TeamPolicy {
  return {
    ...policy,
    payloadMaxBytes: Math.min(policy.payloadMaxBytes, settings['mailbox.payloadMaxBytes']),
    unreadMaxBytes: Math.min(policy.unreadMaxBytes, settings['mailbox.unreadMaxBytes']),
    broadcast:
      policy.broadcast === 'lead-only' || settings['mailbox.broadcast'] === 'lead-only'
        ? 'lead-only'
        : 'everyone',
  };
}

/**
 * Resolves a team (an id through the registry, built-ins included whether or not the
 * config lists them; or an inline spec) and applies the settings to its policy. An invalid
 * inline team is `INVALID_TEAM`; nothing is written.
 */
export async function resolveRunSpec(
  ctx: RuntimeContext,
  team: string | TeamSpecInput,
): Promise<ResolvedRunSpec> {
  const settings = await ctx.settings();
  if (typeof team === 'string') {
    const library = await loadTeamLibrary({
      home: ctx.home,
      ...(ctx.project === undefined ? {} : { project: ctx.project }),
      ...(ctx.env === undefined ? {} : { env: ctx.env }),
    });
    const found = await resolveStartableTeam(library, team);
    return {
      spec: { ...found.spec, policy: policyUnderSettings(found.spec.policy, settings) },
      source: { scope: found.scope, path: found.folder },
    };
  }
  const parsed = TeamSpecSchema.safeParse(team);
  if (!parsed.success) {
    const issues = describeIssues(parsed.error);
    throw new TeamkitError('INVALID_TEAM', `The inline team is invalid: ${issues.join('; ')}.`, {
      details: { issues },
    });
  }
  return {
    spec: { ...parsed.data, policy: policyUnderSettings(parsed.data.policy, settings) },
    source: { scope: 'inline' },
  };
}

/**
 * Reads the team a run started with, so members started after a restart get their own
 * prompts. A missing or unreadable copy falls back to a team rebuilt from the run state
 * (generic prompts); an unreadable one is recorded in the run's event log.
 */
export async function readRunSpec(ctx: RuntimeContext, state: RuntimeState): Promise<TeamSpec> {
  const file = runKeys(state.runId).team;
  let saved: TeamSpec | undefined;
  try {
    saved = (await readDocument(ctx.store, file, TeamSpecSchema))?.value;
  } catch (error) {
    await ctx.event(state.runId, 'team.unreadable', [], {
      path: file,
      reason: errorMessage(error),
    });
  }
  if (saved !== undefined) return saved;
  return TeamSpecSchema.parse({
    id: state.teamName,
    name: state.teamName,
    lead: requireLead(state).name,
    members: state.members.map((member) => ({
      name: member.name,
      role: member.role,
      prompt: `You are ${member.name}, the ${member.role} of team ${state.teamName}.`,
    })),
    policy: state.policy,
  });
}
