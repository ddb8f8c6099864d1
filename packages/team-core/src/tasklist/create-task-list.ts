import path from 'node:path';
import { TeamkitError } from '../errors/index.js';
import {
  assertRunWritable,
  createRunContext,
  isActiveMember,
  type RunContextOptions,
  requireMember,
} from '../run-context/index.js';
import {
  type RunMember,
  type RuntimeState,
  type Task,
  TaskIdSchema,
  TaskSchema,
  type TaskStatus,
} from '../schema/index.js';
import {
  appendRunEvent,
  type DocumentProblem,
  type FileLock,
  parseDocument,
  serializeDocument,
  toDocumentProblem,
} from '../storage/index.js';
import { findDependencyPath } from './dependency-graph.js';
import { assertTaskTransition, DONE_TASK_STATUSES } from './task-status-machine.js';

/** Options for {@link createTaskList}: where the run lives and the injectable seams. */
export type TaskListOptions = RunContextOptions;

/** What a member creates. Dependencies name existing task ids. */
export interface CreateTaskInput {
  subject: string;
  description?: string;
  activeForm?: string;
  /** Tasks that must be done before this one can be claimed. */
  blockedBy?: string[];
  /** Tasks this one must be done before. */
  blocks?: string[];
  metadata?: Record<string, unknown>;
}

/** Filters for {@link TaskList.listTasks}. */
export interface TaskFilter {
  status?: TaskStatus | readonly TaskStatus[];
  /** Exact owner name (`writer` never matches `writer-2`). */
  owner?: string;
  /** Include tombstones of deleted tasks. Default false. */
  includeDeleted?: boolean;
}

/** Tasks sorted by numeric id, plus unreadable task files left in place. */
export interface TaskListing {
  tasks: Task[];
  problems: DocumentProblem[];
}

/** Extra facts a status move needs: a reason (blocked, cancelled) or a review note. */
export interface StatusChangeOptions {
  reason?: string;
  note?: string;
}

/** Editable text fields of a task. */
export interface TaskDetailsPatch {
  subject?: string;
  description?: string;
  activeForm?: string;
  metadata?: Record<string, unknown>;
}

/**
 * One run's task list. `caller` is always the authenticated member the host passes
 * in, never a name an agent typed into a tool argument.
 */
export interface TaskList {
  /** Creates a task with the next never-used id; edges are made symmetric. */
  createTask(caller: string, input: CreateTaskInput): Promise<Task>;
  /** Reads one task (`UNKNOWN_TASK` when absent). */
  getTask(id: string): Promise<Task>;
  /** Lists tasks by numeric id; corrupt files are reported, not replaced. */
  listTasks(filter?: TaskFilter): Promise<TaskListing>;
  /** Pending, unowned tasks whose blockers are all completed or approved. */
  readyTasks(): Promise<Task[]>;
  /** Compare-and-set claim under the task's lock; exactly one concurrent claimer wins. */
  claimTask(caller: string, id: string): Promise<Task>;
  /** Moves a task through the status machine (see {@link TASK_STATUS_TRANSITIONS}). */
  setTaskStatus(
    caller: string,
    id: string,
    to: TaskStatus,
    options?: StatusChangeOptions,
  ): Promise<Task>;
  /** Lead only: gives a task to another active member. */
  reassignTask(caller: string, id: string, newOwner: string): Promise<Task>;
  /** Owner or lead: edits subject, description, activeForm or metadata. */
  updateTaskDetails(caller: string, id: string, patch: TaskDetailsPatch): Promise<Task>;
  /** Owner of `blocked` or lead: `blocker` must be done before `blocked`. */
  addDependency(caller: string, blocker: string, blocked: string): Promise<void>;
  /** Owner of `blocked` or lead: removes the edge; a missing edge is fine. */
  removeDependency(caller: string, blocker: string, blocked: string): Promise<void>;
  /** Owner or lead: marks the task deleted and removes it from every other task's edges. */
  deleteTask(caller: string, id: string, reason?: string): Promise<Task>;
  /** Lead or the member itself: the member's open tasks return to pending, unowned. */
  releaseTasksOf(caller: string, member: string): Promise<Task[]>;
}

const OPEN_OWNED: readonly TaskStatus[] = ['pending', 'claimed', 'in_progress', 'blocked'];

