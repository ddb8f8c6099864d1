export type { GitResult, GitRunner, GitRunnerOptions, GitRunOptions } from './git-runner.js';
export { createGitRunner } from './git-runner.js';
export type {
  CreateMemberWorktreeInput,
  MemberWorktree,
  MemberWorktreeTarget,
  RemoveMemberWorktreeInput,
  RemoveMemberWorktreeReport,
  UnsavedCommit,
  UnsavedWork,
} from './member-worktree.js';
export { createMemberWorktree, removeMemberWorktree } from './member-worktree.js';
export type {
  OrphanWorktree,
  OrphanWorktreeOptions,
  PruneOrphansOptions,
  PruneOrphansReport,
} from './orphan-worktrees.js';
export { findOrphanWorktrees, pruneOrphans } from './orphan-worktrees.js';
