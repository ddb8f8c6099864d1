import { errorMessage } from '../../errors/index.js';
import type { RuntimeState, TeamSpecInput } from '../../schema/index.js';
import { TeamSpecSchema } from '../../schema/index.js';
import {
  createRunState,
  requireLead,
  startMember,
  transitionRun,
  updateRunState,
} from '../../state/index.js';
import { ELSEWHERE, placeMembers } from '../../state/member-placement.js';
import { runPaths } from '../../storage/index.js';
import { runKeys } from '../../storage/run-keys.js';
import { putDocument } from '../../storage/store-documents.js';
import { openRunLayout } from '../../tmux/index.js';
import { branchHead, currentBranch } from '../../worktree/git-merge.js';
import { createGitRunner } from '../../worktree/git-runner.js';
import {
  createMemberWorktree,
  memberBranchName,
  resolveRepoRoot,
} from '../../worktree/member-worktree.js';
import { requireHostCapability } from '../team-host.js';
import { codeOf } from './member-session.js';
import { resolveRunSpec } from './run-spec.js';
import type { RuntimeContext } from './runtime-context.js';
import type { Spawner } from './spawning.js';
import type { Stopper } from './stop-run.js';
import { emptyTeardownReport } from './teardown.js';

/** Options for {@link TeamRuntime.startRun}. */
export interface StartRunOptions {
  /** The lead's existing session (e.g. the OpenCode session that asked for the team); the lead is then not spawned. */
  leadSessionId?: string;
  /** The git repository members work in; members with `worktree: true` get their own worktree of it. */
  repo?: string;
  /** The commit-ish worktrees start from (default `HEAD`). */
  baseRef?: string;
  /** A run id to use instead of a fresh UUID. */
  runId?: string;
  /**
   * What the run is for and its acceptance criteria (recorded as set by the user); the
   * run completes only when each criterion has evidence or a waiver.
   */
  goal?: { text: string; criteria?: readonly string[] };
  /**
   * Members another machine will run (`team run join`): they stay `pending`, placed
   * `elsewhere`, get no worktree here and are never spawned by this runtime.
   */
  elsewhere?: readonly string[];
}

/** What {@link TeamRuntime.startRun} made. */
export interface StartRunResult {
  runId: string;
  state: RuntimeState;
  /** Members spawned now; the rest wait (pending) until the parallel bound lets them start. */
  spawned: string[];
  waiting: string[];
  /** The tmux outcome: panes opened, skipped (and why), or failed (and why). */
  layout: {
    status: 'opened' | 'skipped' | 'failed';
    reason?: string;
    /** The error code behind a skip or failure (`HOST_CAPABILITY_UNSUPPORTED` for a host without `attachCommand`). */
    code?: string;
    panes?: Record<string, string>;
  };
}

/**
 * The branch the worktrees start from, which `team run merge` merges into: the base ref
 * when it names a local branch, else the branch checked out in the repository; none on a
 * detached HEAD or a commit id.
 */
