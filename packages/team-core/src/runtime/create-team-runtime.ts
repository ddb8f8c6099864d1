import { isTeamkitError, TeamkitError } from '../errors/index.js';
import { issueMemberCredential } from '../identity/issue-member-credential.js';
import { createMailbox } from '../mailbox/index.js';
import { loadTeamLibrary, resolveTeam } from '../registry/index.js';
import { describeIssues } from '../schema/describe-issues.js';
import {
  type RunMember,
  type RuntimeState,
  type TeamSpec,
  type TeamSpecInput,
  TeamSpecSchema,
} from '../schema/index.js';
import {
  assertCanTakeTurn,
  createRunState,
  listRuns,
  type RecoveryActions,
  type ResumeAllReport,
  type RunResumeReport,
  readRunState,
  recordTurn,
  requireLead,
  resumeAll,
  resumeRun,
  startMember,
  transitionMember,
  transitionRun,
  updateRunState,
} from '../state/index.js';
import {
  appendRunEvent,
  createFileStore,
  type LockOptions,
  runPaths,
  type TeamkitStore,
} from '../storage/index.js';
import { createTaskList } from '../tasklist/index.js';
import { closeMemberPane, closeRunLayout, openRunLayout, type TmuxRunner } from '../tmux/index.js';
import { createMemberWorktree, removeMemberWorktree } from '../worktree/index.js';
import { createMemberClient, type MemberClient } from './member-client.js';
import { renderMessages } from './render-messages.js';
import { collectRunStatus, type RunStatusReport } from './run-status.js';
import { assertTeamHost, type TeamHostV1 } from './team-host.js';
import { renderTeamProtocol, type TeamProtocolChannel } from './team-protocol.js';

