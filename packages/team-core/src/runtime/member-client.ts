import {
  type ArtifactListing,
  type ArtifactSummary,
  createRunArtifacts,
  type PublishArtifactInput,
  type RunArtifacts,
} from '../artifacts/index.js';
import { TeamkitError } from '../errors/index.js';
import { createMailbox, type Mailbox, type SendMessageResult } from '../mailbox/index.js';
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
  answerShutdown,
  decidePermission,
  findLead,
  type PermissionDecision,
  type PermissionRequestInput,
  readRunState,
  requestPermission,
  requestShutdown,
} from '../state/index.js';
import type { LockOptions, TeamkitStore } from '../storage/index.js';
import {
  type CreateTaskInput,
  createTaskList,
  type TaskFilter,
  type TaskList,
  type TaskListing,
} from '../tasklist/index.js';

/** Where a member client acts and the seams it uses. */
export interface MemberClientOptions {
  home: string;
  runId: string;
  /** The authenticated member: set by the host (session, process environment), never by an agent. */
  member: string;
  store?: TeamkitStore;
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
  /** Lead only: asks `target` to shut down (records the request and mails it). */
  requestShutdown(target: string, reason?: string): Promise<void>;
  /** Approves this member's open shutdown request and tells the requester. */
  approveShutdown(): Promise<void>;
  /** Rejects this member's open shutdown request with a reason and tells the requester. */
  rejectShutdown(reason: string): Promise<void>;
  /** The run's state as it is now. */
  state(): Promise<RuntimeState>;
  /** Records this member's request to act outside its worktree; the lead decides it. */
  requestPermission(input: Omit<PermissionRequestInput, 'member'>): Promise<PermissionRequest>;
  /** Lead only: approves or denies a pending permission request (`PERMISSION_DENIED` otherwise). */
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

function openShutdownRequest(state: RuntimeState, member: string) {
  return state.shutdownRequests.find(
    (request) =>
      request.member === member &&
      request.approvedAt === undefined &&
      request.rejectedAt === undefined,
  );
}

/**
 * Creates the client of one authenticated member. The member must belong to the run
 * (`UNKNOWN_MEMBER` otherwise, checked on each call against the current roster).
 */
export function createMemberClient(options: MemberClientOptions): MemberClient {
  const { home, runId, member } = options;
  const seams = { home, runId, store: options.store, now: options.now, lock: options.lock };
  const mailbox = createMailbox({ ...seams, newId: options.newId });
  const tasks = createTaskList(seams);
  const stateOptions = {
    store: options.store,
    now: options.now,
    lock: options.lock,
    actor: member,
  };
  const readState = () => readRunState(home, runId, stateOptions);
  let artifacts: RunArtifacts | undefined;
  // The artifacts' keyed store is opened on first use only.
  const runArtifacts = () => {
    artifacts ??= createRunArtifacts({ home, runId, ...(options.now ? { now: options.now } : {}) });
    return artifacts;
  };

  const requireLead = async (operation: string) => {
    const state = await readState();
    const lead = findLead(state);
    if (lead?.name !== member) {
      throw new TeamkitError(
        'NOT_LEAD',
        `Only the lead (${lead?.name ?? 'none'}) may ${operation}.`,
        {
          details: { member, lead: lead?.name, operation },
        },
      );
    }
    return state;
  };

  const answer = async (approve: boolean, reason?: string) => {
    const before = await readState();
    const request = openShutdownRequest(before, member);
    if (request === undefined) {
      throw new TeamkitError(
        'INVALID_TRANSITION',
        `${member} has no open shutdown request to ${approve ? 'approve' : 'reject'}.`,
        { details: { member } },
      );
    }
    await answerShutdown(home, runId, member, { approve, reason }, stateOptions);
    await mailbox.sendMessage({
      from: member,
      to: request.requester,
      kind: approve ? 'shutdown_approved' : 'shutdown_rejected',
      body: approve
        ? `${member} approves the shutdown.`
        : `${member} rejects the shutdown: ${reason ?? ''}`,
      summary: approve ? 'shutdown approved' : 'shutdown rejected',
    });
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
    claimTask: (id) => tasks.claimTask(member, id),
    startTask: (id) => tasks.setTaskStatus(member, id, 'in_progress'),
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
    async requestShutdown(target, reason) {
      if (typeof target !== 'string') {
        throw new TeamkitError('INVALID_INPUT', 'The member to shut down is named by a string.', {
          details: { target: typeof target },
        });
      }
      await requireLead(`ask ${target} to shut down`);
      await requestShutdown(
        home,
        runId,
        { member: target, requester: member, reason },
        stateOptions,
      );
      await mailbox.sendMessage({
        from: member,
        to: target,
        kind: 'shutdown_request',
        body: reason ?? 'Please finish or hand off your work, then approve the shutdown.',
        summary: 'shutdown requested',
      });
    },
    approveShutdown: () => answer(true),
    rejectShutdown: (reason) => answer(false, reason),
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
