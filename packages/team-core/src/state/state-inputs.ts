import { z } from 'zod';
import { MEMBER_STATUSES, RUN_STATUSES } from '../schema/runtime-state.js';
import { TeamPolicySchema } from '../schema/team-spec.js';
import type { TeamkitStore } from '../storage/teamkit-store.js';

// The shapes the run state functions accept. They check types and what the code touches
// directly; the state schema checks the stored result of every change.

/** A member name argument (looked up in the roster afterwards). */
export const MemberArgument = z.string();

/** A run status argument. */
export const RunStatusArgument = z.enum(RUN_STATUSES);

/** A member status argument. */
export const MemberStatusArgument = z.enum(MEMBER_STATUSES);

/** A clock reading argument, in ms since the epoch. */
export const TimeArgument = z.number().finite();

/** A non-negative duration in milliseconds. */
export const DurationArgument = z.number().finite().min(0);

/** What `createRunState` accepts; the new state is validated as a whole afterwards. */
export const CreateRunStateInputSchema = z.object({
  spec: z.object({
    id: z.string(),
    lead: z.string(),
    members: z.array(
      z.object({
        name: z.string(),
        role: z.string(),
        model: z.string().optional(),
        color: z.string().optional(),
      }),
    ),
    policy: TeamPolicySchema,
  }),
  teamSource: z.unknown(),
  hostId: z.unknown(),
  repoRoot: z.string().optional(),
  leadSessionId: z.string().optional(),
  runId: z.string().optional(),
  goal: z
    .object({
      text: z.string().trim().min(1),
      criteria: z.array(z.string().trim().min(1)).optional(),
      by: z.string().optional(),
    })
    .optional(),
});

/** A run state mutation. */
export const MutationArgument = z.custom<(...args: never[]) => unknown>(
  (value) => typeof value === 'function',
  'expected a function',
);

/** What `startMember` accepts. */
export const StartMemberInputSchema = z.object({
  sessionId: z.string(),
  machine: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,63}$/)
    .optional(),
});

/** What `addMember` accepts. */
export const AddMemberInputSchema = z.object({
  name: z.string(),
  role: z.string(),
  model: z.string().optional(),
  color: z.string().optional(),
});

/** What `assertCanSpawn` accepts besides the state. */
export const SpawnCheckSchema = z
  .object({ newMember: z.boolean().optional(), now: TimeArgument.optional() })
  .optional();

/** What `requestShutdown` accepts. */
export const ShutdownRequestInputSchema = z.object({
  member: MemberArgument,
  requester: MemberArgument,
  reason: z.string().optional(),
});

/** What `answerShutdown` accepts. */
export const ShutdownAnswerSchema = z.object({
  approve: z.boolean(),
  reason: z.string().optional(),
});

/** What `requestPermission` accepts. */
export const PermissionRequestInputSchema = z.object({
  member: MemberArgument,
  action: z.string(),
  path: z.string().optional(),
  reason: z.string().optional(),
});

/** What `decidePermission` accepts. */
export const PermissionDecisionSchema = z.object({
  decision: z.enum(['approved', 'denied']),
  decidedBy: MemberArgument,
  reason: z.string().optional(),
  remember: z.boolean().optional(),
});

/** The data fields of state options (the seams are taken as given). */
/**
 * The store a call works on: required, and checked to be one (`INVALID_INPUT` otherwise),
 * since no default is taken for a home.
 */
export const StoreArgument = z.custom<TeamkitStore>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { read?: unknown }).read === 'function',
  { message: 'the store that holds the run (a TeamkitStore) is required' },
);

export const StateOptionFieldsSchema = z.object({
  store: StoreArgument,
  actor: z.string().min(1).max(200).optional(),
  reason: z.string().optional(),
  sessionId: z.string().optional(),
  creatingTimeoutMs: DurationArgument.optional(),
  failedRetentionMs: DurationArgument.optional(),
  hostId: z.string().min(1).max(200).optional(),
});
