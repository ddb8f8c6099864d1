import { z } from 'zod';
import { renderRunReport } from '../report/render-run-report.js';
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
    fellBackFrom: z.string().optional(),
    tasks: z.array(z.object({ id: z.string(), outcome: z.enum(['merged', 'already-merged']) })),
    skipped: z.array(z.object({ id: z.string(), reason: z.enum(['not-approved', 'no-work']) })),
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
      runId: report.runId,
      into: report.into,
      changed: report.changed,
      dryRun: report.dryRun,
      ...(report.from === undefined ? {} : { from: report.from }),
      to: report.to,
      ...(report.fellBack === undefined ? {} : { fellBackFrom: report.fellBack.from }),
      tasks: report.tasks.map((task) => ({ id: task.id, outcome: task.outcome })),
      skipped: report.skipped.map((task) => ({ id: task.id, reason: task.reason })),
    };
  },
  text: (output) =>
    `${output.dryRun ? 'would merge' : output.changed ? 'merged' : 'nothing new to merge'} into ${output.into}${output.fellBackFrom === undefined ? '' : ` (instead of ${output.fellBackFrom})`}: tasks ${output.tasks.map((task) => `${task.id}${task.outcome === 'already-merged' ? ' (already there)' : ''}`).join(', ') || '-'}${output.skipped.length === 0 ? '' : `; left out ${output.skipped.map((task) => `${task.id} (${task.reason})`).join(', ')}`}`,
});
