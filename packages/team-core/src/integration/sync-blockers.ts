import { isTeamkitError } from '../errors/index.js';
import type { RuntimeState, Task } from '../schema/index.js';
import { DONE_TASK_STATUSES, type TaskList } from '../tasklist/index.js';
import { byNumericId } from '../tasklist/task-ids.js';
import { mergeCommitInto } from '../worktree/git-merge.js';
import type { GitRunner } from '../worktree/git-runner.js';

/** A blocker whose work could not be merged into the member's worktree. */
export interface BlockerConflict {
  taskId: string;
  commit: string;
  files: string[];
  message: string;
}

/** What bringing a worktree up to date with a task's blockers did. */
export interface BlockerSyncOutcome {
  /** Blockers whose recorded work was merged into the worktree now. */
  merged: { taskId: string; commit: string }[];
  /** The first blocker whose work conflicts; the worktree was left as it was before it. */
  conflict?: BlockerConflict;
}

/**
 * Brings `member`'s worktree up to date with the work of `task`'s blockers: each done
 * blocker (completed or approved) with recorded work of another member is merged into the
 * worktree's branch, oldest task first, unless the branch already contains it. A merge that
 * stops is aborted, so the worktree stays as it was, and the conflict is returned for the
 * caller to block the task with. Members without a worktree have nothing to bring up to date.
 */
export async function syncWithBlockers(input: {
  git: GitRunner;
  state: RuntimeState;
  tasks: TaskList;
  member: string;
  task: Task;
}): Promise<BlockerSyncOutcome> {
  const { git, state, member, task } = input;
  const outcome: BlockerSyncOutcome = { merged: [] };
  const worktree = state.members.find((candidate) => candidate.name === member)?.worktreePath;
  if (worktree === undefined) return outcome;
  for (const id of [...task.blockedBy].sort(byNumericId)) {
    let blocker: Task;
    try {
      blocker = await input.tasks.getTask(id);
    } catch (error) {
      if (isTeamkitError(error, 'UNKNOWN_TASK')) continue;
      throw error;
    }
    const work = blocker.work;
    if (!DONE_TASK_STATUSES.includes(blocker.status) || work === undefined) continue;
    if (work.member === member) continue;
    const merged = await mergeCommitInto(git, worktree, work.commit, {
      message: `Merge the work of task ${id} (${blocker.subject}) for task ${task.id}`,
      noFastForward: false,
    });
    if (merged.kind === 'merged') outcome.merged.push({ taskId: id, commit: work.commit });
    if (merged.kind === 'conflict') {
      outcome.conflict = {
        taskId: id,
        commit: work.commit,
        files: merged.files,
        message: merged.message,
      };
      return outcome;
    }
  }
  return outcome;
}

/** The reason a task is blocked with when a blocker's work conflicts in the owner's worktree. */
export function conflictReason(conflict: BlockerConflict): string {
  const files = conflict.files.length === 0 ? 'its worktree' : conflict.files.join(', ');
  return `Merging the work of task ${conflict.taskId} (${conflict.commit.slice(0, 12)}) into this worktree conflicts in ${files}. Resolve it by hand (git merge ${conflict.commit.slice(0, 12)}, fix, commit), then unblock the task and claim it again.`.slice(
    0,
    2_000,
  );
}
