import {
  type ArtifactListing,
  type ArtifactSummary,
  createRunArtifacts,
  type PublishArtifactInput,
  type RunArtifacts,
} from '../artifacts/index.js';
import { TeamkitError } from '../errors/index.js';
import { type MergeRunWorkReport, mergeRunWork } from '../integration/merge-run-work.js';
import { conflictReason, syncWithBlockers } from '../integration/sync-blockers.js';
import { createMailbox, type Mailbox, type SendMessageResult } from '../mailbox/index.js';
import { collectRunReport, type RunReport } from '../report/collect-run-report.js';
import type {
  Artifact,
  Message,
  MessageKind,
  MessageReference,
  PermissionRequest,
  RuntimeState,
  Task,
} from '../schema/index.js';
import {
  decidePermission,
  findLead,
  hasLeadRights,
  type PermissionDecision,
  type PermissionRequestInput,
  readRunState,
  requestPermission,
} from '../state/index.js';
import type { LockOptions, TeamkitStore } from '../storage/index.js';
import {
  type CreateTaskInput,
  createTaskList,
  type TaskFilter,
  type TaskList,
  type TaskListing,
} from '../tasklist/index.js';
import { createGitRunner, type GitRunner } from '../worktree/git-runner.js';
import { type EvidenceClaim, goalOperations } from './member-goal.js';
import {
  answerOwnShutdown,
  requestShutdowns,
  type ShutdownRequestOutcome,
  type ShutdownRequestRecord,
} from './member-shutdown.js';

/** Where a member client acts and the seams it uses. */
export interface MemberClientOptions {
  home: string;
  runId: string;
  /**
   * The authenticated member, or `user` for the person running Teamkit (who acts with
   * the lead's rights): set by the host (session, process environment), never by an agent.
   */
  member: string;
  /** Where the run's state lives (required: the front door chose it). */
  store: TeamkitStore;
  /** The git seam for recording task work and bringing worktrees up to date. */
  git?: GitRunner;
  now?: () => number;
  newId?: () => string;
  lock?: LockOptions;
}

/** A message a member sends. Shutdown kinds go through the shutdown methods instead. */
export interface MemberMessageInput {
  to: string;
  body: string;
  kind?: Exclude<MessageKind, 'shutdown_request' | 'shutdown_approved' | 'shutdown_rejected'>;
  summary?: string;
  references?: MessageReference[];
  correlationId?: string;
}

const LIFECYCLE_KINDS: readonly MessageKind[] = [
  'shutdown_request',
  'shutdown_approved',
  'shutdown_rejected',
];

/**
 * Everything one member of a run may do, bound to that member's identity: mail, tasks
 * and the shutdown protocol. Hosts build one per authenticated caller; the CLI builds
 * one from `TEAMKIT_MEMBER`, the OpenCode plugin from the calling session.
 */
