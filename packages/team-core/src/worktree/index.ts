export type { MergeOutcome } from './git-merge.js';
export {
  branchHead,
  currentBranch,
  isAncestor,
  mergeCommitInto,
  resolveCommit,
} from './git-merge.js';
export type { GitResult, GitRunner, GitRunnerOptions, GitRunOptions } from './git-runner.js';
export { createGitRunner } from './git-runner.js';
export type {
  CreateMemberWorktreeInput,
  ListedWorktree,
  MemberWorktree,
  MemberWorktreeTarget,
  RemoveMemberWorktreeInput,
  RemoveMemberWorktreeReport,
  UnsavedCommit,
  UnsavedWork,
} from './member-worktree.js';
export {
  createMemberWorktree,
  findUnsavedWork,
  listGitWorktrees,
  memberBranchName,
  removeMemberWorktree,
  resolveRepoRoot,
} from './member-worktree.js';
export type {
  OrphanWorktree,
  OrphanWorktreeOptions,
  PruneOrphansOptions,
  PruneOrphansReport,
} from './orphan-worktrees.js';
export { findOrphanWorktrees, pruneOrphans } from './orphan-worktrees.js';
