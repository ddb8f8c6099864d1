import { z } from 'zod';
import { MemberNameSchema, RESERVED_MEMBER_NAMES, TeamNameSchema } from './names.js';

/** Limits a run enforces. */
export const RunBoundsSchema = z.strictObject({
  maxMembers: z.number().int().min(1).max(64).default(8),
  maxParallelMembers: z.number().int().min(1).max(64).default(4),
  maxMessagesPerRun: z.number().int().min(1).default(10_000),
  maxWallClockMinutes: z.number().int().min(1).default(120),
  maxTurnsPerMember: z.number().int().min(1).default(500),
});

/** Run limits. */
export type RunBounds = z.infer<typeof RunBoundsSchema>;

/** A tool permission: allow, ask first, or deny. */
export const PermissionActionSchema = z.enum(['allow', 'ask', 'deny']);

/** A team's policy (`policy.yaml`), with every field defaulted. */
export const TeamPolicySchema = z.strictObject({
  bounds: RunBoundsSchema.default(RunBoundsSchema.parse({})),
  broadcast: z.enum(['lead-only', 'everyone']).default('lead-only'),
  payloadMaxBytes: z
    .number()
    .int()
    .min(256)
    .max(16 * 1024 * 1024)
    .default(32 * 1024),
  unreadMaxBytes: z
    .number()
    .int()
    .min(1024)
    .max(256 * 1024 * 1024)
    .default(256 * 1024),
  review: z.enum(['required', 'optional', 'none']).default('optional'),
  toolPermissions: z
    .record(z.string().min(1), z.record(z.string().min(1), PermissionActionSchema))
    .default({}),
  agentCommand: z.array(z.string()).min(1).optional(),
});

/** A team's policy. */
export type TeamPolicy = z.infer<typeof TeamPolicySchema>;

/** An agent preset name as a team package writes it: lowercase words joined by `-`. */
export const AgentPresetNameSchema = z
  .string()
  .regex(/^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/, 'an agent preset name is lowercase words joined by "-"')
  .max(64);

/** One member of a normalised team. */
export const TeamMemberSpecSchema = z.strictObject({
  name: MemberNameSchema,
  role: z.string().min(1).max(64),
  description: z.string().max(2_000).optional(),
  prompt: z.string().min(1).max(100_000),
  model: z.string().min(1).max(200).optional(),
  /**
   * The agent that runs the member, by preset name (`claude`, `codex`, `opencode`,
   * `gemini`, `teamkit-agent`); the adapter that starts members checks the name.
   */
  agent: AgentPresetNameSchema.optional(),
  color: z.string().min(1).max(32).optional(),
  worktree: z.boolean().default(false),
  tmux: z.boolean().default(true),
  mode: z.enum(['primary', 'subagent', 'all']).optional(),
  tools: z.record(z.string(), z.boolean()).optional(),
  agentFile: z.string().optional(),
});

/** One member of a normalised team. */
export type TeamMemberSpec = z.infer<typeof TeamMemberSpecSchema>;

/**
 * The normalised team model every loader produces (team packages, flat `config.json`
 * teams, built-ins and inline specs alike). `lead` names one of `members`.
 */
export const TeamSpecSchema = z
  .strictObject({
    version: z.literal(1).default(1),
    id: TeamNameSchema,
    name: z.string().min(1).max(200),
    description: z.string().max(2_000).default(''),
    lead: MemberNameSchema,
    members: z.array(TeamMemberSpecSchema).min(1).max(64),
    policy: TeamPolicySchema.default(TeamPolicySchema.parse({})),
    teamDoc: z.string().max(200_000).optional(),
  })
  .superRefine((spec, context) => {
    const seen = new Set<string>();
    for (const [index, member] of spec.members.entries()) {
      if (RESERVED_MEMBER_NAMES.includes(member.name)) {
        context.addIssue({
          code: 'custom',
          path: ['members', index, 'name'],
          message: `"${member.name}" is reserved (it names the user or Teamkit itself); rename the member`,
        });
      }
      if (seen.has(member.name)) {
        context.addIssue({
          code: 'custom',
          path: ['members', index, 'name'],
          message: `duplicate member name "${member.name}"`,
        });
      }
      seen.add(member.name);
    }
    if (!seen.has(spec.lead)) {
      context.addIssue({
        code: 'custom',
        path: ['lead'],
        message: `lead "${spec.lead}" is not one of the members (${[...seen].join(', ')})`,
      });
    }
    if (spec.members.length > spec.policy.bounds.maxMembers) {
      context.addIssue({
        code: 'custom',
        path: ['members'],
        message: `${spec.members.length} members exceed the policy bound maxMembers=${spec.policy.bounds.maxMembers}`,
      });
    }
  });

/** A normalised team. */
export type TeamSpec = z.infer<typeof TeamSpecSchema>;
/** A team spec as a caller may write it, before defaults are applied. */
export type TeamSpecInput = z.input<typeof TeamSpecSchema>;