export interface MemberClient {
  readonly runId: string;
  readonly member: string;
  readonly mailbox: Mailbox;
  readonly tasks: TaskList;
  /** Sends to one member, or to `"*"` (broadcast, subject to the team policy). */
  send(input: MemberMessageInput): Promise<SendMessageResult>;
  /** This member's unread mail, oldest first. Reading does not acknowledge. */
  inbox(): Promise<Message[]>;
  /** Marks messages as handled; idempotent. */
  acknowledge(messageIds: readonly string[]): Promise<void>;
  createTask(input: CreateTaskInput): Promise<Task>;
  listTasks(filter?: TaskFilter): Promise<TaskListing>;
  readyTasks(): Promise<Task[]>;
  getTask(id: string): Promise<Task>;
  claimTask(id: string): Promise<Task>;
  startTask(id: string): Promise<Task>;
  completeTask(id: string): Promise<Task>;
  submitForReview(id: string): Promise<Task>;
  approveTask(id: string): Promise<Task>;
  requestChanges(id: string, note: string): Promise<Task>;
  blockTask(id: string, reason: string): Promise<Task>;
  unblockTask(id: string): Promise<Task>;
  cancelTask(id: string, reason: string): Promise<Task>;
  releaseTask(id: string): Promise<Task>;
  deleteTask(id: string, reason?: string): Promise<Task>;
  reassignTask(id: string, owner: string): Promise<Task>;
  /**
   * Lead and user only: asks `target` to shut down, or with `"*"` every member still
   * working but the lead (records each request and mails it, carrying its id).
   */
  requestShutdown(target: string, reason?: string): Promise<ShutdownRequestOutcome>;
  /**
   * Approves this member's open shutdown request (`requestId`, when given, must name it)
   * and tells the requester.
   */
  approveShutdown(requestId?: string): Promise<ShutdownRequestRecord>;
  /** Rejects this member's open shutdown request with a reason and tells the requester. */
  rejectShutdown(reason: string, requestId?: string): Promise<ShutdownRequestRecord>;
  /** Lead and user: gives the run its goal and acceptance criteria (set once; adds criteria after). */
  setGoal(text: string, criteria?: readonly string[]): Promise<RuntimeState>;
  /** Lead and user: adds acceptance criteria to the run's goal. */
  addCriteria(texts: readonly string[]): Promise<RuntimeState>;
  /** Lead and user: attaches a task, a commit or a message as evidence that a criterion is met. */
  attachEvidence(criterionId: string, evidence: EvidenceClaim): Promise<RuntimeState>;
  /** User only: lets the run complete without evidence for a criterion, saying why. */
  waiveCriterion(criterionId: string, reason: string): Promise<RuntimeState>;
  /**
   * Lead and user: merges the approved tasks' work into the run's base branch (or
   * `into`) in dependency order; see `mergeRunWork`.
   */
  mergeWork(options?: { into?: string; dryRun?: boolean }): Promise<MergeRunWorkReport>;
  /** What the run did so far: tasks, commits, messages, turns, criteria, merges, worktrees. */
  report(): Promise<RunReport>;
  /** The run's state as it is now. */
  state(): Promise<RuntimeState>;
  /** Records this member's request to act outside its worktree; the lead decides it. */
  requestPermission(input: Omit<PermissionRequestInput, 'member'>): Promise<PermissionRequest>;
  /** Lead and user: approves or denies a pending permission request (`PERMISSION_DENIED` otherwise). */
  decidePermission(
    requestId: string,
    decision: Omit<PermissionDecision, 'decidedBy'>,
  ): Promise<PermissionRequest>;
  /** Publishes the next version of a named Markdown deliverable of the run, as this member. */
  publishArtifact(input: PublishArtifactInput): Promise<ArtifactSummary>;
  /** A version of an artifact (the newest by default). */
  readArtifact(name: string, revision?: number): Promise<Artifact>;
  /** The run's artifacts with their newest versions. */
  listArtifacts(): Promise<ArtifactListing[]>;
}

/**
 * Creates the client of one authenticated member. The member must belong to the run
 * (`UNKNOWN_MEMBER` otherwise, checked on each call against the current roster).
 */