function unknownTask(id: string): TeamkitError {
  return new TeamkitError('UNKNOWN_TASK', `No task ${id} exists in this run.`, {
    details: { taskId: id },
  });
}

function byNumericId(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

function assertTaskIds(ids: readonly string[]): void {
  for (const id of ids) {
    if (!TaskIdSchema.safeParse(id).success) {
      throw new TeamkitError(
        'INVALID_INPUT',
        `Task ids are positive decimal numbers; got ${JSON.stringify(id)}.`,
        {
          details: { taskId: id },
        },
      );
    }
  }
}

/**
 * Creates the task list of one run (`runtime/<runId>/tasks/`). Single-task changes run
 * under that task's lock; creation, deletion and dependency edits run under the list
 * lock first and then the locks of every task they touch, in ascending id order.
 */
export function createTaskList(options: TaskListOptions): TaskList {
  const context = createRunContext(options);
  const { paths, store } = context;
  const watermarkFile = path.join(paths.tasks, '.highwatermark');
  // withLock guards `<target>.lock`; a trailing separator makes that `tasks/.lock`.
  const listLockTarget = `${paths.tasks}${path.sep}`;

  async function withListLock<T>(fn: (lock: FileLock) => Promise<T>): Promise<T> {
    await store.ensureDir(paths.tasks);
    return store.withLock(listLockTarget, fn, context.lock);
  }

  async function withTaskLocks<T>(
    ids: readonly string[],
    fn: (locks: Map<string, FileLock>) => Promise<T>,
  ): Promise<T> {
    const sorted = [...new Set(ids)].sort(byNumericId);
    const held = new Map<string, FileLock>();
    const take = async (index: number): Promise<T> => {
      const id = sorted[index];
      if (id === undefined) return fn(held);
      return store.withLock(
        paths.task(id),
        async (lock) => {
          held.set(id, lock);
          return take(index + 1);
        },
        context.lock,
      );
    };
    return take(0);
  }

  async function readTask(id: string): Promise<Task | undefined> {
    return store.readDocument(paths.task(id), TaskSchema);
  }

  async function requireTask(id: string): Promise<Task> {
    assertTaskIds([id]);
    const task = await readTask(id);
    if (task === undefined || task.status === 'deleted') throw unknownTask(id);
    return task;
  }

  async function writeTask(task: Task, lock: FileLock | undefined): Promise<void> {
    await store.writeDocument(paths.task(task.id), TaskSchema, task, lock);
  }

  async function callerState(caller: string): Promise<{ state: RuntimeState; member: RunMember }> {
    const state = await context.readState();
    assertRunWritable(state);
    return { state, member: requireMember(state, caller) };
  }

  async function logEvent(actor: string, type: string, ids: string[], data?: object) {
    await appendRunEvent(
      store,
      paths.events,
      {
        runId: paths.runId,
        actor,
        type,
        ids,
        ...(data === undefined ? {} : { data: { ...data } }),
      },
      context.now,
    );
  }

  async function taskFileIds(): Promise<string[]> {
    return (await store.list(paths.tasks))
      .map((name) => /^([1-9][0-9]{0,15})\.json$/.exec(name)?.[1])
      .filter((id): id is string => id !== undefined)
      .sort(byNumericId);
  }

  async function readAll(): Promise<{ byId: Map<string, Task>; listing: TaskListing }> {
    const listing: TaskListing = { tasks: [], problems: [] };
    const byId = new Map<string, Task>();
    for (const id of await taskFileIds()) {
      const file = paths.task(id);
      const text = await store.readText(file);
      if (text === undefined) continue;
      try {
        const task = parseDocument(text, TaskSchema, file);
        listing.tasks.push(task);
        byId.set(task.id, task);
      } catch (error) {
        listing.problems.push(toDocumentProblem(error, file));
      }
    }
    return { byId, listing };
  }

  function openBlockers(task: Task, byId: ReadonlyMap<string, Task | undefined>): string[] {
    return task.blockedBy.filter((id) => {
      const blocker = byId.get(id);
      return blocker === undefined || !DONE_TASK_STATUSES.includes(blocker.status);
    });
  }

  async function assertBlockersDone(task: Task, to: TaskStatus): Promise<void> {
    const byId = new Map<string, Task | undefined>();
    for (const id of task.blockedBy) byId.set(id, await readTask(id));
    const open = openBlockers(task, byId);
    if (open.length > 0) {
      throw new TeamkitError(
        'BLOCKED_BY',
        `Task ${task.id} cannot become ${to}: it is blocked by open task(s) ${open.join(', ')}.`,
        { details: { taskId: task.id, blockedBy: open } },
      );
    }
  }

  function notOwner(task: Task, caller: string, action: string): TeamkitError {
    return new TeamkitError(
      'NOT_OWNER',
      `${caller} may not ${action} task ${task.id}: ${task.owner === undefined ? 'it has no owner and only the lead may' : `it is owned by ${task.owner}`}.`,
      { details: { taskId: task.id, caller, owner: task.owner ?? null, action } },
    );
  }

  function notLead(caller: string, action: string, taskId: string): TeamkitError {
    return new TeamkitError(
      'NOT_LEAD',
      `Only the team lead may ${action}; ${caller} is not the lead.`,
      {
        details: { taskId, caller, action },
      },
    );
  }

  /** Who may make a move: owner-only work, lead-only review, or either. */
  function assertMayMove(task: Task, to: TaskStatus, member: RunMember): void {
    const isOwner = task.owner !== undefined && task.owner === member.name;
    const from = task.status;
    if (to === 'in_progress' || to === 'completed') {
      if (!isOwner) throw notOwner(task, member.name, `move to ${to}`);
      return;
    }
    if (to === 'approved' || (from === 'in_review' && to === 'pending')) {
      if (!member.isLead) {
        throw notLead(
          member.name,
          to === 'approved' ? 'approve a task' : 'request changes',
          task.id,
        );
      }
      return;
    }
    if (!isOwner && !member.isLead) throw notOwner(task, member.name, `move to ${to}`);
  }

  function applyMove(task: Task, to: TaskStatus, options: StatusChangeOptions, now: number): Task {
    const next: Task = { ...task, status: to, updatedAt: now };
    const from = task.status;
    if (to === 'completed') next.completedAt = now;
    if (to === 'blocked') next.blockedReason = options.reason;
    if (from === 'blocked') delete next.blockedReason;
    if (to === 'cancelled') next.cancelledReason = options.reason;
    if (to === 'pending' && (from === 'claimed' || from === 'in_progress')) {
      delete next.owner;
      delete next.claimedAt;
    }
    if (from === 'in_review' && to === 'pending') {
      next.needsFix = true;
      next.reviewNote = options.note;
      delete next.completedAt;
    }
    if (to === 'approved') {
      delete next.needsFix;
      if (options.note !== undefined) next.reviewNote = options.note;
    }
    return next;
  }

  function requireReason(to: TaskStatus, options: StatusChangeOptions, id: string): void {
    if ((to === 'blocked' || to === 'cancelled') && (options.reason ?? '').trim() === '') {
      throw new TeamkitError('INVALID_INPUT', `Moving task ${id} to ${to} needs a reason.`, {
        details: { taskId: id, to },
      });
    }
  }

  const taskList: TaskList = {
    async createTask(caller, input) {
      await callerState(caller);
      const blockedBy = [...new Set(input.blockedBy ?? [])];
      const blocks = [...new Set(input.blocks ?? [])];
      assertTaskIds([...blockedBy, ...blocks]);
      return withListLock(async (listLock) => {
        const { byId } = await readAll();
        for (const id of [...blockedBy, ...blocks]) {
          const task = byId.get(id);
          if (task === undefined || task.status === 'deleted') throw unknownTask(id);
        }
        const highestFile = (await taskFileIds()).at(-1);
        const watermarkText = (await store.readText(watermarkFile))?.trim();
        const watermark =
          watermarkText !== undefined && /^[0-9]{1,16}$/.test(watermarkText)
            ? Number(watermarkText)
            : 0;
        const id = String(
          Math.max(watermark, highestFile === undefined ? 0 : Number(highestFile)) + 1,
        );
        for (const blocker of blockedBy) {
          const cycle = blocks.includes(blocker)
            ? [blocker]
            : blocks
                .map((blocked) =>
                  findDependencyPath((node) => byId.get(node)?.blocks ?? [], blocked, blocker),
                )
                .find((found) => found !== undefined);
          if (cycle !== undefined) {
            const loop = [id, ...cycle, id];
            throw new TeamkitError(
              'DEPENDENCY_CYCLE',
              `Task ${id} would be in a dependency cycle: ${loop.join(' → ')}.`,
              { details: { cycle: loop } },
            );
          }
        }
        const now = context.now();
        const candidate = {
          version: 1 as const,
          id,
          subject: input.subject,
          description: input.description ?? '',
          activeForm: input.activeForm,
          status: 'pending' as const,
          blocks,
          blockedBy,
          metadata: input.metadata,
          createdAt: now,
          updatedAt: now,
        };
        serializeDocument(candidate, TaskSchema, `task ${id}`);
        const task: Task = TaskSchema.parse(candidate);
        // The watermark moves first: a crash after it only skips an id, never reuses one.
        await store.writeText(watermarkFile, `${id}\n`, listLock);
        await store.createDocument(paths.task(id), TaskSchema, task);
        await withTaskLocks([...blockedBy, ...blocks], async (locks) => {
          for (const partnerId of [...new Set([...blockedBy, ...blocks])]) {
            const partner = await requireTask(partnerId);
            const next: Task = {
              ...partner,
              blocks: blockedBy.includes(partnerId)
                ? [...new Set([...partner.blocks, id])]
                : partner.blocks,
              blockedBy: blocks.includes(partnerId)
                ? [...new Set([...partner.blockedBy, id])]
                : partner.blockedBy,
              updatedAt: now,
            };
            await writeTask(next, locks.get(partnerId));
          }
        });
        await logEvent(caller, 'task.created', [id], { blockedBy, blocks });
        return task;
      });
    },

    getTask: requireTask,

    async listTasks(filter = {}) {
      if (filter.owner !== undefined) requireNameShape(filter.owner);
      const { listing } = await readAll();
      const statuses =
        filter.status === undefined
          ? undefined
          : typeof filter.status === 'string'
            ? [filter.status]
            : filter.status;
      listing.tasks = listing.tasks.filter(
        (task) =>
          (filter.includeDeleted === true || task.status !== 'deleted') &&
          (statuses === undefined || statuses.includes(task.status)) &&
          (filter.owner === undefined || task.owner === filter.owner),
      );
      return listing;
    },

    async readyTasks() {
      const { byId, listing } = await readAll();
      return listing.tasks.filter(
        (task) =>
          task.status === 'pending' &&
          task.owner === undefined &&
          openBlockers(task, byId).length === 0,
      );
    },

    async claimTask(caller, id) {
      const { member } = await callerState(caller);
      assertTaskIds([id]);
      if (!isActiveMember(member)) {
        throw new TeamkitError(
          'PERMISSION_DENIED',
          `${caller} is ${member.status} and may not claim tasks.`,
          { details: { caller, status: member.status } },
        );
      }
      const alreadyClaimed = (task: Task) =>
        new TeamkitError(
          'ALREADY_CLAIMED',
          `Task ${id} is already ${task.status} by ${task.owner ?? 'someone'}.`,
          { details: { taskId: id, owner: task.owner ?? null, status: task.status } },
        );
      // A claim that loses needs no lock: task files are replaced atomically, so a read
      // that shows the task held is a moment at which the claim was truly lost. Only a
      // claim that may win takes the lock and decides on a fresh read under it.
      const seen = await requireTask(id);
      if (seen.status === 'claimed' || seen.status === 'in_progress') throw alreadyClaimed(seen);
      return withTaskLocks([id], async (locks) => {
        const task = await requireTask(id);
        if (task.status === 'claimed' || task.status === 'in_progress') {
          throw alreadyClaimed(task);
        }
        assertTaskTransition(id, task.status, 'claimed');
        if (task.owner !== undefined && task.owner !== caller) {
          throw new TeamkitError(
            'ALREADY_CLAIMED',
            `Task ${id} is held for ${task.owner} (changes requested or blocked while owned).`,
            { details: { taskId: id, owner: task.owner, status: task.status } },
          );
        }
        await assertBlockersDone(task, 'claimed');
        const now = context.now();
        const next: Task = {
          ...task,
          status: 'claimed',
          owner: caller,
          claimedAt: now,
          updatedAt: now,
        };
        await writeTask(next, locks.get(id));
        await logEvent(caller, 'task.claimed', [id], { owner: caller });
        return next;
      });
    },

    async setTaskStatus(caller, id, to, options = {}) {
      if (to === 'claimed') return taskList.claimTask(caller, id);
      if (to === 'deleted') return taskList.deleteTask(caller, id, options.reason);
      const { member } = await callerState(caller);
      assertTaskIds([id]);
      return withTaskLocks([id], async (locks) => {
        const task = await requireTask(id);
        assertTaskTransition(id, task.status, to);
        assertMayMove(task, to, member);
        requireReason(to, options, id);
        if (task.status === 'in_review' && to === 'pending' && (options.note ?? '').trim() === '') {
          throw new TeamkitError(
            'INVALID_INPUT',
            `Requesting changes on task ${id} needs a review note saying what to fix.`,
            { details: { taskId: id } },
          );
        }
        if (to === 'completed' || to === 'approved') await assertBlockersDone(task, to);
        const next = TaskSchema.parse(applyMove(task, to, options, context.now()));
        await writeTask(next, locks.get(id));
        await logEvent(caller, 'task.status', [id], { from: task.status, to });
        return next;
      });
    },

    async reassignTask(caller, id, newOwner) {
      const { state, member } = await callerState(caller);
      assertTaskIds([id]);
      if (!member.isLead) throw notLead(caller, 'reassign a task', id);
      const target = requireMember(state, newOwner);
      if (!isActiveMember(target)) {
        throw new TeamkitError(
          'PERMISSION_DENIED',
          `${newOwner} is ${target.status} and cannot own tasks.`,
          {
            details: { member: newOwner, status: target.status },
          },
        );
      }
      return withTaskLocks([id], async (locks) => {
        const task = await requireTask(id);
        if (!OPEN_OWNED.includes(task.status)) {
          throw new TeamkitError(
            'INVALID_TRANSITION',
            `Task ${id} is ${task.status}; only ${OPEN_OWNED.join(', ')} tasks can be reassigned.`,
            { details: { taskId: id, from: task.status, allowed: [...OPEN_OWNED] } },
          );
        }
        const now = context.now();
        let next: Task = { ...task, owner: newOwner, updatedAt: now };
        if (task.status === 'pending') {
          await assertBlockersDone(task, 'claimed');
          next = { ...next, status: 'claimed', claimedAt: now };
        }
        await writeTask(next, locks.get(id));
        await logEvent(caller, 'task.reassigned', [id], { from: task.owner ?? null, to: newOwner });
        return next;
      });
    },

    async updateTaskDetails(caller, id, patch) {
      const { member } = await callerState(caller);
      assertTaskIds([id]);
      return withTaskLocks([id], async (locks) => {
        const task = await requireTask(id);
        if (task.owner !== caller && !member.isLead) throw notOwner(task, caller, 'edit');
        const next: Task = { ...task, updatedAt: context.now() };
        if (patch.subject !== undefined) next.subject = patch.subject;
        if (patch.description !== undefined) next.description = patch.description;
        if (patch.activeForm !== undefined) next.activeForm = patch.activeForm;
        if (patch.metadata !== undefined) next.metadata = patch.metadata;
        await writeTask(next, locks.get(id));
        await logEvent(caller, 'task.updated', [id], { fields: Object.keys(patch) });
        return next;
      });
    },

    async addDependency(caller, blocker, blocked) {
      const { member } = await callerState(caller);
      assertTaskIds([blocker, blocked]);
      await withListLock(async () => {
        const blockedTask = await requireTask(blocked);
        await requireTask(blocker);
        if (blockedTask.owner !== caller && !member.isLead) {
          throw notOwner(blockedTask, caller, 'add a dependency to');
        }
        const { byId } = await readAll();
        const path = findDependencyPath((node) => byId.get(node)?.blocks ?? [], blocked, blocker);
        if (path !== undefined) {
          const loop = [blocker, ...path];
          throw new TeamkitError(
            'DEPENDENCY_CYCLE',
            `Task ${blocker} blocking ${blocked} would close a cycle: ${loop.join(' → ')}.`,
            { details: { cycle: loop } },
          );
        }
        await withTaskLocks([blocker, blocked], async (locks) => {
          const from = await requireTask(blocker);
          const to = await requireTask(blocked);
          const now = context.now();
          await writeTask(
            { ...from, blocks: [...new Set([...from.blocks, blocked])], updatedAt: now },
            locks.get(blocker),
          );
          await writeTask(
            { ...to, blockedBy: [...new Set([...to.blockedBy, blocker])], updatedAt: now },
            locks.get(blocked),
          );
        });
        await logEvent(caller, 'task.dependency_added', [blocker, blocked]);
      });
    },

    async removeDependency(caller, blocker, blocked) {
      const { member } = await callerState(caller);
      assertTaskIds([blocker, blocked]);
      await withListLock(async () => {
        const blockedTask = await requireTask(blocked);
        await requireTask(blocker);
        if (blockedTask.owner !== caller && !member.isLead) {
          throw notOwner(blockedTask, caller, 'remove a dependency from');
        }
        await withTaskLocks([blocker, blocked], async (locks) => {
          const from = await requireTask(blocker);
          const to = await requireTask(blocked);
          const now = context.now();
          await writeTask(
            { ...from, blocks: from.blocks.filter((x) => x !== blocked), updatedAt: now },
            locks.get(blocker),
          );
          await writeTask(
            { ...to, blockedBy: to.blockedBy.filter((x) => x !== blocker), updatedAt: now },
            locks.get(blocked),
          );
        });
        await logEvent(caller, 'task.dependency_removed', [blocker, blocked]);
      });
    },

    async deleteTask(caller, id, reason) {
      const { member } = await callerState(caller);
      assertTaskIds([id]);
      return withListLock(async () => {
        const task = await requireTask(id);
        assertTaskTransition(id, task.status, 'deleted');
        if (task.owner !== caller && !member.isLead) throw notOwner(task, caller, 'delete');
        const partners = [...new Set([...task.blocks, ...task.blockedBy])];
        return withTaskLocks([id, ...partners], async (locks) => {
          const current = await requireTask(id);
          const now = context.now();
          for (const partnerId of partners) {
            const partner = await readTask(partnerId);
            if (partner === undefined) continue;
            await writeTask(
              {
                ...partner,
                blocks: partner.blocks.filter((x) => x !== id),
                blockedBy: partner.blockedBy.filter((x) => x !== id),
                updatedAt: now,
              },
              locks.get(partnerId),
            );
          }
          const next: Task = {
            ...current,
            status: 'deleted',
            blocks: [],
            blockedBy: [],
            updatedAt: now,
            ...(reason === undefined ? {} : { cancelledReason: reason }),
          };
          await writeTask(next, locks.get(id));
          await logEvent(caller, 'task.deleted', [id], { from: current.status, partners });
          return next;
        });
      });
    },

    async releaseTasksOf(caller, member) {
      const { member: actor } = await callerState(caller);
      requireNameShape(member);
      if (!actor.isLead && caller !== member)
        throw notLead(caller, `release ${member}'s tasks`, '*');
      const { listing } = await readAll();
      const released: Task[] = [];
      for (const candidate of listing.tasks) {
        if (candidate.owner !== member || !OPEN_OWNED.includes(candidate.status)) continue;
        const next = await withTaskLocks([candidate.id], async (locks) => {
          const task = await readTask(candidate.id);
          if (task === undefined || task.owner !== member || !OPEN_OWNED.includes(task.status)) {
            return undefined;
          }
          const moved: Task = { ...task, updatedAt: context.now() };
          delete moved.owner;
          delete moved.claimedAt;
          if (task.status === 'claimed' || task.status === 'in_progress') {
            assertTaskTransition(task.id, task.status, 'pending');
            moved.status = 'pending';
          }
          await writeTask(moved, locks.get(task.id));
          return moved;
        });
        if (next !== undefined) released.push(next);
      }
      if (released.length > 0) {
        await logEvent(
          caller,
          'task.released',
          released.map((task) => task.id),
          { member },
        );
      }
      return released;
    },
  };
  return taskList;
}

function requireNameShape(name: string): void {
  if (typeof name !== 'string' || !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name)) {
    throw new TeamkitError('INVALID_INPUT', `${JSON.stringify(name)} is not a member name.`, {
      details: { member: name },
    });
  }
}
