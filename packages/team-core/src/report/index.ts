export type {
  ReportBranch,
  ReportCriterion,
  ReportMember,
  ReportTask,
  ReportWorktree,
  RunReport,
  RunReportOptions,
} from './collect-run-report.js';
export { collectRunReport } from './collect-run-report.js';
export { renderRunReport } from './render-run-report.js';
export { appendRunLog, readRunLog } from './run-log.js';
export type { RunTaskSummary } from './run-summary.js';
export { summarizeRunTasks } from './run-summary.js';
