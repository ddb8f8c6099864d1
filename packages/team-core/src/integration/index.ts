export { orderByDependencies } from './merge-order.js';
export type {
  MergeRunWorkOptions,
  MergeRunWorkReport,
  MergeTaskLine,
  SkippedTask,
} from './merge-run-work.js';
export { mergeRunWork } from './merge-run-work.js';
export type { MergeTarget } from './merge-target.js';
export { decideMergeTarget, integrationBranchName } from './merge-target.js';
export { readRunMerges, recordRunMerge } from './run-merges.js';
export type { BlockerConflict, BlockerSyncOutcome } from './sync-blockers.js';
export { conflictReason, syncWithBlockers } from './sync-blockers.js';
