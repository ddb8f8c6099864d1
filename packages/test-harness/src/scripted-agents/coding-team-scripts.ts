import { isTeamkitError, type Task } from '@teamkit/team-core';
import type { TeamkitStore } from '@teamkit/team-core/storage';
import type { AgentScript } from '../test-host/index.js';
import { type AgentActions, createAgentActions, testHostEnvironment } from './agent-actions.js';

/** One task of a scripted plan: a key, who does it (by role) and what it waits for. */
export interface PlannedTask {
  key: string;
  subject: string;
  role: string;
  blockedBy: string[];
}

/** Six tasks with dependencies, for the built-in coding team. */
export const CODING_TEAM_PLAN: readonly PlannedTask[] = [
  { key: 'design', subject: 'Design the change', role: 'architect', blockedBy: [] },
  { key: 'research', subject: 'Research the library options', role: 'researcher', blockedBy: [] },
  {
    key: 'core',
    subject: 'Implement the core module',
    role: 'implementer',
    blockedBy: ['design', 'research'],
  },
  { key: 'cli', subject: 'Implement the command', role: 'implementer', blockedBy: ['design'] },
  {
    key: 'tests',
    subject: 'Test the core and the command',
    role: 'tester',
    blockedBy: ['core', 'cli'],
  },
  { key: 'review', subject: 'Review the whole change', role: 'reviewer', blockedBy: ['core'] },
];

/** How long a scripted member waits for any one message before giving up. */
const MAIL_TIMEOUT_MS = 60_000;

/** What the lead did, for assertions and summaries. */
export interface LeadOutcome {
  taskIds: Record<string, string>;
  approved: string[];
  changesRequested: string[];
  shutdownApprovedBy: string[];
}

/**
 * The lead's behaviour: create the plan's tasks with their dependencies, announce the
 * plan, review each task as it is offered (asking for changes once, on the first
 * implementer task), approve the rest, then shut every member down.
 */
export async function playLead(
  a: AgentActions,
  options: {
    plan?: readonly PlannedTask[];
    requestChangesOnce?: boolean;
    timeoutMs?: number;
    /**
     * Who reviews: the lead itself (default), or the user (from `team task approve`, the
     * web UI, …) while the lead waits until every task of its plan is approved.
     */
    reviews?: 'lead' | 'user';
  } = {},
): Promise<LeadOutcome> {
  const plan = options.plan ?? CODING_TEAM_PLAN;
  const timeoutMs = options.timeoutMs ?? MAIL_TIMEOUT_MS;
  const outcome: LeadOutcome = {
    taskIds: {},
    approved: [],
    changesRequested: [],
    shutdownApprovedBy: [],
  };
  for (const planned of plan) {
    const task = await a.client.createTask({
      subject: planned.subject,
      description: `${planned.subject}. Done means: committed, with evidence in the report.`,
      blockedBy: planned.blockedBy.map((key) => {
        const id = outcome.taskIds[key];
        if (id === undefined)
          throw new Error(`plan task ${planned.key} names unknown blocker ${key}`);
        return id;
      }),
      metadata: { role: planned.role, key: planned.key },
    });
    outcome.taskIds[planned.key] = task.id;
  }
  await a.broadcast(`Plan ready: ${plan.length} tasks. Claim the ready ones for your role.`, {
    summary: 'plan ready',
  });
  let askedForChanges = options.requestChangesOnce === false;
  if (options.reviews === 'user') await waitForUserReviews(a, outcome, timeoutMs);
  while (outcome.approved.length < plan.length) {
    const mail = await a.waitForMail({ kind: 'task_update' }, { timeoutMs });
    const id = /review (\d+)/.exec(mail.body)?.[1];
    if (id === undefined) continue;
    const task = await a.client.getTask(id);
    if (task.status !== 'in_review') continue;
    if (!askedForChanges && task.metadata?.role === 'implementer' && task.owner !== undefined) {
      askedForChanges = true;
      await a.requestChanges(id, 'Add a test for the empty input.');
      outcome.changesRequested.push(id);
      await a.send(task.owner, `changes requested on task ${id}: add a test for the empty input`, {
        summary: `changes requested on ${id}`,
      });
      continue;
    }
    await a.approve(id);
    outcome.approved.push(id);
    await a.broadcast(`Approved task ${id} (${outcome.approved.length}/${plan.length}).`, {
      summary: `approved ${id}`,
    });
  }
  const state = await a.client.state();
  const others = state.members.filter((member) => !member.isLead && member.status !== 'terminated');
  for (const member of others)
    await a.client.requestShutdown(member.name, 'All tasks are approved.');
  const waiting = new Set(others.map((member) => member.name));
  while (waiting.size > 0) {
    const mail = await a.waitForMail({ kind: 'shutdown_approved' }, { timeoutMs });
    if (waiting.delete(mail.from)) outcome.shutdownApprovedBy.push(mail.from);
  }
  return outcome;
}

