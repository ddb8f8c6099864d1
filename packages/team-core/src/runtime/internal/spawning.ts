import { isTeamkitError } from '../../errors/index.js';
import { issueMemberCredential } from '../../identity/issue-member-credential.js';
import type { RunMember, RunStatus, RuntimeState, TeamSpec } from '../../schema/index.js';
import { readRunState, requireLead, startMember } from '../../state/index.js';
import { renderTeamProtocol, type TeamToolVocabulary } from '../team-protocol.js';
import { stopSession } from './member-session.js';
import { oneAtATimePerRun } from './one-at-a-time-per-run.js';
import { readRunSpec } from './run-spec.js';
import type { RuntimeContext } from './runtime-context.js';

/** Starts members through the host while the run's parallel bound allows. */
export interface Spawner {
  /** Starts `pending` members while `maxParallelMembers` allows; one pass per run at a time. */
  spawnWaitingMembers(runId: string): Promise<string[]>;
  /** Keeps the team a run started with in this process, so its prompts need no read. */
  rememberSpec(runId: string, spec: TeamSpec): void;
  /**
   * Notes a session the host reported idle before its spawn returned; the member is moved
   * to `idle` as soon as the runtime records the session.
   */
  rememberEarlyIdle(sessionId: string): void;
}

// Members start while a run is set up or working; a run asked to shut down starts nobody new.
const SPAWNING_RUN_STATUSES: readonly RunStatus[] = ['creating', 'active'];

// Early idle reports of sessions that never turn out to be ours must not pile up forever.
const MAX_EARLY_IDLE = 1_000;

/** The prompt a member starts with: its own prompt, then the team protocol in the adapter's words. */
export function memberPrompt(
  ctx: RuntimeContext,
  spec: TeamSpec,
  state: RuntimeState,
  member: RunMember,
  vocabulary: TeamToolVocabulary = ctx.vocabulary,
): string {
  const base = spec.members.find((candidate) => candidate.name === member.name)?.prompt ?? '';
  const protocol = renderTeamProtocol({
    runId: state.runId,
    teamName: state.teamName,
    member: member.name,
    role: member.role,
    lead: requireLead(state).name,
    members: state.members.map(({ name, role }) => ({ name, role })),
    vocabulary,
  });
  return `${base.trim()}\n\n${protocol}\n`;
}

/** Creates the spawning part of a runtime: the parallel bound, prompts, early idle reports. */
export function createSpawner(ctx: RuntimeContext): Spawner {
  const specs = new Map<string, TeamSpec>();
  const earlyIdle = new Set<string>();

  async function specOf(state: RuntimeState): Promise<TeamSpec> {
    const cached = specs.get(state.runId);
    if (cached !== undefined) return cached;
    const spec = await readRunSpec(ctx, state);
    specs.set(state.runId, spec);
    return spec;
  }

  async function spawnOne(state: RuntimeState, spec: TeamSpec, member: RunMember): Promise<string> {
    // A fresh secret per spawn, its hash recorded before the process can use it.
    const token = await issueMemberCredential(ctx.home, state.runId, member.name, ctx.stateOptions);
    const vocabulary =
      (await ctx.vocabularyFor?.(state.runId, {
        name: member.name,
        role: member.role,
        isLead: member.isLead,
      })) ?? ctx.vocabulary;
    const { sessionId } = await ctx.host.spawnMember({
      runId: state.runId,
      teamName: state.teamName,
      member: {
        name: member.name,
        role: member.role,
        isLead: member.isLead,
        ...(member.model === undefined ? {} : { model: member.model }),
        ...(member.color === undefined ? {} : { color: member.color }),
        prompt: memberPrompt(ctx, spec, state, member, vocabulary),
      },
      cwd: member.worktreePath ?? state.repoRoot ?? ctx.home,
      env: {
        TEAMKIT_HOME: ctx.home,
        TEAMKIT_RUN: state.runId,
        TEAMKIT_MEMBER: member.name,
        TEAMKIT_TOKEN: token,
      },
      ...(state.leadSessionId === undefined ? {} : { leadSessionId: state.leadSessionId }),
    });
    try {
      await startMember(
        ctx.home,
        state.runId,
        member.name,
        { sessionId, ...(ctx.machine === undefined ? {} : { machine: ctx.machine }) },
        ctx.stateOptions,
      );
    } catch (error) {
      // The bound check lost a race with another start: do not leave a session nobody tracks.
      const stopped = await stopSession(ctx.host, sessionId);
      if (stopped.kind === 'not-stopped') {
        await ctx.event(state.runId, 'member.stop_failed', [member.name], {
          sessionId,
          reason: stopped.reason,
          code: stopped.code,
        });
      }
      throw error;
    }
    await ctx.event(state.runId, 'member.spawned', [member.name], { sessionId });
    if (earlyIdle.delete(sessionId))
      await ctx.moveIfStill(state.runId, member.name, 'running', 'idle');
    return member.name;
  }

  async function spawnWaitingMembersNow(runId: string): Promise<string[]> {
    const spawned: string[] = [];
    for (;;) {
      const state = await readRunState(ctx.home, runId, ctx.stateOptions);
      if (!SPAWNING_RUN_STATUSES.includes(state.status)) return spawned;
      const next = state.members.find(
        (member) =>
          member.status === 'pending' &&
          member.sessionId === undefined &&
          // A member placed on another machine is that machine's to start.
          (member.machine === undefined || member.machine === ctx.machine),
      );
      if (next === undefined) return spawned;
      const running = state.members.filter(
        (member) => !member.isLead && member.status === 'running',
      ).length;
      if (!next.isLead && running >= state.policy.bounds.maxParallelMembers) return spawned;
      try {
        spawned.push(await spawnOne(state, await specOf(state), next));
      } catch (error) {
        if (isTeamkitError(error, 'BOUND_EXCEEDED')) return spawned;
        throw error;
      }
    }
  }

  return {
    // Two callers must never start the same pending member twice.
    spawnWaitingMembers: oneAtATimePerRun(spawnWaitingMembersNow),
    rememberSpec(runId, spec) {
      specs.set(runId, spec);
    },
    rememberEarlyIdle(sessionId) {
      if (earlyIdle.size >= MAX_EARLY_IDLE) {
        const oldest = earlyIdle.values().next().value;
        if (oldest !== undefined) earlyIdle.delete(oldest);
      }
      earlyIdle.add(sessionId);
    },
  };
}
