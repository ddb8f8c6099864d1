import { z } from 'zod';
import { MemberNameSchema, RunIdSchema, TeamNameSchema, TimestampSchema } from './names.js';
import { RunGoalSchema } from './run-goal.js';
import { TeamPolicySchema } from './team-spec.js';

/** Every run status; see the state module's status machine for the allowed moves. */
export const RUN_STATUSES = [
  'creating',
  'active',
  'shutdown_requested',
  'completed',
  'deleting',
  'deleted',
  'failed',
  'orphaned',
] as const;
/** A run status. */
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Every member status. */
export const MEMBER_STATUSES = [
  'pending',
  'running',
  'idle',
  'errored',
  'shutdown_approved',
  'terminated',
] as const;
/** A member status. */
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** One member of a run. */
export const RunMemberSchema = z.strictObject({
  name: MemberNameSchema,
  role: z.string().min(1).max(64),
  isLead: z.boolean(),
  sessionId: z.string().min(1).max(512).optional(),
  /**
   * `sha256:<hex>` of the secret handed to the member's current process (`TEAMKIT_TOKEN`);
   * the secret itself is never written down. Replaced at every spawn.
   */
  credentialHash: z
    .string()
    .regex(/^sha256:[0-9a-f]{64}$/, 'credential hash must be sha256:<64 hex digits>')
    .optional(),
  status: z.enum(MEMBER_STATUSES),
  model: z.string().max(200).optional(),
  color: z.string().max(32).optional(),
  worktreePath: z.string().optional(),
  branch: z.string().optional(),
  /** The commit the member's worktree started from; its work counts as saved once merged there. */
  baseRef: z.string().optional(),
  tmuxPaneId: z.string().optional(),
  /**
   * The machine whose Teamkit home runs the member's process, when the run's state is shared
   * by several machines (a NATS store): its id, or `elsewhere` for a member left for another
   * machine to join (`team run join`). Absent: the machine that started the run.
   */
  machine: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,63}$/)
    .optional(),
  lastSeenAt: TimestampSchema.optional(),
  pendingDeliveryIds: z.array(z.uuid()).default([]),
  turns: z.number().int().nonnegative().default(0),
  statusReason: z.string().max(2_000).optional(),
});
/** One member of a run. */
export type RunMember = z.infer<typeof RunMemberSchema>;

/** A request that a member shut down, and how it was answered. */
export const ShutdownRequestSchema = z.strictObject({
  /** Given to every new request (and carried by its message); absent in files of earlier releases. */
  id: z.uuid().optional(),
  member: MemberNameSchema,
  requester: MemberNameSchema,
  requestedAt: TimestampSchema,
  approvedAt: TimestampSchema.optional(),
  rejectedAt: TimestampSchema.optional(),
  reason: z.string().max(2_000).optional(),
});
/** A shutdown request. */
export type ShutdownRequest = z.infer<typeof ShutdownRequestSchema>;

/** A member's request to act outside its worktree, and its answer. */
export const PermissionRequestSchema = z.strictObject({
  id: z.uuid(),
  member: MemberNameSchema,
  action: z.string().min(1).max(200),
  path: z.string().max(4096).optional(),
  requestedAt: TimestampSchema,
  status: z.enum(['pending', 'approved', 'denied']),
  decidedAt: TimestampSchema.optional(),
  decidedBy: MemberNameSchema.optional(),
  reason: z.string().max(2_000).optional(),
});
/** A permission request. */
export type PermissionRequest = z.infer<typeof PermissionRequestSchema>;

/** The tmux panes a run created, so it removes exactly those. */
export const TmuxLayoutSchema = z.strictObject({
  mode: z.enum(['caller-window', 'detached-session']),
  socket: z.string().optional(),
  sessionName: z.string().optional(),
  windowId: z.string().optional(),
  callerPaneId: z.string().optional(),
  ownedSession: z.boolean(),
  paneIds: z.record(MemberNameSchema, z.string()).default({}),
});
/** A run's tmux layout. */
export type TmuxLayout = z.infer<typeof TmuxLayoutSchema>;

/** The durable state of one team run (`runtime/<runId>/state.json`). */
export const RuntimeStateSchema = z.strictObject({
  version: z.literal(1),
  runId: RunIdSchema,
  teamName: TeamNameSchema,
  teamSource: z.strictObject({
    scope: z.enum(['builtin', 'global', 'project', 'inline']),
    path: z.string().optional(),
  }),
  hostId: z.string().min(1).max(200),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
  status: z.enum(RUN_STATUSES),
  statusReason: z.string().max(4_000).optional(),
  /** When the run became `completed`. */
  completedAt: TimestampSchema.optional(),
  /** What the run is for and the criteria that must be met before it completes. */
  goal: RunGoalSchema.optional(),
  leadSessionId: z.string().max(512).optional(),
  repoRoot: z.string().optional(),
  /**
   * The branch the members' worktrees started from (the repository's checked-out branch,
   * or the base ref given at start when it names a branch); `team run merge` merges into it.
   */
  baseBranch: z.string().max(255).optional(),
  tmuxLayout: TmuxLayoutSchema.optional(),
  members: z.array(RunMemberSchema),
  shutdownRequests: z.array(ShutdownRequestSchema).default([]),
  permissionRequests: z.array(PermissionRequestSchema).default([]),
  pathAllowlists: z.record(MemberNameSchema, z.array(z.string())).default({}),
  /** The team policy snapshot taken when the run started; bounds live in `policy.bounds`. */
  policy: TeamPolicySchema,
  /**
   * Run-wide counters. Messages are counted by the mailbox, where the message bound is
   * enforced; the `messagesSent` field that older files hold here is dropped on read.
   */
  counters: z.object({ turns: z.number().int().nonnegative().default(0) }).default({ turns: 0 }),
});
/** The durable state of a team run. */
export type RuntimeState = z.infer<typeof RuntimeStateSchema>;
