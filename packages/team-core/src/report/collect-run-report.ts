import { lstat } from 'node:fs/promises';
import { isTeamkitError } from '../errors/index.js';
import { readRunMerges } from '../integration/run-merges.js';
import type {
  AcceptanceCriterion,
  RunEvent,
  RunMerge,
  RuntimeState,
  Task,
} from '../schema/index.js';
import { USER_PARTICIPANT } from '../schema/index.js';
import { readRunState, type StateOptions } from '../state/index.js';
import { type DocumentProblem, toDocumentProblem } from '../storage/index.js';
import { createTaskList } from '../tasklist/index.js';
import { branchHead, changedPaths, commitsBetween, isAncestor } from '../worktree/git-merge.js';
import { createGitRunner, type GitRunner } from '../worktree/git-runner.js';
import { readRunLog } from './run-log.js';
import { summarizeRunTasks } from './run-summary.js';

/** One task in a run report. */
export interface ReportTask {
  id: string;
  subject: string;
  status: Task['status'];
  owner?: string;
  blockedBy: string[];
  /** The recorded work: the owner's branch and commit when the task was last completed or reviewed. */
  work?: Task['work'];
  /** Branches a `team run merge` put the task's work on that still contain it. */
  mergedInto: string[];
}

/** The commits one member made on its branch, beyond where it started. */
export interface ReportBranch {
  member: string;
  branch: string;
  count: number;
  /** Oldest first, at most 50. */
  commits: { sha: string; subject: string }[];
  /** Why the branch could not be read (it was deleted, the repository moved). */
  error?: string;
}

/** One member in a run report. */
export interface ReportMember {
  name: string;
  role: string;
  isLead: boolean;
  status: RuntimeState['members'][number]['status'];
  statusReason?: string;
  turns: number;
  messagesSent: number;
  messagesReceived: number;
}

/** A member worktree that is still on disk. */
export interface ReportWorktree {
  member: string;
  path: string;
  branch?: string;
  /** Files changed but not committed there. */
  changedFiles: number;
}

/** A criterion with whether it is met and by what. */
export interface ReportCriterion extends AcceptanceCriterion {
  met: boolean;
}

/** Everything `team run report` shows about one run. */
export interface RunReport {
  runId: string;
  team: string;
  status: RuntimeState['status'];
  statusReason?: string;
  host: string;
  createdAt: number;
  completedAt?: number;
  /** From creation to completion, else to now. */
  durationMs: number;
  baseBranch?: string;
  goal?: { text: string; criteria: ReportCriterion[] };
  members: ReportMember[];
  tasks: ReportTask[];
  tasksByStatus: Record<string, number>;
  branches: ReportBranch[];
  /** Messages sent (a broadcast counts once), the copies stored, and the user's share. */
  messages: { sent: number; copies: number; user: { sent: number; received: number } };
  merges: RunMerge[];
  worktrees: ReportWorktree[];
  /** Task files and log lines that could not be read. */
  problems: DocumentProblem[];
  skippedLogLines: number;
}

/** What {@link collectRunReport} needs. */
export interface RunReportOptions extends StateOptions {
  home: string;
  runId: string;
  git?: GitRunner;
}

function messageCounts(events: readonly RunEvent[]) {
  const sent = new Map<string, number>();
  const received = new Map<string, number>();
  let total = 0;
  let copies = 0;
  for (const event of events) {
    if (event.type !== 'message.sent') continue;
    total += 1;
    sent.set(event.actor, (sent.get(event.actor) ?? 0) + 1);
    const delivered = Array.isArray(event.data?.delivered) ? event.data.delivered : [];
    for (const to of delivered) {
      if (typeof to !== 'string') continue;
      copies += 1;
      received.set(to, (received.get(to) ?? 0) + 1);
    }
  }
  return { sent, received, total, copies };
}

async function exists(folder: string): Promise<boolean> {
  return lstat(folder).then(
    (info) => info.isDirectory(),
    () => false,
  );
}

async function memberBranches(git: GitRunner, state: RuntimeState): Promise<ReportBranch[]> {
  const branches: ReportBranch[] = [];
  if (state.repoRoot === undefined) return branches;
  for (const member of state.members) {
    if (member.branch === undefined || member.baseRef === undefined) continue;
    const line: ReportBranch = {
      member: member.name,
      branch: member.branch,
      count: 0,
      commits: [],
    };
    try {
      const head = await branchHead(git, state.repoRoot, member.branch);
      if (head === undefined) line.error = 'the branch no longer exists';
      else {
        line.commits = await commitsBetween(git, state.repoRoot, member.baseRef, head, 50);
        const counted = await git.run(['rev-list', '--count', `${member.baseRef}..${head}`], {
          cwd: state.repoRoot,
        });
        line.count = Number(counted.stdout.trim());
      }
    } catch (error) {
      if (!isTeamkitError(error)) throw error;
      line.error = error.message;
    }
    branches.push(line);
  }
  return branches;
}