/** Options for {@link createTeamRuntime}. */
export interface TeamRuntimeOptions {
  /** The Teamkit home folder. */
  home: string;
  /** The harness that runs the members. */
  host: TeamHostV1;
  /** The project whose `.teamkit/` teams are visible (in addition to global ones). */
  project?: string;
  /** tmux panes for members, when the host can attach to sessions; off when absent. */
  tmux?: { runner: TmuxRunner; callerPaneId?: string };
  /** Create git worktrees for members that want one (default true when a repo is given). */
  worktrees?: boolean;
  /** How members reach the team from their prompt: `team` commands or `team_*` tools. Default `cli`. */
  channel?: TeamProtocolChannel;
  /** Run {@link TeamRuntime.resumeAll} before returning (default true). */
  resumeOnStart?: boolean;
  store?: TeamkitStore;
  now?: () => number;
  lock?: LockOptions;
  /** Environment used to find the global config (`TEAMKIT_HOME`, `HOME`); default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** Options for {@link TeamRuntime.startRun}. */
export interface StartRunOptions {
  /** The lead's existing session (e.g. the OpenCode session that asked for the team); the lead is then not spawned. */
  leadSessionId?: string;
  /** The git repository members work in; members with `worktree: true` get their own worktree of it. */
  repo?: string;
  /** The commit-ish worktrees start from (default `HEAD`). */
  baseRef?: string;
  /** A run id to use instead of a fresh UUID. */
  runId?: string;
}

/** What {@link TeamRuntime.startRun} made. */
export interface StartRunResult {
  runId: string;
  state: RuntimeState;
  /** Members spawned now; the rest wait (pending) until the parallel bound lets them start. */
  spawned: string[];
  waiting: string[];
  /** The tmux outcome: panes opened, skipped (and why), or failed (and why). */
  layout: {
    status: 'opened' | 'skipped' | 'failed';
    reason?: string;
    panes?: Record<string, string>;
  };
}

/** What {@link TeamRuntime.deliverPending} did for one member. */
export interface DeliveryReport {
  member: string;
  delivered: string[];
  deferred: string[];
  /** Why nothing (more) was delivered: no mail, no session, busy, a bound, or a host failure. */
  stoppedBecause?: string;
}

/** What {@link TeamRuntime.stopRun} did. */
export interface StopRunReport {
  runId: string;
  stopped: string[];
  /** Members whose sessions could not be stopped (host without `stopMember`, or a failure), with the reason. */
  notStopped: { member: string; reason: string }[];
  releasedTasks: string[];
  removedWorktrees: string[];
  keptWorktrees: { member: string; path: string; reason: string }[];
  panesClosed: string[];
  status: RuntimeState['status'];
}

/** The orchestrator one adapter drives; see {@link createTeamRuntime}. */
export interface TeamRuntime {
  readonly home: string;
  readonly host: TeamHostV1;
  /** Resolves a team (id through the registry, or an inline spec), creates the run and spawns its members. */
  startRun(team: string | TeamSpecInput, options?: StartRunOptions): Promise<StartRunResult>;
  /** The client of an authenticated member; the host decides who the caller is. */
  member(runId: string, member: string): MemberClient;
  /** The client of the run's lead. */
  lead(runId: string): Promise<MemberClient>;
  /** Finds the run and member a host session belongs to. */
  findSession(sessionId: string): Promise<{ runId: string; member: string } | undefined>;
  /** The host reports a session idle: record it, deliver its mail, and start waiting members. */
  onMemberIdle(sessionId: string): Promise<DeliveryReport | undefined>;
  /** Delivers a member's unread mail through the host; at most one delivery runs per member. */
  deliverPending(runId: string, member: string): Promise<DeliveryReport>;
  /** Starts pending members while the parallel bound allows. */
  spawnWaitingMembers(runId: string): Promise<string[]>;
  /** Stops members that approved their shutdown: session, pane, open tasks. */
  reconcile(runId: string): Promise<string[]>;
  /** Asks a member to shut down on the lead's behalf. */
  requestShutdown(runId: string, member: string, reason?: string): Promise<void>;
  /** Ends the run: stops members, closes panes, releases tasks, removes worktrees by the safety rule. */
  stopRun(runId: string, options?: { force?: boolean }): Promise<StopRunReport>;
  /** Resumes one run after a restart (liveness from the host). */
  resumeRun(runId: string): Promise<RunResumeReport>;
  /** Resumes every working run; runs at start unless `resumeOnStart: false`. */
  resumeAll(): Promise<ResumeAllReport>;
  /** Members, tasks by status, unread counts and recent events of a run. */
  status(runId: string): Promise<RunStatusReport>;
}

/** Wraps `fn` so calls for the same run id run one after another, never concurrently. */
function oneAtATimePerRun<T>(fn: (runId: string) => Promise<T>): (runId: string) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>();
  return (runId) => {
    const previous = tails.get(runId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => fn(runId));
    tails.set(runId, next);
    return next.finally(() => {
      if (tails.get(runId) === next) tails.delete(runId);
    });
  };
}