export function createMemberClient(options: MemberClientOptions): MemberClient {
  const { home, runId, member } = options;
  const seams = { home, runId, store: options.store, now: options.now, lock: options.lock };
  const mailbox = createMailbox({ ...seams, newId: options.newId });
  const git = options.git ?? createGitRunner();
  const tasks = createTaskList({ ...seams, git });
  const stateOptions = {
    store: options.store,
    now: options.now,
    lock: options.lock,
    actor: member,
  };
  const readState = () => readRunState(home, runId, stateOptions);
  let artifacts: RunArtifacts | undefined;
  const runArtifacts = () => {
    artifacts ??= createRunArtifacts({
      home,
      runId,
      store: options.store,
      ...(options.now ? { now: options.now } : {}),
    });
    return artifacts;
  };

  const shutdownParts = {
    home,
    runId,
    caller: member,
    mailbox,
    stateOptions: { ...stateOptions, ...(options.newId ? { newId: options.newId } : {}) },
  };
  const goals = goalOperations({
    home,
    runId,
    caller: member,
    tasks,
    git,
    stateOptions,
    store: options.store,
  });

  // A task whose blockers are done starts from their work: it is merged into the owner's
  // worktree first; a conflict blocks the task with the reason instead of failing silently.
  const bringUpToDate = async (task: Task): Promise<Task> => {
    if (task.blockedBy.length === 0 || task.owner !== member) return task;
    const outcome = await syncWithBlockers({ git, state: await readState(), tasks, member, task });
    if (outcome.conflict === undefined) return task;
    const reason = conflictReason(outcome.conflict);
    const blocked = await tasks.setTaskStatus(member, task.id, 'blocked', { reason });
    const lead = findLead(await readState());
    if (lead !== undefined && lead.name !== member) {
      await mailbox
        .sendMessage({
          from: member,
          to: lead.name,
          kind: 'task_update',
          summary: `task ${task.id} blocked: merge conflict`,
          body: `Task ${task.id} is blocked. ${reason}`,
        })
        .catch(() => undefined);
    }
    return blocked;
  };

  return {
    runId,
    member,
    mailbox,
    tasks,
    async send(input) {
      // `input` may come from an agent's tool call; the mailbox checks its shape.
      if (
        LIFECYCLE_KINDS.includes((input as Partial<MemberMessageInput> | null)?.kind as MessageKind)
      ) {
        throw new TeamkitError(
          'INVALID_INPUT',
          `Messages of kind ${input.kind} are sent by the shutdown operations, not directly.`,
          { details: { kind: input.kind } },
        );
      }
      return mailbox.sendMessage({ ...input, from: member });
    },
    async inbox() {
      return (await mailbox.listUnread(member)).messages;
    },
    async acknowledge(messageIds) {
      await mailbox.acknowledge(member, messageIds);
    },
    createTask: (input) => tasks.createTask(member, input),
    listTasks: (filter) => tasks.listTasks(filter),
    readyTasks: () => tasks.readyTasks(),
    getTask: (id) => tasks.getTask(id),
    claimTask: async (id) => bringUpToDate(await tasks.claimTask(member, id)),
    async startTask(id) {
      const ready = await bringUpToDate(await tasks.getTask(id));
      if (ready.status === 'blocked') return ready;
      return tasks.setTaskStatus(member, id, 'in_progress');
    },
    completeTask: (id) => tasks.setTaskStatus(member, id, 'completed'),
    submitForReview: (id) => tasks.setTaskStatus(member, id, 'in_review'),
    approveTask: (id) => tasks.setTaskStatus(member, id, 'approved'),
    requestChanges: (id, note) => tasks.setTaskStatus(member, id, 'pending', { note }),
    blockTask: (id, reason) => tasks.setTaskStatus(member, id, 'blocked', { reason }),
    unblockTask: (id) => tasks.setTaskStatus(member, id, 'pending'),
    cancelTask: (id, reason) => tasks.setTaskStatus(member, id, 'cancelled', { reason }),
    releaseTask: (id) => tasks.setTaskStatus(member, id, 'pending'),
    deleteTask: (id, reason) => tasks.deleteTask(member, id, reason),
    reassignTask: (id, owner) => tasks.reassignTask(member, id, owner),
    requestShutdown: (target, reason) => requestShutdowns(shutdownParts, target, reason),
    approveShutdown: (requestId) =>
      answerOwnShutdown(shutdownParts, true, requestId === undefined ? {} : { requestId }),
    rejectShutdown: (reason, requestId) =>
      answerOwnShutdown(shutdownParts, false, {
        reason,
        ...(requestId === undefined ? {} : { requestId }),
      }),
    async mergeWork(mergeOptions = {}) {
      const state = await readState();
      if (!hasLeadRights(state, member)) {
        throw new TeamkitError(
          'NOT_LEAD',
          `Only the lead (${findLead(state)?.name ?? 'none'}) and the user may merge the run's work.`,
          { details: { member, operation: 'merge' } },
        );
      }
      return mergeRunWork({
        home,
        runId,
        by: member,
        git,
        ...stateOptions,
        ...(mergeOptions.into === undefined ? {} : { into: mergeOptions.into }),
        ...(mergeOptions.dryRun === undefined ? {} : { dryRun: mergeOptions.dryRun }),
      });
    },
    report: () => collectRunReport({ home, runId, git, ...stateOptions }),
    setGoal: goals.setGoal,
    addCriteria: goals.addCriteria,
    attachEvidence: goals.attachEvidence,
    waiveCriterion: goals.waiveCriterion,
    state: readState,
    requestPermission: (input) =>
      requestPermission(
        home,
        runId,
        { ...input, member },
        { ...stateOptions, newId: options.newId },
      ),
    publishArtifact: (input) => runArtifacts().publish(member, input),
    readArtifact: (name, revision) => runArtifacts().read(name, revision),
    listArtifacts: () => runArtifacts().list(),
    decidePermission: (requestId, decision) =>
      decidePermission(home, runId, requestId, { ...decision, decidedBy: member }, stateOptions),
  };
}