/**
 * Waits until the user approved every task the lead planned, announcing each approval
 * and reading (and dropping) the lead's mail meanwhile. Gives up after `timeoutMs`
 * without any task changing.
 */
async function waitForUserReviews(
  a: AgentActions,
  outcome: LeadOutcome,
  timeoutMs: number,
): Promise<void> {
  const ids = Object.values(outcome.taskIds);
  let lastSeen = '';
  let lastChange = Date.now();
  for (;;) {
    const tasks = await Promise.all(ids.map((id) => a.client.getTask(id)));
    const seen = tasks.map((task) => `${task.id}:${task.status}`).join(',');
    if (seen !== lastSeen) {
      lastSeen = seen;
      lastChange = Date.now();
    }
    // Tell the team about each approval, as the lead does when it approves: members wait
    // for mail before they look for newly ready tasks.
    for (const task of tasks) {
      if (task.status !== 'approved' || outcome.approved.includes(task.id)) continue;
      outcome.approved.push(task.id);
      await a.broadcast(`Approved task ${task.id} (${outcome.approved.length}/${ids.length}).`, {
        summary: `approved ${task.id}`,
      });
    }
    if (outcome.approved.length === ids.length) return;
    if (Date.now() - lastChange > timeoutMs)
      throw new Error(`no task changed for ${timeoutMs} ms while waiting for the user's reviews`);
    try {
      await a.waitForMail({ kind: 'task_update' }, { timeoutMs: 250 });
    } catch {
      // No mail this time round: look at the tasks again.
    }
  }
}

/**
 * A member's behaviour: claim ready tasks of its role, do them (committing a file when
 * it has a worktree), complete them and offer them for review; redo a task when the
 * lead asks for changes; approve the shutdown when asked.
 */
export async function playWorker(
  a: AgentActions,
  options: { role: string; commits: boolean; timeoutMs?: number },
): Promise<{ done: string[] }> {
  const timeoutMs = options.timeoutMs ?? MAIL_TIMEOUT_MS;
  const state = await a.client.state();
  const lead = state.members.find((member) => member.isLead)?.name;
  if (lead === undefined) throw new Error('the run has no lead');
  const done: string[] = [];
  const work = async (task: Task, round: number) => {
    await a.start(task.id);
    if (options.commits) {
      await a.commitFile(
        `work/task-${task.id}.md`,
        `# ${task.subject}\n\nDone by ${a.name}, round ${round}.\n`,
        `${a.name}: ${task.subject} (round ${round})`,
      );
    }
    try {
      await a.complete(task.id);
    } catch (error) {
      // A blocker was reopened (changes requested) after this task was claimed: hand
      // the task back and take it again once the blocker is done.
      if (!isTeamkitError(error, 'BLOCKED_BY')) throw error;
      await a.client.releaseTask(task.id);
      return;
    }
    await a.requestReview(task.id);
    await a.send(lead, `review ${task.id}`, {
      kind: 'task_update',
      summary: `task ${task.id} ready for review`,
    });
    done.push(task.id);
  };
  const workReady = async () => {
    for (;;) {
      const task = await a.claimNextReadyTask(
        (candidate) => candidate.metadata?.role === options.role,
      );
      if (task === undefined) return;
      await work(task, 1);
    }
  };
  await workReady();
  for (;;) {
    const mail = await a.waitForMail({}, { timeoutMs });
    if (mail.kind === 'shutdown_request') {
      await a.client.approveShutdown();
      return { done };
    }
    const fix = /^changes requested on task (\d+)/.exec(mail.body)?.[1];
    if (fix !== undefined) await work(await a.client.claimTask(fix), 2);
    await workReady();
  }
}

/** The scripts of the built-in coding team on the test host, by member name. */
export function codingTeamScripts(options: {
  /** The store of the runtime the scripts play in. */
  store: TeamkitStore;
  commitsFor?: readonly string[];
  onLeadDone?: (outcome: LeadOutcome) => void;
}): Record<string, AgentScript> {
  const commitsFor = new Set(options.commitsFor ?? ['implementer', 'tester']);
  const worker =
    (role: string): AgentScript =>
    async (agent) => {
      await playWorker(createAgentActions(testHostEnvironment(agent, options.store)), {
        role,
        commits: commitsFor.has(role),
      });
    };
  return {
    lead: async (agent) => {
      const outcome = await playLead(createAgentActions(testHostEnvironment(agent, options.store)));
      options.onLeadDone?.(outcome);
    },
    architect: worker('architect'),
    implementer: worker('implementer'),
    reviewer: worker('reviewer'),
    tester: worker('tester'),
    researcher: worker('researcher'),
  };
}