function emptyStopReport(runId: string, status: RuntimeState['status']): StopRunReport {
  return {
    runId,
    stopped: [],
    notStopped: [],
    releasedTasks: [],
    removedWorktrees: [],
    keptWorktrees: [],
    panesClosed: [],
    status,
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Creates the harness-neutral orchestrator over a host. It composes the registry, run
 * state, mailbox, task list, worktrees and tmux; the host only spawns, delivers and
 * reports liveness. Resumes interrupted runs before it returns (unless told not to).
 */
export async function createTeamRuntime(options: TeamRuntimeOptions): Promise<TeamRuntime> {
  const host = assertTeamHost(options.host);
  const home = options.home;
  const store = options.store ?? createFileStore();
  const now = options.now ?? Date.now;
  const seams = { store, now, lock: options.lock };
  const stateOptions = { ...seams, actor: 'runtime' };
  const channel = options.channel ?? 'cli';
  const inFlight = new Map<string, { again: boolean; done: Promise<DeliveryReport> }>();
  // A host may report a new session idle before spawnMember has returned its id to us.
  const idleBeforeKnown = new Set<string>();

  const mailboxOf = (runId: string) => createMailbox({ home, runId, ...seams });
  const tasksOf = (runId: string) => createTaskList({ home, runId, ...seams });
  const leadOf = requireLead;
  const event = (runId: string, type: string, ids: string[] = [], data?: Record<string, unknown>) =>
    appendRunEvent(
      store,
      runPaths(home, runId).events,
      { runId, actor: 'runtime', type, ids, data },
      now,
    );

  async function resolveSpec(
    team: string | TeamSpecInput,
  ): Promise<{ spec: TeamSpec; source: RuntimeState['teamSource'] }> {
    if (typeof team === 'string') {
      const library = await loadTeamLibrary({ home, project: options.project, env: options.env });
      const effective = resolveTeam(library, team);
      return {
        spec: effective.spec,
        source: { scope: effective.builtin ? 'builtin' : effective.scope, path: effective.folder },
      };
    }
    const parsed = TeamSpecSchema.safeParse(team);
    if (!parsed.success) {
      const issues = describeIssues(parsed.error);
      throw new TeamkitError('INVALID_TEAM', `The inline team is invalid: ${issues.join('; ')}.`, {
        details: { issues },
      });
    }
    return { spec: parsed.data, source: { scope: 'inline' } };
  }

  function memberPrompt(spec: TeamSpec, state: RuntimeState, member: RunMember): string {
    const base = spec.members.find((candidate) => candidate.name === member.name)?.prompt ?? '';
    const protocol = renderTeamProtocol({
      runId: state.runId,
      teamName: state.teamName,
      member: member.name,
      role: member.role,
      lead: leadOf(state).name,
      members: state.members.map(({ name, role }) => ({ name, role })),
      channel,
    });
    return `${base.trim()}\n\n${protocol}\n`;
  }

  async function spawnOne(state: RuntimeState, spec: TeamSpec, member: RunMember): Promise<string> {
    // A fresh secret per spawn, its hash recorded before the process can use it.
    const token = await issueMemberCredential(home, state.runId, member.name, stateOptions);
    const env = {
      TEAMKIT_HOME: home,
      TEAMKIT_RUN: state.runId,
      TEAMKIT_MEMBER: member.name,
      TEAMKIT_TOKEN: token,
    };
    const { sessionId } = await host.spawnMember({
      runId: state.runId,
      teamName: state.teamName,
      member: {
        name: member.name,
        role: member.role,
        isLead: member.isLead,
        ...(member.model === undefined ? {} : { model: member.model }),
        ...(member.color === undefined ? {} : { color: member.color }),
        prompt: memberPrompt(spec, state, member),
      },
      cwd: member.worktreePath ?? state.repoRoot ?? home,
      env,
      ...(state.leadSessionId === undefined ? {} : { leadSessionId: state.leadSessionId }),
    });
    try {
      await startMember(home, state.runId, member.name, { sessionId }, stateOptions);
    } catch (error) {
      // The bound check lost a race with another start: do not leave a session nobody tracks.
      await host.stopMember?.(sessionId).catch(() => {});
      throw error;
    }
    await event(state.runId, 'member.spawned', [member.name], { sessionId });
    if (idleBeforeKnown.delete(sessionId))
      await moveIfStill(state.runId, member.name, 'running', 'idle');
    return member.name;
  }

  /**
   * Moves a member between `running` and `idle` only if it is still in `from` under the
   * state lock; a member that meanwhile stopped or errored is left alone. Returns whether it moved.
   */
  async function moveIfStill(
    runId: string,
    member: string,
    from: 'running' | 'idle',
    to: 'running' | 'idle',
  ): Promise<boolean> {
    let moved = false;
    await updateRunState(
      home,
      runId,
      (draft) => {
        const target = draft.members.find((candidate) => candidate.name === member);
        if (target?.status === from) {
          target.status = to;
          target.lastSeenAt = now();
          moved = true;
        }
        return draft;
      },
      stateOptions,
    );
    return moved;
  }

  const specs = new Map<string, TeamSpec>();
  const specFile = (runId: string) => `${runPaths(home, runId).root}/team.json`;

  async function specOf(state: RuntimeState): Promise<TeamSpec> {
    const cached = specs.get(state.runId);
    if (cached !== undefined) return cached;
    // After a restart the team is read back from the copy the run saved when it started.
    const saved = await store
      .readDocument(specFile(state.runId), TeamSpecSchema)
      .catch(() => undefined);
    const lead = leadOf(state);
    const spec =
      saved ??
      TeamSpecSchema.parse({
        id: state.teamName,
        name: state.teamName,
        lead: lead.name,
        members: state.members.map((member) => ({
          name: member.name,
          role: member.role,
          prompt: `You are ${member.name}, the ${member.role} of team ${state.teamName}.`,
        })),
        policy: state.policy,
      });
    specs.set(state.runId, spec);
    return spec;
  }

  // One spawner per run at a time: two callers must never start the same pending member twice.
  const spawnWaitingMembers = oneAtATimePerRun(spawnWaitingMembersNow);

  async function spawnWaitingMembersNow(runId: string): Promise<string[]> {
    const spawned: string[] = [];
    for (;;) {
      const state = await readRunState(home, runId, stateOptions);
      if (state.status !== 'creating' && state.status !== 'active') return spawned;
      const next = state.members.find(
        (member) => member.status === 'pending' && member.sessionId === undefined,
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

  /** Removes a member's worktree by the safety rule (unsaved work refuses unless `force`). */
  function removeWorktreeOf(
    state: RuntimeState,
    member: RunMember,
    extra: { force?: boolean; deleteBranch?: boolean },
  ) {
    return removeMemberWorktree({
      home,
      repoRoot: state.repoRoot as string,
      runId: state.runId,
      member: member.name,
      ...(member.baseRef === undefined ? {} : { baseRef: member.baseRef }),
      ...extra,
    });
  }

  async function rollbackCreated(runId: string): Promise<string[]> {
    const removed: string[] = [];
    const state = await readRunState(home, runId, stateOptions);
    for (const member of state.members) {
      if (
        member.sessionId !== undefined &&
        member.sessionId !== state.leadSessionId &&
        host.stopMember
      ) {
        await host.stopMember(member.sessionId).then(
          () => removed.push(`session ${member.sessionId}`),
          () => {},
        );
      }
    }
    if (state.tmuxLayout !== undefined && options.tmux !== undefined) {
      const report = await closeRunLayout({
        home,
        runId,
        runner: options.tmux.runner,
        ...stateOptions,
      }).catch(() => undefined);
      removed.push(...(report?.killed ?? []).map((pane) => `pane ${pane}`));
    }
    for (const member of state.members) {
      if (member.worktreePath === undefined || state.repoRoot === undefined) continue;
      try {
        const report = await removeWorktreeOf(state, member, { deleteBranch: true });
        if (report.removed) removed.push(`worktree ${report.path}`);
      } catch {
        // Unsaved work stays; the orphan sweep reports it later.
      }
    }
    return removed;
  }

  async function deliverOnce(runId: string, memberName: string): Promise<DeliveryReport> {
    const report: DeliveryReport = { member: memberName, delivered: [], deferred: [] };
    const mailbox = mailboxOf(runId);
    for (let round = 0; round < 100; round += 1) {
      const state = await readRunState(home, runId, stateOptions);
      const member = state.members.find((candidate) => candidate.name === memberName);
      if (member === undefined)
        throw new TeamkitError('UNKNOWN_MEMBER', `Run ${runId} has no member ${memberName}.`);
      if (member.sessionId === undefined || !['running', 'idle'].includes(member.status)) {
        report.stoppedBecause = 'no live session';
        return report;
      }
      const unread = (await mailbox.listUnread(memberName)).messages;
      if (unread.length === 0) {
        report.stoppedBecause ??= 'no mail';
        return report;
      }
      if (member.status === 'idle' && !member.isLead) {
        try {
          if (!(await moveIfStill(runId, memberName, 'idle', 'running'))) continue;
        } catch (error) {
          if (!isTeamkitError(error, 'BOUND_EXCEEDED')) throw error;
          report.stoppedBecause = 'parallel bound reached; delivered when another member is idle';
          return report;
        }
      }
      const { reserved } = await mailbox.reserve(
        memberName,
        unread.map((message) => message.messageId),
      );
      if (reserved.length === 0) continue;
      const ids = reserved.map((message) => message.messageId);
      // A delivery is a turn: check the bounds before handing anything over, and count
      // the turn only once the host confirmed it.
      try {
        assertCanTakeTurn(state, memberName, now());
      } catch (error) {
        await mailbox.release(memberName, ids);
        if (!isTeamkitError(error, 'BOUND_EXCEEDED') && !isTeamkitError(error, 'RUN_NOT_ACTIVE')) {
          throw error;
        }
        report.stoppedBecause = error.message;
        return report;
      }
      await updateRunState(
        home,
        runId,
        (draft) => {
          const target = draft.members.find((candidate) => candidate.name === memberName);
          if (target !== undefined)
            target.pendingDeliveryIds = [...new Set([...target.pendingDeliveryIds, ...ids])];
          return draft;
        },
        stateOptions,
      );
      let outcome: 'delivered' | 'deferred' | 'failed';
      try {
        outcome = await host.deliver({
          runId,
          member: memberName,
          sessionId: member.sessionId,
          messages: reserved,
          text: renderMessages(reserved),
        });
      } catch (error) {
        outcome = 'failed';
        report.stoppedBecause = `host failed to deliver: ${messageOf(error)}`;
      }
      if (outcome === 'delivered') await mailbox.commit(memberName, ids);
      else await mailbox.release(memberName, ids);
      await updateRunState(
        home,
        runId,
        (draft) => {
          const target = draft.members.find((candidate) => candidate.name === memberName);
          if (target !== undefined)
            target.pendingDeliveryIds = target.pendingDeliveryIds.filter((id) => !ids.includes(id));
          return draft;
        },
        stateOptions,
      );
      await event(runId, `delivery.${outcome}`, ids, { member: memberName });
      if (outcome !== 'delivered') {
        report.deferred.push(...ids);
        report.stoppedBecause ??= 'session busy';
        return report;
      }
      report.delivered.push(...ids);
      await recordTurn(home, runId, memberName, stateOptions);
    }
    report.stoppedBecause = 'delivery round limit';
    return report;
  }

  function deliverPending(runId: string, member: string): Promise<DeliveryReport> {
    const key = `${runId}/${member}`;
    const current = inFlight.get(key);
    if (current !== undefined) {
      current.again = true;
      return current.done;
    }
    const entry = { again: false, done: Promise.resolve() as unknown as Promise<DeliveryReport> };
    entry.done = (async () => {
      const merged: DeliveryReport = { member, delivered: [], deferred: [] };
      try {
        do {
          entry.again = false;
          const round = await deliverOnce(runId, member);
          merged.delivered.push(...round.delivered);
          merged.deferred.push(...round.deferred);
          merged.stoppedBecause = round.stoppedBecause;
        } while (entry.again);
        return merged;
      } finally {
        inFlight.delete(key);
      }
    })();
    inFlight.set(key, entry);
    return entry.done;
  }

  async function findSession(sessionId: string) {
    for (const state of (await listRuns(home, stateOptions)).runs) {
      const member = state.members.find((candidate) => candidate.sessionId === sessionId);
      if (member !== undefined) return { runId: state.runId, member: member.name };
    }
    return undefined;
  }

  async function stopMemberSession(
    state: RuntimeState,
    member: RunMember,
  ): Promise<string | undefined> {
    if (member.sessionId === undefined || member.sessionId === state.leadSessionId)
      return undefined;
    if (host.stopMember === undefined) {
      return (await host.isAlive(member.sessionId).catch(() => true))
        ? `host "${host.hostId}" cannot stop sessions (HOST_CAPABILITY_UNSUPPORTED)`
        : undefined;
    }
    try {
      await host.stopMember(member.sessionId);
      return undefined;
    } catch (error) {
      return messageOf(error);
    }
  }

  // One reconcile pass per run at a time: concurrent idle reports must not stop a member twice.
  const reconcile = oneAtATimePerRun(reconcileOnce);

  async function reconcileOnce(runId: string): Promise<string[]> {
    const state = await readRunState(home, runId, stateOptions);
    const finished: string[] = [];
    for (const member of state.members.filter(
      (candidate) => candidate.status === 'shutdown_approved',
    )) {
      const reason = await stopMemberSession(state, member);
      if (reason !== undefined) {
        await event(runId, 'member.stop_failed', [member.name], { reason });
        continue;
      }
      if (options.tmux !== undefined && state.tmuxLayout?.paneIds[member.name] !== undefined) {
        await closeMemberPane(options.tmux.runner, runId, state.tmuxLayout, member.name).catch(
          () => {},
        );
      }
      await tasksOf(runId).releaseTasksOf(leadOf(state).name, member.name);
      await transitionMember(home, runId, member.name, 'terminated', {
        ...stateOptions,
        reason: 'shutdown approved',
      });
      await event(runId, 'member.terminated', [member.name]);
      finished.push(member.name);
    }
    if (finished.length > 0) await spawnWaitingMembers(runId);
    return finished;
  }

  const recovery: RecoveryActions = {
    async releaseTasksOf(runId, member) {
      const state = await readRunState(home, runId, stateOptions);
      return (await tasksOf(runId).releaseTasksOf(leadOf(state).name, member)).map(
        (task) => task.id,
      );
    },
    async reclaimReservations(runId, member) {
      const outcome = await mailboxOf(runId).reclaimStaleReservations(0, member);
      return outcome.reclaimed.map((entry) => entry.messageId);
    },
    rollbackRun: (state) => rollbackCreated(state.runId),
    async finishDeletion(state) {
      const report = await finishStop(state.runId, false);
      return [...report.removedWorktrees, ...report.panesClosed];
    },
  };

  /**
   * A restarted runtime owns no delivery in flight: anything still reserved for a member
   * was cut off mid-delivery and goes back to unread (receivers dedupe by id). Only one
   * runtime delivers for a run at a time.
   */
  async function reclaimInterruptedDeliveries(runId: string): Promise<void> {
    const state = await readRunState(home, runId, stateOptions);
    if (state.status !== 'active' && state.status !== 'shutdown_requested') return;
    const mailbox = mailboxOf(runId);
    for (const member of state.members) {
      await mailbox.reclaimStaleReservations(0, member.name);
    }
    if (state.members.some((member) => member.pendingDeliveryIds.length > 0)) {
      await updateRunState(
        home,
        runId,
        (draft) => {
          for (const member of draft.members) member.pendingDeliveryIds = [];
          return draft;
        },
        stateOptions,
      );
    }
  }

  async function resumeOne(runId: string): Promise<RunResumeReport> {
    const report = await resumeRun(home, runId, host, { ...stateOptions, recovery });
    await reclaimInterruptedDeliveries(runId);
    return report;
  }

  async function finishStop(runId: string, force: boolean): Promise<StopRunReport> {
    const state = await readRunState(home, runId, stateOptions);
    const report = emptyStopReport(runId, state.status);
    const lead = leadOf(state).name;
    for (const member of state.members) {
      if (member.status === 'terminated') continue;
      const reason = await stopMemberSession(state, member);
      if (reason !== undefined) report.notStopped.push({ member: member.name, reason });
      else if (member.sessionId !== undefined && member.sessionId !== state.leadSessionId)
        report.stopped.push(member.name);
      const released = await tasksOf(runId)
        .releaseTasksOf(lead, member.name)
        .catch(() => []);
      report.releasedTasks.push(...released.map((task) => task.id));
    }
    if (state.tmuxLayout !== undefined && options.tmux !== undefined) {
      const closed = await closeRunLayout({
        home,
        runId,
        runner: options.tmux.runner,
        ...stateOptions,
      });
      report.panesClosed.push(...closed.killed);
    }
    for (const member of state.members) {
      if (member.worktreePath === undefined || state.repoRoot === undefined) continue;
      try {
        const removed = await removeWorktreeOf(state, member, { force });
        if (removed.removed) report.removedWorktrees.push(removed.path);
      } catch (error) {
        if (!isTeamkitError(error, 'WORKTREE_HAS_UNSAVED_WORK')) throw error;
        report.keptWorktrees.push({
          member: member.name,
          path: member.worktreePath,
          reason: error.message,
        });
      }
    }
    return report;
  }

  const runtime: TeamRuntime = {
    home,
    host,
    async startRun(team, startOptions = {}) {
      const { spec, source } = await resolveSpec(team);
      let state = await createRunState(
        home,
        {
          spec,
          teamSource: source,
          hostId: host.hostId,
          ...(startOptions.repo === undefined ? {} : { repoRoot: startOptions.repo }),
          ...(startOptions.leadSessionId === undefined
            ? {}
            : { leadSessionId: startOptions.leadSessionId }),
          ...(startOptions.runId === undefined ? {} : { runId: startOptions.runId }),
        },
        stateOptions,
      );
      const runId = state.runId;
      specs.set(runId, spec);
      const result: StartRunResult = {
        runId,
        state,
        spawned: [],
        waiting: [],
        layout: { status: 'skipped' },
      };
      try {
        await store.writeDocument(specFile(runId), TeamSpecSchema, spec);
        if (startOptions.repo !== undefined && options.worktrees !== false) {
          for (const wish of spec.members.filter((member) => member.worktree)) {
            const worktree = await createMemberWorktree({
              home,
              repoRoot: startOptions.repo,
              runId,
              member: wish.name,
              ...(startOptions.baseRef === undefined ? {} : { baseRef: startOptions.baseRef }),
            });
            state = await updateRunState(
              home,
              runId,
              (draft) => {
                const target = draft.members.find((member) => member.name === wish.name);
                if (target !== undefined) {
                  target.worktreePath = worktree.path;
                  target.branch = worktree.branch;
                  target.baseRef = worktree.baseCommit;
                }
                draft.repoRoot = worktree.repoRoot;
                return draft;
              },
              stateOptions,
            );
          }
        }
        const lead = leadOf(state);
        if (startOptions.leadSessionId !== undefined) {
          await startMember(
            home,
            runId,
            lead.name,
            { sessionId: startOptions.leadSessionId },
            stateOptions,
          );
        }
        result.spawned = await spawnWaitingMembers(runId);
        if (options.tmux !== undefined) {
          const attach = host.attachCommand?.bind(host);
          if (attach === undefined) {
            result.layout = {
              status: 'skipped',
              reason: `host "${host.hostId}" has no attach command`,
            };
          } else {
            try {
              const layout = await openRunLayout({
                home,
                runId,
                runner: options.tmux.runner,
                ...(options.tmux.callerPaneId === undefined
                  ? {}
                  : { callerPaneId: options.tmux.callerPaneId }),
                attachCommand: (member) =>
                  member.sessionId === undefined ? undefined : attach(member.sessionId),
                ...stateOptions,
              });
              result.layout = { status: 'opened', panes: layout.paneIds };
            } catch (error) {
              result.layout = { status: 'failed', reason: messageOf(error) };
              await event(runId, 'tmux.failed', [], { reason: messageOf(error) });
            }
          }
        }
        result.state = await transitionRun(home, runId, 'active', stateOptions);
        result.waiting = result.state.members
          .filter((member) => member.status === 'pending')
          .map((member) => member.name);
        return result;
      } catch (error) {
        const removed = await rollbackCreated(runId).catch(() => []);
        await transitionRun(home, runId, 'failed', {
          ...stateOptions,
          reason: messageOf(error),
        }).catch(() => {});
        await event(runId, 'run.rolled_back', [], { reason: messageOf(error), removed });
        throw error;
      }
    },
    member(runId, member) {
      return createMemberClient({ home, runId, member, ...seams });
    },
    async lead(runId) {
      const state = await readRunState(home, runId, stateOptions);
      return createMemberClient({ home, runId, member: leadOf(state).name, ...seams });
    },
    findSession,
    async onMemberIdle(sessionId) {
      const found = await findSession(sessionId);
      if (found === undefined) {
        idleBeforeKnown.add(sessionId);
        return undefined;
      }
      await moveIfStill(found.runId, found.member, 'running', 'idle');
      await reconcile(found.runId);
      const report = await deliverPending(found.runId, found.member);
      // Capacity may have freed: members waiting for the parallel bound get their turn.
      await spawnWaitingMembers(found.runId);
      const after = await readRunState(home, found.runId, stateOptions);
      for (const other of after.members) {
        if (other.name !== found.member && other.status === 'idle')
          await deliverPending(found.runId, other.name);
      }
      return report;
    },
    deliverPending,
    spawnWaitingMembers,
    reconcile,
    async requestShutdown(runId, member, reason) {
      await (await runtime.lead(runId)).requestShutdown(member, reason);
      await deliverPending(runId, member);
    },
    async stopRun(runId, stopOptions = {}) {
      const state = await readRunState(home, runId, stateOptions);
      if (state.status === 'deleted' || state.status === 'failed') {
        return emptyStopReport(runId, state.status);
      }
      if (state.status === 'creating') {
        await rollbackCreated(runId);
        const failed = await transitionRun(home, runId, 'failed', {
          ...stateOptions,
          reason: 'stopped while creating',
        });
        return emptyStopReport(runId, failed.status);
      }
      if (state.status !== 'deleting') {
        await transitionRun(home, runId, 'deleting', {
          ...stateOptions,
          reason: stopOptions.force ? 'forced stop' : 'stop',
        });
      }
      const report = await finishStop(runId, stopOptions.force === true);
      for (const member of (await readRunState(home, runId, stateOptions)).members) {
        if (member.status === 'terminated') continue;
        if (member.status !== 'errored' && member.status !== 'shutdown_approved') {
          await transitionMember(home, runId, member.name, 'shutdown_approved', {
            ...stateOptions,
            reason: 'run stopped',
          });
        }
        await transitionMember(home, runId, member.name, 'terminated', {
          ...stateOptions,
          reason: 'run stopped',
        });
      }
      const final = await transitionRun(home, runId, 'deleted', stateOptions);
      report.status = final.status;
      await event(runId, 'run.stopped', [], {
        force: stopOptions.force === true,
        keptWorktrees: report.keptWorktrees.length,
      });
      return report;
    },
    resumeRun: resumeOne,
    async resumeAll() {
      const report = await resumeAll(home, host, { ...stateOptions, recovery });
      for (const run of report.runs) {
        await reclaimInterruptedDeliveries(run.runId).catch((error: unknown) => {
          report.failed.push({ runId: run.runId, error: messageOf(error) });
        });
      }
      return report;
    },
    status: (runId) => collectRunStatus({ home, runId, ...seams }),
  };

  if (options.resumeOnStart !== false) await runtime.resumeAll();
  return runtime;
}
