import { isTeamkitError } from '../errors/index.js';
import type { RuntimeState, TaskWork } from '../schema/index.js';
import { branchHead, changedPaths } from '../worktree/git-merge.js';
import type { GitRunner } from '../worktree/git-runner.js';

/** What reading a member's work found: the work, or why there is none to record. */
export type OwnerWork = { work: TaskWork } | { work: undefined; reason?: string };

/**
 * The owner's branch head and how many files it left uncommitted, read from its worktree
 * at this moment: what a task's `work` records when it is completed or offered for
 * review. A member without a worktree has no work to record; a worktree git cannot read
 * (removed by hand) gives the reason instead of failing the move.
 */
export async function readOwnerWork(
  git: GitRunner,
  state: RuntimeState,
  owner: string,
  now: number,
): Promise<OwnerWork> {
  const member = state.members.find((candidate) => candidate.name === owner);
  if (member?.worktreePath === undefined || member.branch === undefined) return { work: undefined };
  try {
    const commit = await branchHead(git, member.worktreePath, member.branch);
    if (commit === undefined)
      return { work: undefined, reason: `branch ${member.branch} does not exist` };
    const uncommitted = await changedPaths(git, member.worktreePath);
    return {
      work: {
        member: owner,
        branch: member.branch,
        commit,
        uncommittedFiles: uncommitted.length,
        recordedAt: now,
      },
    };
  } catch (error) {
    if (!isTeamkitError(error)) throw error;
    return { work: undefined, reason: error.message };
  }
}
