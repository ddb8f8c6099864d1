import type { SettingsValues } from '../registry/index.js';
import { openRun, type RunHandle } from '../run-handle/index.js';
import type { RunMember, TeamSpecInput } from '../schema/index.js';
import {
  findMember,
  type ResumeAllReport,
  type RunResumeReport,
  readRunState,
  requireLead,
} from '../state/index.js';
import type { LockOptions, TeamkitStore } from '../storage/index.js';
import type { TmuxRunner } from '../tmux/index.js';
import { createDelivery, type DeliveryReport } from './internal/delivery.js';
import { createRecovery } from './internal/recovery.js';
import {
  createRuntimeContext,
  loadRuntimeSettings,
  type MemberVocabulary,
} from './internal/runtime-context.js';
import { createShutdownReconcile } from './internal/shutdown-reconcile.js';
import { createSpawner } from './internal/spawning.js';
import { type StartRunOptions, type StartRunResult, startRun } from './internal/start-run.js';
import { createStopper, type StopRunOptions, type StopRunReport } from './internal/stop-run.js';
import { createMemberClient, type MemberClient } from './member-client.js';
import { MEMBER_CLIENT_VOCABULARY } from './member-client-vocabulary.js';
import { collectRunStatus, type RunStatusReport } from './run-status.js';
import { findSessionMember, type SessionMember } from './session-index.js';
import {
  assertTeamHost,
  type InterruptOutcome,
  requireHostCapability,
  type TeamHostV1,
} from './team-host.js';
import type { TeamToolVocabulary } from './team-protocol.js';

/** Options for {@link createTeamRuntime}. */
export interface TeamRuntimeOptions {
  /** The Teamkit home folder. */
  home: string;
  /** The harness that runs the members. */
  host: TeamHostV1;
  /** The project whose `.teamkit/` teams and settings are visible (in addition to global ones). */
  project?: string;
  /** tmux panes for members, when the host can attach to sessions; off when absent. */
  tmux?: { runner: TmuxRunner; callerPaneId?: string };
  /** Create git worktrees for members that want one (default true when a repo is given). */
  worktrees?: boolean;
  /**
   * This machine's id when the run's state is shared by several machines: members it
   * spawns are recorded as running here, and pending members placed on another machine
   * are left for that machine to start.
   */
  machine?: string;
  /**
   * With `machine`: whether a member placed on another machine still lives (its
   * heartbeat, say), for resume; without it resume probes every member through the host.
   */
  isAliveElsewhere?: (runId: string, member: RunMember) => Promise<boolean>;
  /**
   * How this adapter's members read mail, send, claim and so on, in the words the team
   * protocol puts in their prompts. Default: the member client's method names.
   */
  vocabulary?: TeamToolVocabulary;
  /**
   * The vocabulary of one member, when members of one run reach their team in different
   * ways (one agent CLI through MCP tools, another through the `team` command); members
   * it answers `undefined` for get `vocabulary`.
   */
  vocabularyFor?: MemberVocabulary;
  /** Run {@link TeamRuntime.resumeAll} before returning (default true). */
  resumeOnStart?: boolean;
  /** Settings that win over the config files (tests, embedders with their own config). */
  settings?: Partial<SettingsValues>;
  /** Where the run's state lives (required: the front door chose it). */
  store: TeamkitStore;
  now?: () => number;
  /** Lock tuning; `timeoutMs` defaults to the `lock.timeoutMs` setting. */
  lock?: LockOptions;
  /** Environment used to find the global config (`TEAMKIT_HOME`, `HOME`); default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** The orchestrator one adapter drives; see {@link createTeamRuntime}. */
export interface TeamRuntime {
  readonly home: string;
  readonly host: TeamHostV1;
  /** The store the runtime was given: where its runs live. */
  readonly store: TeamkitStore;
  /** Run `runId` on the runtime's store and lock tuning, acting as `actor` (default `runtime`). */
  run(runId: string, options?: { actor?: string }): RunHandle;
  /** Resolves a team (id through the registry, or an inline spec), creates the run and spawns its members. */
  startRun(team: string | TeamSpecInput, options?: StartRunOptions): Promise<StartRunResult>;
  /** The client of an authenticated member; the host decides who the caller is. */
  member(runId: string, member: string): MemberClient;
  /** The client of the run's lead. */
  lead(runId: string): Promise<MemberClient>;
  /** Finds the run and member a host session belongs to ({@link findSessionMember}). */
  findSession(sessionId: string): Promise<SessionMember | undefined>;
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
  /**
   * Interrupts a member's current turn through the host's `interrupt`; a host without it
   * is `HOST_CAPABILITY_UNSUPPORTED`. A member without a session answers `unknown`.
   */
  interruptMember(runId: string, member: string): Promise<InterruptOutcome>;
  /** Ends the run: stops members, closes panes, releases tasks, removes worktrees by the safety rule. */
  stopRun(runId: string, options?: StopRunOptions): Promise<StopRunReport>;
  /** Resumes one run after a restart (liveness from the host). */
  resumeRun(runId: string): Promise<RunResumeReport>;
  /** Resumes every working run; runs at start unless `resumeOnStart: false`. */
  resumeAll(): Promise<ResumeAllReport>;
  /** Members, tasks by status, unread counts and recent events of a run. */
  status(runId: string): Promise<RunStatusReport>;
}

/**
 * Creates the harness-neutral orchestrator over a host. It composes its parts (in
 * `internal/`): spawning within the parallel bound, delivery, the shutdown reconcile,
 * one teardown for stop, rollback and resume, and recovery; the host only spawns,
 * delivers and reports liveness. Resumes interrupted runs before it returns (unless told not to).
 */
export async function createTeamRuntime(options: TeamRuntimeOptions): Promise<TeamRuntime> {
  const host = assertTeamHost(options.host);
  const { home } = options;
  const now = options.now ?? Date.now;
  const shared = {
    home,
    ...(options.project === undefined ? {} : { project: options.project }),
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.settings === undefined ? {} : { settings: options.settings }),
  };
  const lock: LockOptions = {
    timeoutMs: (await loadRuntimeSettings(shared))['lock.timeoutMs'],
    ...options.lock,
  };
  const { store } = options;
  const ctx = createRuntimeContext({
    ...shared,
    host,
    store,
    now,
    lock,
    ...(options.tmux === undefined ? {} : { tmux: options.tmux }),
    vocabulary: options.vocabulary ?? MEMBER_CLIENT_VOCABULARY,
    ...(options.vocabularyFor === undefined ? {} : { vocabularyFor: options.vocabularyFor }),
    worktrees: options.worktrees !== false,
    ...(options.machine === undefined ? {} : { machine: options.machine }),
  });
  const seams = { store, now, lock };
  const spawner = createSpawner(ctx);
  const delivery = createDelivery(ctx);
  const stopper = createStopper(ctx);
  const recovery = createRecovery(
    ctx,
    stopper,
    options.machine === undefined || options.isAliveElsewhere === undefined
      ? undefined
      : { machine: options.machine, isAlive: options.isAliveElsewhere },
  );
  const reconcile = createShutdownReconcile(ctx, spawner);
  const findSession = (sessionId: string) => findSessionMember(home, sessionId, ctx.stateOptions);

