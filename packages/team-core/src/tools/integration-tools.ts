import { z } from 'zod';
import { renderRunReport } from '../report/render-run-report.js';
import { TASK_STATUSES } from '../schema/index.js';
import { defineTeamTool } from './team-tool.js';

/** `run_report`: what the run did, for anyone in it. */
export const runReportTool = defineTeamTool({
  name: 'run_report',
  title: 'Report on the run',
  description:
    'What the run did so far: tasks with owner, status, recorded work and where it was merged; commits per branch; messages; turns per member; duration; the acceptance criteria and their evidence; worktrees left.',
  input: z.object({}),
  output: z.object({
    runId: z.string(),
    status: z.string(),
    // The full report (see RunReport in @teamkit/team-core); its text is the summary.
    report: z.record(z.string(), z.unknown()),
  }),
  roles: ['member', 'lead', 'user'],
  readOnly: true,
  operation: () => 'read the run report',
  async handler(_input, context) {
    const client = await context.client();
    const report = await client.report();
    return { runId: report.runId, status: report.status, report: { ...report } };
  },
  text: (output) => renderRunReport(output.report as never),
});

/** `run_merge`: the lead (or the user) merges the approved work into the base branch. */
export const runMergeTool = defineTeamTool({
  name: 'run_merge',
  title: "Merge the run's approved work",
  description:
    "Lead only: merge every approved task's work into the run's base branch (or `into`), in dependency order, never forcing. A conflict changes nothing and names the task and files. With dryRun, only report what would happen.",
  input: z.object({
    into: z.string().min(1).max(255).optional().describe('The branch to merge into.'),
    dryRun: z.boolean().optional(),
  }),
  output: z.object({
    runId: z.string(),
    into: z.string(),
    changed: z.boolean(),
    dryRun: z.boolean(),
    from: z.string().optional(),
    to: z.string(),
    /** The branch asked for when the work went elsewhere, and why. */
    fellBack: z.object({ from: z.string(), reason: z.string() }).optional(),
    /** The checkout moved forward with the branch, when it had the branch checked out. */
    checkout: z.string().optional(),
    tasks: z.array(
      z.object({
        id: z.string(),
        subject: z.string(),
        owner: z.string().optional(),
        commit: z.string(),
        outcome: z.enum(['merged', 'already-merged']),
        mergeCommit: z.string().optional(),
      }),
    ),
    skipped: z.array(
      z.object({
        id: z.string(),
        subject: z.string(),
        status: z.enum(TASK_STATUSES),
        reason: z.enum(['not-approved', 'no-work']),
      }),
    ),
  }),
  roles: ['lead', 'user'],
  readOnly: false,
  operation: () => "merge the run's work",
  async handler(input, context) {
    const client = await context.client();
    const report = await client.mergeWork({
      ...(input.into === undefined ? {} : { into: input.into }),
      ...(input.dryRun === undefined ? {} : { dryRun: input.dryRun }),
    });
    return {
      ...report,
      tasks: report.tasks.map((task) => ({ ...task })),
      skipped: report.skipped.map((task) => ({ ...task })),
    };
  },
  text: (output) =>
    `${output.dryRun ? 'would merge' : output.changed ? 'merged' : 'nothing new to merge'} into ${output.into}${output.fellBack === undefined ? '' : ` (instead of ${output.fellBack.from})`}: tasks ${output.tasks.map((task) => `${task.id}${task.outcome === 'already-merged' ? ' (already there)' : ''}`).join(', ') || '-'}${output.skipped.length === 0 ? '' : `; left out ${output.skipped.map((task) => `${task.id} (${task.reason})`).join(', ')}`}`,
});
