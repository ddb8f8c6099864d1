import { z } from 'zod';
import { EVIDENCE_KINDS, type RuntimeState } from '../schema/index.js';
import { unmetCriteria } from '../state/index.js';
import { defineTeamTool } from './team-tool.js';

const CriterionOutput = z.object({
  id: z.string(),
  text: z.string(),
  met: z.boolean(),
  evidence: z.array(
    z.object({ kind: z.enum(EVIDENCE_KINDS), ref: z.string(), note: z.string().optional() }),
  ),
  waived: z.object({ reason: z.string() }).optional(),
});

const GoalOutput = z.object({
  runId: z.string(),
  goal: z.object({ text: z.string(), criteria: z.array(CriterionOutput) }).optional(),
  /** Ids of criteria without evidence or waiver: the run cannot complete while any is listed. */
  unmet: z.array(z.string()),
});
type GoalOutput = z.infer<typeof GoalOutput>;

/** A run's goal as the goal tools return it. */
export function goalOutput(state: RuntimeState): GoalOutput {
  const unmet = new Set(unmetCriteria(state).map((criterion) => criterion.id));
  return {
    runId: state.runId,
    ...(state.goal === undefined
      ? {}
      : {
          goal: {
            text: state.goal.text,
            criteria: state.goal.criteria.map((criterion) => ({
              id: criterion.id,
              text: criterion.text,
              met: !unmet.has(criterion.id),
              evidence: criterion.evidence.map((entry) => ({
                kind: entry.kind,
                ref: entry.ref,
                ...(entry.note === undefined ? {} : { note: entry.note }),
              })),
              ...(criterion.waived === undefined
                ? {}
                : { waived: { reason: criterion.waived.reason } }),
            })),
          },
        }),
    unmet: [...unmet],
  };
}

/** The goal and each criterion as lines of text. */
export function goalText(output: GoalOutput): string {
  if (output.goal === undefined) return `run ${output.runId} has no goal`;
  const lines = [`goal: ${output.goal.text}`];
  for (const criterion of output.goal.criteria) {
    const proof = criterion.waived
      ? `waived: ${criterion.waived.reason}`
      : criterion.evidence.length === 0
        ? 'no evidence yet'
        : criterion.evidence.map((entry) => `${entry.kind} ${entry.ref}`).join(', ');
    lines.push(`  ${criterion.met ? '[x]' : '[ ]'} ${criterion.id}. ${criterion.text} (${proof})`);
  }
  return lines.join('\n');
}

/** `goal_set`: the lead states what the run is for and how to tell it is done. */
export const goalSetTool = defineTeamTool({
  name: 'goal_set',
  title: "Set the run's goal",
  description:
    "Lead only: state the run's goal and its acceptance criteria (checkable sentences). A goal is set once; calling again with the same goal adds criteria. The run completes only when each criterion has evidence ({criterion_evidence}) or the user waived it.",
  input: z.object({
    goal: z.string().min(1).max(4_000).describe('What the run is for.'),
    criteria: z
      .array(z.string().min(1).max(2_000))
      .max(50)
      .optional()
      .describe('Acceptance criteria, one checkable sentence each.'),
  }),
  output: GoalOutput,
  roles: ['lead', 'user'],
  readOnly: false,
  operation: () => "set the run's goal",
  async handler(input, context) {
    const client = await context.client();
    return goalOutput(await client.setGoal(input.goal, input.criteria ?? []));
  },
  text: goalText,
});

/** `criterion_evidence`: the lead shows a criterion is met by a task, a commit or a message. */
export const criterionEvidenceTool = defineTeamTool({
  name: 'criterion_evidence',
  title: 'Attach evidence to a criterion',
  description:
    'Lead only: attach evidence that an acceptance criterion is met: a task id, a commit (id or branch), or a message id of this run. It must exist; the run completes only when every criterion has evidence or a waiver.',
  input: z.object({
    criterion: z.string().min(1).max(3).describe('The criterion id, e.g. "1".'),
    kind: z.enum(EVIDENCE_KINDS),
    ref: z.string().min(1).max(100).describe('The task id, commit or message id.'),
    note: z.string().max(2_000).optional(),
  }),
  output: GoalOutput,
  roles: ['lead', 'user'],
  readOnly: false,
  operation: () => 'attach evidence to a criterion',
  async handler(input, context) {
    const client = await context.client();
    return goalOutput(
      await client.attachEvidence(input.criterion, {
        kind: input.kind,
        ref: input.ref,
        ...(input.note === undefined ? {} : { note: input.note }),
      }),
    );
  },
  text: goalText,
  protocol: { attachEvidence: (name) => `the \`${name('criterion_evidence')}\` tool` },
});

/** `criterion_waive`: the user lets the run complete without evidence for a criterion. */
export const criterionWaiveTool = defineTeamTool({
  name: 'criterion_waive',
  title: 'Waive a criterion',
  description:
    'The user only: let the run complete without evidence for an acceptance criterion, saying why. The waiver stays in the report.',
  input: z.object({
    criterion: z.string().min(1).max(3).describe('The criterion id, e.g. "2".'),
    reason: z.string().min(1).max(2_000),
  }),
  output: GoalOutput,
  roles: ['user'],
  readOnly: false,
  operation: () => 'waive an acceptance criterion',
  async handler(input, context) {
    const client = await context.client();
    return goalOutput(await client.waiveCriterion(input.criterion, input.reason));
  },
  text: goalText,
});
