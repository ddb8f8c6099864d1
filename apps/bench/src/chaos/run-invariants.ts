import {
  canTaskTransition,
  type MemberStatus,
  openRun,
  type RunEvent,
  type RunStatus,
  type TaskStatus,
} from '@teamkit/team-core';
import { RuntimeStateSchema } from '@teamkit/team-core/schema';
import { canTransitionMember, canTransitionRun } from '@teamkit/team-core/state';
import type { TeamkitStore } from '@teamkit/team-core/storage';
import { readRunDocuments, readRunFiles, readTaskHeads } from './run-documents.js';

/**
 * The families of invariants a chaos trial checks: `files` is the file store's (every file
 * of the run parses), `documents` its equivalent on a store without files (every value and
 * message the store lists parses); a trial checks one of the two.
 */
export type InvariantName = 'messages' | 'files' | 'documents' | 'tasks' | 'run-state';

/** Every invariant family with the violations found (an empty list means it held). */
export type InvariantReport = Record<InvariantName, string[]>;

/**
 * What the workers reported, in the order the harness read it: a line is logged only
 * after the operation it names resolved, so the ledger is a lower bound of what happened.
 * Lines of different workers arrive through different pipes, so their order across
 * workers is not the order of the operations; who held a task when is therefore judged
 * from the run's event log (see {@link checkRunInvariants}), not from this ledger.
 */
export class ChaosLedger {
  /** Message id -> recipient, for every message whose send resolved. */
  readonly sent = new Map<string, string>();
  /** Message entries already judged by the `documents` check (their texts never change). */
  readonly parsedEntries = new Set<string>();
  /** Violations seen while the log was read (double claims, illegal logged moves). */
  readonly violations: { name: InvariantName; message: string }[] = [];

  /** Records one stdout line of `member`'s worker. */
  record(member: string, line: string): void {
    const [kind, first, second, third] = line.split(' ');
    if (kind === 'sent' && first !== undefined && second !== undefined) {
      this.sent.set(second, first);
    } else if (kind === 'status' && first !== undefined && second !== undefined) {
      const from = second as TaskStatus;
      const to = third as TaskStatus;
      if (!canTaskTransition(from, to)) {
        this.violations.push({
          name: 'tasks',
          message: `${member} moved task ${first} ${from} -> ${to}, which the status machine forbids`,
        });
      }
    }
  }
}

/** A task's logged changes in a line (type, actor, sequence), to tell how a violation came about. */
async function eventsOf(run: ReturnType<typeof openRun>, taskId: string): Promise<string> {
  const { events } = await run.events.read();
  return events
    .filter((event) => event.ids?.includes(taskId))
    .map((event) => {
      const data = (event.data ?? {}) as {
        to?: unknown;
        sequence?: unknown;
        sequences?: Record<string, unknown>;
      };
      const sequence = data.sequence ?? data.sequences?.[taskId];
      return `${event.type.replace('task.', '')}${data.to === undefined ? '' : `>${String(data.to)}`} by ${event.actor} #${String(sequence ?? '?')}`;
    })
    .join(', ');
}

/** What the checker needs besides the files: the ledger and who is alive. */
export interface InvariantInput {
  home: string;
  /** The store holding the run. */
  store: TeamkitStore;
  runId: string;
  ledger: ChaosLedger;
  /** Worker members whose process runs. */
  alive: readonly string[];
  /** Worker members whose process was killed (this trial and earlier ones). */
  dead: readonly string[];
  /** `files` walks the run's folder (the file store); `documents` lists the store (default `files`). */
  documents?: 'files' | 'documents';
}

const DONE_ONCE: readonly TaskStatus[] = ['completed', 'in_review', 'approved'];
const HELD: readonly TaskStatus[] = ['claimed', 'in_progress'];

/**
 * Checks one run after a kill and a resume, with every live worker paused: every file
 * (or, on a store without files, every listed document) parses against its schema, the
 * store's listings agree with its entries, every logged message sits in exactly one place and none is
 * reserved, tasks have one legal owner and symmetric edges, and the run state is legal
 * and agrees with which processes live.
 */