  const runtime: TeamRuntime = {
    home,
    host,
    store,
    run: (runId, runOptions = {}) =>
      openRun({ home, runId, store, now, lock, actor: runOptions.actor ?? 'runtime' }),
    startRun: (team, startOptions = {}) => startRun(ctx, { spawner, stopper }, team, startOptions),
    member(runId, member) {
      return createMemberClient({ home, runId, member, ...seams });
    },
    async lead(runId) {
      const state = await readRunState(home, runId, ctx.stateOptions);
      return createMemberClient({ home, runId, member: requireLead(state).name, ...seams });
    },
    findSession,
    async onMemberIdle(sessionId) {
      const found = await findSession(sessionId);
      if (found === undefined) {
        spawner.rememberEarlyIdle(sessionId);
        return undefined;
      }
      await ctx.moveIfStill(found.runId, found.member, 'running', 'idle');
      await reconcile(found.runId);
      const report = await delivery.deliverPending(found.runId, found.member);
      // Capacity may have freed: members waiting for the parallel bound get their turn.
      await spawner.spawnWaitingMembers(found.runId);
      const after = await readRunState(home, found.runId, ctx.stateOptions);
      for (const other of after.members) {
        if (other.name !== found.member && other.status === 'idle')
          await delivery.deliverPending(found.runId, other.name);
      }
      return report;
    },
    deliverPending: delivery.deliverPending,
    spawnWaitingMembers: spawner.spawnWaitingMembers,
    reconcile,
    async requestShutdown(runId, member, reason) {
      await (await runtime.lead(runId)).requestShutdown(member, reason);
      await delivery.deliverPending(runId, member);
    },
    async interruptMember(runId, member) {
      const interrupt = requireHostCapability(host, 'interrupt');
      const target = findMember(await readRunState(home, runId, ctx.stateOptions), member);
      if (target.sessionId === undefined) return 'unknown';
      const outcome = await interrupt(target.sessionId);
      await ctx.event(runId, 'member.interrupted', [member], { outcome });
      return outcome;
    },
    stopRun: (runId, stopOptions) => stopper.stopRun(runId, stopOptions),
    resumeRun: recovery.resumeRun,
    resumeAll: recovery.resumeAll,
    status: (runId) => collectRunStatus({ home, runId, ...seams }),
  };

  if (options.resumeOnStart !== false) await runtime.resumeAll();
  return runtime;
}
