import { TeamkitError } from '../errors/index.js';
import type { RuntimeState } from '../schema/index.js';
import { assertBranchName, branchHead, changedPaths } from '../worktree/git-merge.js';
import type { GitRunner } from '../worktree/git-runner.js';
import { listGitWorktrees, memberBranchName } from '../worktree/member-worktree.js';

/** Where a merge puts the work, and how the branch is moved there. */
export interface MergeTarget {
  /** The branch that will hold the work. */
  branch: string;
  /** Its commit now; `undefined` when the merge creates it. */
  tip: string | undefined;
  /** Where the merge starts: the branch's tip, or the base's tip for a new branch. */
  start: string;
  /** Another commit to merge in first (the base branch, for an integration branch that already exists). */
  catchUp?: { branch: string; commit: string };
  /** A checkout that has `branch` checked out (it is moved forward there), else the ref moves. */
  checkout?: string;
  /** The branch asked for, when the work goes elsewhere, and why. */
  fellBack?: { from: string; reason: string };
}

/** `teamkit/<first 8 characters of the run id>/integration`. */
export function integrationBranchName(runId: string): string {
  return `teamkit/${runId.slice(0, 8)}/integration`;
}

async function checkoutOf(
  git: GitRunner,
  repoRoot: string,
  branch: string,
): Promise<string | undefined> {
  const listed = await listGitWorktrees(git, repoRoot);
  return listed.find((entry) => entry.branch === branch && !entry.prunable)?.path;
}

/** The commit a new branch starts from: the base branch's tip, else the members' start. */
async function baseStart(git: GitRunner, repoRoot: string, state: RuntimeState): Promise<string> {
  const base =
    state.baseBranch === undefined ? undefined : await branchHead(git, repoRoot, state.baseBranch);
  const start = base ?? state.members.find((member) => member.baseRef !== undefined)?.baseRef;
  if (start === undefined) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `Run ${state.runId} records no base to start a branch from; merge into an existing branch (--into).`,
      { details: { runId: state.runId } },
    );
  }
  return start;
}

/**
 * Decides where `team run merge` puts a run's work. By default the branch the run
 * started from (`baseBranch`); with `into`, that branch (created from the base's tip when
 * it does not exist). A branch checked out with uncommitted changes is never touched:
 * asked for by name it is refused (`WORKTREE_HAS_UNSAVED_WORK`); as the default, the work
 * goes to `teamkit/<run>/integration` instead and the report says why. A member's own
 * branch is refused as a target.
 */
export async function decideMergeTarget(input: {
  git: GitRunner;
  repoRoot: string;
  state: RuntimeState;
  into?: string;
}): Promise<MergeTarget> {
  const { git, repoRoot, state } = input;
  const requested = input.into ?? state.baseBranch;
  if (requested === undefined) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `Run ${state.runId} started on a detached HEAD, so it has no base branch; name one with --into BRANCH.`,
      { details: { runId: state.runId } },
    );
  }
  await assertBranchName(git, repoRoot, requested);
  const memberBranches = state.members.map((member) => memberBranchName(state.runId, member.name));
  if (memberBranches.includes(requested)) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `${requested} is a member's branch of this run; merge into the base branch or an integration branch.`,
      { details: { branch: requested } },
    );
  }
  const tip = await branchHead(git, repoRoot, requested);
  if (tip === undefined) {
    if (input.into === undefined) {
      throw new TeamkitError(
        'INVALID_INPUT',
        `The run's base branch ${requested} no longer exists; name the branch to merge into with --into.`,
        { details: { branch: requested } },
      );
    }
    return { branch: requested, tip: undefined, start: await baseStart(git, repoRoot, state) };
  }
  const checkout = await checkoutOf(git, repoRoot, requested);
  const dirty = checkout === undefined ? [] : await changedPaths(git, checkout);
  if (checkout === undefined || dirty.length === 0) {
    return { branch: requested, tip, start: tip, ...(checkout === undefined ? {} : { checkout }) };
  }
  const why = `${requested} is checked out at ${checkout} with uncommitted changes (${dirty.slice(0, 5).join(', ')}${dirty.length > 5 ? ', …' : ''})`;
  if (input.into !== undefined) {
    throw new TeamkitError(
      'WORKTREE_HAS_UNSAVED_WORK',
      `${why}; commit or stash them first, or merge into another branch (--into ${integrationBranchName(state.runId)}).`,
      { details: { branch: requested, path: checkout, files: dirty } },
    );
  }
  const integration = integrationBranchName(state.runId);
  const fellBack = { from: requested, reason: `${why}; the work went to ${integration} instead` };
  const integrationTip = await branchHead(git, repoRoot, integration);
  const integrationCheckout = await checkoutOf(git, repoRoot, integration);
  if (integrationCheckout !== undefined) {
    throw new TeamkitError(
      'WORKTREE_HAS_UNSAVED_WORK',
      `${why}, and ${integration} is checked out at ${integrationCheckout}; commit there or remove that checkout, then merge again.`,
      { details: { branch: integration, path: integrationCheckout } },
    );
  }
  if (integrationTip === undefined) {
    return { branch: integration, tip: undefined, start: tip, fellBack };
  }
  return {
    branch: integration,
    tip: integrationTip,
    start: integrationTip,
    catchUp: { branch: requested, commit: tip },
    fellBack,
  };
}
