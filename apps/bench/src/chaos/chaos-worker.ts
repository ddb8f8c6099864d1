import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import {
  createMailbox,
  createTaskList,
  isTeamkitError,
  type Mailbox,
  openRun,
  type TaskList,
  type TaskStatus,
} from '@teamkit/team-core';
import { recordTurn, transitionMember } from '@teamkit/team-core/state';
import type { TeamkitStore } from '@teamkit/team-core/storage';
import { seededRandom } from '../shuffle.js';
import { CHAOS_LOCK, type WorkerCommand } from './chaos-protocol.js';
import { openChaosStore } from './chaos-store.js';

// The store of the harness's home, opened (connected, for NATS) before this worker counts
// as ready; the harness sends no job before then.
let opened: TeamkitStore | undefined;
const chaosStore = (): TeamkitStore => {
  if (opened === undefined) throw new Error('chaos worker: a job before the store was opened');
  return opened;
};

// Refusals a correct team produces under contention; anything else is reported.
const EXPECTED_CODES = new Set([
  'ALREADY_CLAIMED',
  'INVALID_TRANSITION',
  'NOT_OWNER',
  'BLOCKED_BY',
  'UNKNOWN_TASK',
  'RECIPIENT_BACKPRESSURE',
  'UNKNOWN_RECIPIENT',
]);

interface Job {
  home: string;
  runId: string;
  member: string;
  random: () => number;
  mailbox: Mailbox;
  tasks: TaskList;
  idle: boolean;
}

// stdout is a pipe, which Node writes synchronously on Linux: once `say` returns, the
// line is the harness's even if this process is killed on the next instruction.
function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

function pick<T>(items: readonly T[], random: () => number): T | undefined {
  return items[Math.floor(random() * items.length)];
}

const NEXT_STATUS: Partial<Record<TaskStatus, readonly TaskStatus[]>> = {
  claimed: ['in_progress', 'in_progress', 'pending', 'blocked'],
  in_progress: ['completed', 'completed', 'pending'],
  completed: ['in_review'],
  blocked: ['pending'],
};

async function step(job: Job): Promise<void> {
  const { mailbox, tasks, member, random } = job;
  const roll = random();
  if (roll < 0.25) {
    const state = await openRun({
      home: job.home,
      runId: job.runId,
      store: chaosStore(),
    }).state.read();
    const peers = state.members
      .filter((m) => m.name !== member && m.status !== 'terminated')
      .map((m) => m.name);
    const to = pick(peers, random);
    if (to === undefined) return;
    const sent = await mailbox.sendMessage({ from: member, to, body: `chaos from ${member}` });
    say(`sent ${to} ${sent.messageId}`);
  } else if (roll < 0.45) {
    const { messages } = await mailbox.listUnread(member);
    const ids = messages.slice(0, 3).map((message) => message.messageId);
    if (ids.length === 0) return;
    const { reserved } = await mailbox.reserve(member, ids);
    const reservedIds = reserved.map((message) => message.messageId);
    const choice = random();
    if (choice < 0.4) await mailbox.commit(member, reservedIds);
    else if (choice < 0.7) await mailbox.acknowledge(member, reservedIds);
    else await mailbox.release(member, reservedIds);
  } else if (roll < 0.65) {
    const ready = await tasks.readyTasks();
    const task = pick(ready, random);
    if (task === undefined) return;
    await tasks.claimTask(member, task.id);
    say(`claimed ${task.id}`);
  } else if (roll < 0.85) {
    const { tasks: owned } = await tasks.listTasks({ owner: member });
    const task = pick(owned, random);
    const to = task === undefined ? undefined : pick(NEXT_STATUS[task.status] ?? [], random);
    if (task === undefined || to === undefined) return;
    const reason = to === 'blocked' ? 'waiting on a peer' : undefined;
    await tasks.setTaskStatus(member, task.id, to, reason === undefined ? {} : { reason });
    say(`status ${task.id} ${task.status} ${to}`);
  } else if (roll < 0.96) {
    const to = job.idle ? 'running' : 'idle';
    await transitionMember(job.home, job.runId, member, to, {
      store: chaosStore(),
      lock: CHAOS_LOCK,
      actor: member,
    });
    job.idle = !job.idle;
    say(`member ${member} ${to}`);
  } else {
    await recordTurn(job.home, job.runId, member, {
      store: chaosStore(),
      lock: CHAOS_LOCK,
      actor: member,
    });
    say(`turn ${member}`);
  }
}

async function main(): Promise<void> {
  let job: Job | undefined;
  let paused = true;
  let wake: (() => void) | undefined;
  let waiting = false;
  const lines = createInterface({ input: process.stdin });
  lines.on('close', () => process.exit(0));
  lines.on('line', (line) => {
    const command = JSON.parse(line) as WorkerCommand;
    if (command.cmd === 'pause') {
      paused = true;
      // A waiting loop answers at once; a working one at its next operation boundary.
      if (waiting) say('paused');
    } else if (command.cmd === 'go') {
      paused = false;
      wake?.();
    } else {
      job = {
        home: command.home,
        runId: command.runId,
        member: command.member,
        random: seededRandom(command.seed),
        mailbox: createMailbox({
          home: command.home,
          runId: command.runId,
          store: chaosStore(),
          lock: CHAOS_LOCK,
        }),
        tasks: createTaskList({
          home: command.home,
          runId: command.runId,
          store: chaosStore(),
          lock: CHAOS_LOCK,
        }),
        idle: false,
      };
      const joined = job;
      transitionMember(joined.home, joined.runId, joined.member, 'running', {
        store: chaosStore(),
        lock: CHAOS_LOCK,
        actor: joined.member,
        sessionId: `pid:${process.pid}`,
      }).then(
        () => say(`joined ${joined.member}`),
        (error: unknown) => say(`unexpected join ${String(error)}`),
      );
    }
  });
  // Opened before this worker counts as ready, so a restart does not wait for it.
  opened = (await openChaosStore(process.env.TEAMKIT_HOME ?? '', process.env)).store;
  // Loads the lazy parts of team-core before the harness counts this worker as ready.
  await openRun({
    home: process.env.TEAMKIT_HOME ?? '',
    runId: '00000000-0000-4000-8000-000000000000',
    store: opened,
  })
    .state.read()
    .catch(() => {});
  say('ready');
  for (;;) {
    if (paused || job === undefined) {
      if (paused && job !== undefined) say('paused');
      waiting = true;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      waiting = false;
      continue;
    }
    const current = job;
    try {
      await step(current);
    } catch (error) {
      if (!isTeamkitError(error) || !EXPECTED_CODES.has(error.code)) {
        say(
          `unexpected ${isTeamkitError(error) ? error.code : 'error'} ${String(error).split('\n')[0]}`,
        );
      }
    }
    // A little think time between operations, as agents have: it keeps a killed
    // process from holding a lock in most trials (a dead holder's lock costs its
    // 2 s stale period), while kills still land inside operations every few trials.
    await delay(current.random() * 8);
  }
}

await main();