export async function checkRunInvariants(input: InvariantInput): Promise<InvariantReport> {
  const report: InvariantReport = {
    messages: [],
    files: [],
    documents: [],
    tasks: [],
    'run-state': [],
  };
  for (const { name, message } of input.ledger.violations) report[name].push(message);
  const run = openRun({ home: input.home, runId: input.runId, store: input.store });
  const documentsName = input.documents ?? 'files';
  const documents =
    documentsName === 'files'
      ? await readRunFiles(input.home, input.runId)
      : await readRunDocuments(run.store, input.runId, input.ledger.parsedEntries);
  const { stateText, problems } = documents;
  report[documentsName].push(...problems);
  let tasks = documents.tasks;
  if (documentsName === 'files') {
    const heads = await readTaskHeads(run.store, input.runId);
    tasks = heads.tasks;
    report.files.push(...heads.problems);
  }

  // messages
  const places = new Map<string, string[]>();
  for (const member of await run.store.list(run.keys.inboxes)) {
    if (!/^[a-z0-9][a-z0-9-]*$/i.test(member)) continue;
    const inbox = run.keys.inbox(member);
    for (const state of ['unread', 'reserved', 'processed'] as const) {
      for (const { id } of await run.store.listEntries(inbox, state)) {
        if (state === 'reserved') {
          report.messages.push(`${member}'s message ${id} is still reserved after reclaim`);
        }
        // The listing and the entry agree (on NATS: the collection's ledger and the entry key).
        if (state !== 'processed') {
          const read = await run.store.entryState(inbox, id);
          if (read !== state) {
            report.messages.push(`${member}'s message ${id} is listed ${state} but reads ${read}`);
          }
        }
        places.set(id, [...(places.get(id) ?? []), `${member}/${state}`]);
      }
    }
  }
  for (const [id, recipient] of input.ledger.sent) {
    const where = places.get(id) ?? [];
    const mine = where.filter((place) => place.startsWith(`${recipient}/`));
    if (mine.length !== 1 || where.length !== 1) {
      report.messages.push(
        `message ${id} to ${recipient} was sent but is in ${where.length === 0 ? 'no place' : where.join(' and ')}`,
      );
    }
  }
  for (const [id, where] of places) {
    if (where.length > 1) report.messages.push(`message ${id} is in ${where.join(' and ')}`);
  }

  // tasks
  for (const task of tasks.values()) {
    if (task.status === 'deleted') continue;
    for (const blocker of task.blockedBy) {
      const other = tasks.get(blocker);
      if (other === undefined || !other.blocks.includes(task.id)) {
        report.tasks.push(`task ${task.id} is blocked by ${blocker}, which does not block it back`);
      }
      if (
        DONE_ONCE.includes(task.status) &&
        (other === undefined || !DONE_ONCE.includes(other.status))
      ) {
        report.tasks.push(
          `task ${task.id} is ${task.status} while its blocker ${blocker} is ${other?.status ?? 'missing'}`,
        );
      }
    }
    for (const blocked of task.blocks) {
      if (!tasks.get(blocked)?.blockedBy.includes(task.id)) {
        report.tasks.push(`task ${task.id} blocks ${blocked}, which is not blocked by it`);
      }
    }
    if (HELD.includes(task.status)) {
      if (task.owner === undefined)
        report.tasks.push(`task ${task.id} is ${task.status} without an owner`);
      else if (input.dead.includes(task.owner)) {
        report.tasks.push(
          `task ${task.id} is still ${task.status} by ${task.owner}, whose process died (its events: ${await eventsOf(run, task.id)})`,
        );
      }
    }
  }

  // run state
  if (stateText === undefined) {
    report['run-state'].push('state.json is missing or invalid');
  } else {
    const state = RuntimeStateSchema.parse(JSON.parse(stateText));
    if (state.status !== 'active')
      report['run-state'].push(`the run is ${state.status}, not active`);
    for (const member of state.members) {
      if (input.dead.includes(member.name) && !['errored', 'terminated'].includes(member.status)) {
        report['run-state'].push(`${member.name} was killed but is ${member.status}`);
      }
      if (input.alive.includes(member.name) && !['running', 'idle'].includes(member.status)) {
        report['run-state'].push(`${member.name} is alive but ${member.status}`);
      }
    }
  }
  // Each task change writes the task's next `sequence` by compare-and-set and logs it
  // with its event, so a task's events are replayed in sequence order, whatever order
  // concurrent writers appended them in (worker lines from different pipes say less).
  const holders = new Map<string, string>();
  const { events, skipped } = await run.events.read();
  if (skipped > 0) report[documentsName].push(`events.jsonl has ${skipped} torn or invalid lines`);
  const taskEvents = new Map<string, { sequence: number; index: number; event: RunEvent }[]>();
  events.forEach((event, index) => {
    const { from, to } = (event.data ?? {}) as { from?: string; to?: string };
    if (event.type === 'member.status' && from && to) {
      if (!canTransitionMember(from as MemberStatus, to as MemberStatus)) {
        report['run-state'].push(`${event.ids?.[0]} moved ${from} -> ${to}`);
      }
      return;
    }
    if (event.type === 'run.status' && from && to) {
      if (!canTransitionRun(from as RunStatus, to as RunStatus)) {
        report['run-state'].push(`the run moved ${from} -> ${to}`);
      }
      return;
    }
    if (!event.type.startsWith('task.')) return;
    const sequences = (event.data?.sequences ?? {}) as Record<string, number | undefined>;
    for (const id of event.ids ?? []) {
      const sequence =
        typeof event.data?.sequence === 'number' ? event.data.sequence : (sequences[id] ?? 0);
      taskEvents.set(id, [...(taskEvents.get(id) ?? []), { sequence, index, event }]);
    }
  });
  for (const [taskId, list] of taskEvents) {
    list.sort((a, b) => a.sequence - b.sequence || a.index - b.index);
    for (const { event } of list) {
      const data = (event.data ?? {}) as { from?: string; to?: string; owner?: string };
      if (event.type === 'task.claimed' && data.owner) {
        const holder = holders.get(taskId);
        // A member killed between its release and the release's event line leaves the
        // log saying it still holds the task; only a live holder proves a double claim.
        if (holder !== undefined && holder !== data.owner && !input.dead.includes(holder)) {
          report.tasks.push(
            `task ${taskId} claimed by ${data.owner} while ${holder} still held it`,
          );
        }
        holders.set(taskId, data.owner);
      } else if (event.type === 'task.status') {
        if (data.to === 'pending' && (data.from === 'claimed' || data.from === 'in_progress'))
          holders.delete(taskId);
      } else if (event.type === 'task.released') {
        holders.delete(taskId);
      } else if (event.type === 'task.reassigned' && data.to) {
        holders.set(taskId, data.to);
      }
    }
  }
  for (const task of tasks.values()) {
    const holder = holders.get(task.id);
    if (holder !== undefined && !input.dead.includes(holder) && task.owner !== holder) {
      report.tasks.push(
        `task ${task.id} was last claimed by ${holder} but is owned by ${task.owner ?? 'nobody'}`,
      );
    }
  }
  return report;
}