async function mergedInto(
  git: GitRunner,
  repoRoot: string | undefined,
  task: Task,
  merges: readonly RunMerge[],
): Promise<string[]> {
  const commit = task.work?.commit;
  if (commit === undefined || repoRoot === undefined) return [];
  const branches = new Set(
    merges.filter((merge) => merge.tasks.some((line) => line.id === task.id)).map((m) => m.into),
  );
  const found: string[] = [];
  for (const branch of branches) {
    try {
      const head = await branchHead(git, repoRoot, branch);
      if (head !== undefined && (await isAncestor(git, repoRoot, commit, head))) found.push(branch);
    } catch (error) {
      if (!isTeamkitError(error)) throw error;
    }
  }
  return found;
}

async function remainingWorktrees(git: GitRunner, state: RuntimeState): Promise<ReportWorktree[]> {
  const remaining: ReportWorktree[] = [];
  for (const member of state.members) {
    if (member.worktreePath === undefined || !(await exists(member.worktreePath))) continue;
    let changedFiles = 0;
    try {
      changedFiles = (await changedPaths(git, member.worktreePath)).length;
    } catch (error) {
      if (!isTeamkitError(error)) throw error;
    }
    remaining.push({
      member: member.name,
      path: member.worktreePath,
      ...(member.branch === undefined ? {} : { branch: member.branch }),
      changedFiles,
    });
  }
  return remaining;
}

/**
 * Collects what a run did: tasks with owner, status, recorded work and where it was
 * merged; commits per member branch; messages; turns per member; duration; the goal's
 * criteria with their evidence; every merge; the worktrees that remain. It only reads:
 * git for branches and worktrees, the run's state, tasks, log and merge record.
 */
export async function collectRunReport(options: RunReportOptions): Promise<RunReport> {
  const { home, runId } = options;
  const git = options.git ?? createGitRunner();
  const keyed = options.store;
  const now = options.now ?? Date.now;
  const state = await readRunState(home, runId, options);
  const listing = await createTaskList({
    home,
    runId,
    store: options.store,
  }).listTasks();
  const { events, skipped } = await readRunLog(keyed, runId);
  const merges = await readRunMerges(keyed, runId).catch((error: unknown) => {
    // A merge record someone corrupted is reported like a corrupt task, not thrown.
    listing.problems.push(toDocumentProblem(error, `runtime/${runId}/merges.json`));
    return [] as RunMerge[];
  });
  const counts = messageCounts(events);
  // The report lists only the statuses some task has.
  const tasksByStatus = Object.fromEntries(
    Object.entries(summarizeRunTasks(listing.tasks).tasksByStatus).filter(([, count]) => count > 0),
  );
  const tasks: ReportTask[] = [];
  for (const task of listing.tasks) {
    tasks.push({
      id: task.id,
      subject: task.subject,
      status: task.status,
      ...(task.owner === undefined ? {} : { owner: task.owner }),
      blockedBy: task.blockedBy,
      ...(task.work === undefined ? {} : { work: task.work }),
      mergedInto: await mergedInto(git, state.repoRoot, task, merges),
    });
  }
  return {
    runId,
    team: state.teamName,
    status: state.status,
    ...(state.statusReason === undefined ? {} : { statusReason: state.statusReason }),
    host: state.hostId,
    createdAt: state.createdAt,
    ...(state.completedAt === undefined ? {} : { completedAt: state.completedAt }),
    durationMs: Math.max(0, (state.completedAt ?? now()) - state.createdAt),
    ...(state.baseBranch === undefined ? {} : { baseBranch: state.baseBranch }),
    ...(state.goal === undefined
      ? {}
      : {
          goal: {
            text: state.goal.text,
            criteria: state.goal.criteria.map((criterion) => ({
              ...criterion,
              met: criterion.evidence.length > 0 || criterion.waived !== undefined,
            })),
          },
        }),
    members: state.members.map((member) => ({
      name: member.name,
      role: member.role,
      isLead: member.isLead,
      status: member.status,
      ...(member.statusReason === undefined ? {} : { statusReason: member.statusReason }),
      turns: member.turns,
      messagesSent: counts.sent.get(member.name) ?? 0,
      messagesReceived: counts.received.get(member.name) ?? 0,
    })),
    tasks,
    tasksByStatus,
    branches: await memberBranches(git, state),
    messages: {
      sent: counts.total,
      copies: counts.copies,
      user: {
        sent: counts.sent.get(USER_PARTICIPANT) ?? 0,
        received: counts.received.get(USER_PARTICIPANT) ?? 0,
      },
    },
    merges,
    worktrees: await remainingWorktrees(git, state),
    problems: listing.problems,
    skippedLogLines: skipped,
  };
}
