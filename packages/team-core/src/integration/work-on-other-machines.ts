import { TeamkitError } from '../errors/index.js';
import type { RuntimeState, Task } from '../schema/index.js';
import type { GitRunner } from '../worktree/git-runner.js';

/** An approved task whose recorded commit this repository does not have. */
interface MissingWork {
  id: string;
  subject: string;
  member: string;
  branch: string;
  commit: string;
  machine?: string;
}

async function hasCommit(git: GitRunner, repoRoot: string, commit: string): Promise<boolean> {
  const result = await git.run(['cat-file', '-e', `${commit}^{commit}`], {
    cwd: repoRoot,
    allowFailure: true,
  });
  return result.exitCode === 0;
}

/**
 * Refuses a merge whose approved work is not in `repoRoot`, before anything is merged. In
 * a run shared by several machines (a NATS store) a member commits in the worktree of its
 * own machine's clone: the run records the commit, but the commit itself stays in that
 * clone until its branch is pushed to a remote this repository fetches from. The error
 * (`WORK_NOT_IN_REPOSITORY`) names each task, branch, commit and machine, and the two git
 * commands that bring the work here.
 */
export async function assertWorkIsHere(
  git: GitRunner,
  repoRoot: string,
  state: RuntimeState,
  tasks: readonly Task[],
): Promise<void> {
  const missing: MissingWork[] = [];
  for (const task of tasks) {
    const work = task.work;
    if (work === undefined || (await hasCommit(git, repoRoot, work.commit))) continue;
    const machine = state.members.find((member) => member.name === work.member)?.machine;
    missing.push({
      id: task.id,
      subject: task.subject,
      member: work.member,
      branch: work.branch,
      commit: work.commit,
      ...(machine === undefined ? {} : { machine }),
    });
  }
  if (missing.length === 0) return;
  const lines = missing.map(
    (entry) =>
      `task ${entry.id} (${entry.subject}): ${entry.commit.slice(0, 12)} on ${entry.branch}, committed by ${entry.member}${entry.machine === undefined ? '' : ` on machine ${entry.machine}`}`,
  );
  const branches = [...new Set(missing.map((entry) => entry.branch))];
  const push = branches.map((branch) => `git push origin ${branch}`).join('; ');
  const fetch = branches.map((branch) => `git fetch origin ${branch}:${branch}`).join('; ');
  throw new TeamkitError(
    'WORK_NOT_IN_REPOSITORY',
    `The approved work of ${lines.join('; ')} is not in ${repoRoot}: it was committed in another machine's clone. On that machine, push the member's branch to a remote both machines share (${push}); here, fetch it (${fetch}); then run the merge again. Nothing was merged.`,
    { details: { repoRoot, missing } },
  );
}