async function baseBranchOf(
  repo: string,
  baseRef: string | undefined,
): Promise<string | undefined> {
  const git = createGitRunner();
  if (baseRef === undefined) return currentBranch(git, repo);
  const name = baseRef.replace(/^refs\/heads\//, '');
  if (name.startsWith('-')) return undefined;
  return (await branchHead(git, repo, name)) === undefined ? undefined : name;
}

/**
 * Creates the members' worktrees. Each one is recorded in the run state (path, branch and
 * base commit) before `git worktree add` runs, so a start killed at any moment leaves no
 * worktree or branch the run does not name: stop and rollback remove what is recorded,
 * and removing a recorded worktree that was never created is a no-op.
 */
async function createWorktrees(
  ctx: RuntimeContext,
  runId: string,
  spec: { members: readonly { name: string; worktree: boolean }[] },
  options: StartRunOptions & { repo: string },
): Promise<RuntimeState | undefined> {
  const elsewhere = options.elsewhere ?? [];
  const wishes = spec.members.filter(
    (member) => member.worktree && !elsewhere.includes(member.name),
  );
  const remote = spec.members.filter(
    (member) => member.worktree && elsewhere.includes(member.name),
  );
  if (wishes.length === 0 && remote.length === 0) return undefined;
  const git = createGitRunner();
  const repoRoot = await resolveRepoRoot(git, options.repo);
  const baseRef = options.baseRef ?? 'HEAD';
  const resolved = await git.run(['rev-parse', '--verify', '--quiet', `${baseRef}^{commit}`], {
    cwd: repoRoot,
    allowFailure: true,
  });
  const baseCommit = resolved.stdout.trim();
  let state: RuntimeState | undefined;
  const baseBranch = await baseBranchOf(options.repo, options.baseRef);
  if (remote.length > 0 && resolved.exitCode === 0 && baseCommit !== '') {
    // Members left for another machine get their worktrees there (`team run join`), from
    // the commit recorded here; the base branch is recorded too, so `team run merge` on
    // this machine knows where their work goes even when no worktree is made here.
    state = await updateRunState(
      ctx.home,
      runId,
      (draft) => {
        for (const target of draft.members) {
          if (remote.some((member) => member.name === target.name)) target.baseRef = baseCommit;
        }
        draft.repoRoot = repoRoot;
        if (baseBranch !== undefined) draft.baseBranch = baseBranch;
        return draft;
      },
      ctx.stateOptions,
    );
  }
  for (const wish of wishes) {
    if (resolved.exitCode === 0 && baseCommit !== '') {
      await updateRunState(
        ctx.home,
        runId,
        (draft) => {
          const target = draft.members.find((member) => member.name === wish.name);
          if (target !== undefined) {
            target.worktreePath = runPaths(ctx.home, runId).worktree(wish.name);
            target.branch = memberBranchName(runId, wish.name);
            target.baseRef = baseCommit;
          }
          draft.repoRoot = repoRoot;
          return draft;
        },
        ctx.stateOptions,
      );
    }
    const worktree = await createMemberWorktree({
      home: ctx.home,
      repoRoot: options.repo,
      runId,
      member: wish.name,
      ...(options.baseRef === undefined ? {} : { baseRef: options.baseRef }),
    });
    state = await updateRunState(
      ctx.home,
      runId,
      (draft) => {
        const target = draft.members.find((member) => member.name === wish.name);
        if (target !== undefined) {
          target.worktreePath = worktree.path;
          target.branch = worktree.branch;
          target.baseRef = worktree.baseCommit;
        }
        draft.repoRoot = worktree.repoRoot;
        if (baseBranch !== undefined) draft.baseBranch = baseBranch;
        return draft;
      },
      ctx.stateOptions,
    );
  }
  return state;
}

async function layOutPanes(ctx: RuntimeContext, runId: string): Promise<StartRunResult['layout']> {
  const tmux = ctx.tmux;
  if (tmux === undefined) return { status: 'skipped' };
  let attach: NonNullable<typeof ctx.host.attachCommand>;
  try {
    attach = requireHostCapability(ctx.host, 'attachCommand');
  } catch (error) {
    return { status: 'skipped', reason: errorMessage(error), code: codeOf(error) };
  }
  try {
    const layout = await openRunLayout({
      home: ctx.home,
      runId,
      runner: tmux.runner,
      ...(tmux.callerPaneId === undefined ? {} : { callerPaneId: tmux.callerPaneId }),
      attachCommand: (member) =>
        member.sessionId === undefined ? undefined : attach(member.sessionId),
      ...ctx.stateOptions,
    });
    return { status: 'opened', panes: layout.paneIds };
  } catch (error) {
    await ctx.event(runId, 'tmux.failed', [], { reason: errorMessage(error), code: codeOf(error) });
    return { status: 'failed', reason: errorMessage(error), code: codeOf(error) };
  }
}

/**
 * Starts a run: resolves the team, creates the run (`creating`) and saves the team beside
 * it, creates worktrees, records the lead's own session, spawns members within the
 * parallel bound, lays out panes, and moves the run to `active`. On any failure the run
 * is rolled back through the one teardown (what could not be undone is logged with the
 * `run.rolled_back` event), marked `failed` with the reason, and the error is rethrown.
 */
export async function startRun(
  ctx: RuntimeContext,
  parts: { spawner: Spawner; stopper: Stopper },
  team: string | TeamSpecInput,
  options: StartRunOptions,
): Promise<StartRunResult> {
  const { spec, source } = await resolveRunSpec(ctx, team);
  let state = await createRunState(
    ctx.home,
    {
      spec,
      teamSource: source,
      hostId: ctx.host.hostId,
      ...(options.repo === undefined ? {} : { repoRoot: options.repo }),
      ...(options.leadSessionId === undefined ? {} : { leadSessionId: options.leadSessionId }),
      ...(options.runId === undefined ? {} : { runId: options.runId }),
      ...(options.goal === undefined ? {} : { goal: options.goal }),
    },
    ctx.stateOptions,
  );
  const runId = state.runId;
  parts.spawner.rememberSpec(runId, spec);
  const result: StartRunResult = {
    runId,
    state,
    spawned: [],
    waiting: [],
    layout: { status: 'skipped' },
  };
  try {
    await putDocument(ctx.store, runKeys(runId).team, TeamSpecSchema, spec);
    if (options.elsewhere !== undefined && options.elsewhere.length > 0)
      state = await placeMembers(ctx.home, runId, options.elsewhere, ELSEWHERE, ctx.stateOptions);
    if (options.repo !== undefined && ctx.worktrees)
      state =
        (await createWorktrees(ctx, runId, spec, { ...options, repo: options.repo })) ?? state;
    if (options.leadSessionId !== undefined) {
      await startMember(
        ctx.home,
        runId,
        requireLead(state).name,
        { sessionId: options.leadSessionId },
        ctx.stateOptions,
      );
    }
    result.spawned = await parts.spawner.spawnWaitingMembers(runId);
    result.layout = await layOutPanes(ctx, runId);
    result.state = await transitionRun(ctx.home, runId, 'active', ctx.stateOptions);
    result.waiting = result.state.members
      .filter((member) => member.status === 'pending')
      .map((member) => member.name);
    return result;
  } catch (error) {
    await rollBack(ctx, parts.stopper, runId, error);
    throw error;
  }
}

async function rollBack(
  ctx: RuntimeContext,
  stopper: Stopper,
  runId: string,
  cause: unknown,
): Promise<void> {
  const reason = errorMessage(cause);
  const trouble: Record<string, unknown>[] = [];
  let report = emptyTeardownReport();
  try {
    report = await stopper.rollback(runId);
  } catch (error) {
    // The start's own error is what the caller must see; this one goes to the log.
    trouble.push({ step: 'rollback', message: errorMessage(error), code: codeOf(error) });
  }
  trouble.push(
    ...report.notStopped.map((entry) => ({ step: 'stop-session', ...entry })),
    ...report.problems.map((problem) => ({ ...problem })),
  );
  try {
    await transitionRun(ctx.home, runId, 'failed', { ...ctx.stateOptions, reason });
  } catch (error) {
    // Resume fails a run stuck `creating` after its timeout; until then the log says why.
    trouble.push({ step: 'mark-failed', message: errorMessage(error), code: codeOf(error) });
  }
  await ctx.event(runId, 'run.rolled_back', [], {
    reason,
    removed: [
      ...report.stopped.map((member) => `session of ${member}`),
      ...report.panesClosed.map((pane) => `pane ${pane}`),
      ...report.removedWorktrees.map((path) => `worktree ${path}`),
    ],
    kept: report.keptWorktrees,
    problems: trouble,
  });
}
