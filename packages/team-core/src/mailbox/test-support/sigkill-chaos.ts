import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskSchema } from '../../schema/index.js';
import { createFileStore } from '../../storage/index.js';
import { createTaskList } from '../../tasklist/create-task-list.js';
import { inboxContents } from '../../test-support/inbox-contents.js';
import { createRunFixture, type RunFixture } from '../../test-support/run-fixture.js';
import { killAllWorkers, startWorker } from '../../test-support/worker-process.js';
import { createMailbox } from '../create-mailbox.js';

const WORKER = fileURLToPath(new URL('../__fixtures__/chaos-worker.mjs', import.meta.url));
// Consecutive trials of a lane rotate over the inboxes, so a lock left by a killed
// process is stale (2 s) before the lane comes back to it.
const RECIPIENTS = Array.from({ length: 8 }, (_, i) => `inbox-${i + 1}`);
const CLAIMERS = ['claimer-1', 'claimer-2', 'claimer-3'];
const TASKS = 200;
const LOCK = { staleMs: 2_000, timeoutMs: 30_000 };

/**
 * Registers the SIGKILL chaos test of the mailbox and task list: `trialsPerRole` senders,
 * ackers and claimers each (in two lanes per role), every child SIGKILLed at a random
 * moment; nothing sent may be lost, torn, duplicated or claimed twice. `pnpm test` runs a
 * short count, `pnpm test:slow` the full one.
 */
export function describeSigkillChaos(trialsPerRole: number, timeoutMs: number): void {
  let fixture: RunFixture;
  beforeAll(async () => {
    fixture = await createRunFixture({
      members: [
        { name: 'lead', isLead: true },
        ...RECIPIENTS.map((name) => ({ name })),
        ...CLAIMERS.map((name) => ({ name })),
      ],
      policy: { unreadMaxBytes: 64 * 1024 * 1024 },
    });
  });
  afterAll(async () => {
    killAllWorkers();
    await fixture.cleanup();
  });

  type Role = 'sender' | 'acker' | 'claimer';

  /** Runs trials of one role back to back, each child SIGKILLed at a random moment. */
  async function lane(
    role: Role,
    laneIndex: number,
    trials: number,
    log: string[],
  ): Promise<number> {
    let killed = 0;
    for (let trial = 0; trial < trials; trial += 1) {
      const member = role === 'claimer' ? (CLAIMERS[trial % CLAIMERS.length] as string) : 'lead';
      const half = RECIPIENTS.length / 2;
      const slice = role === 'acker' ? 1 - laneIndex : laneIndex;
      const inbox = RECIPIENTS[slice * half + (trial % half)] as string;
      const worker = startWorker(WORKER, [fixture.home, fixture.runId, role, member, inbox]);
      await worker.ready;
      await delay(Math.random() * 400);
      if (worker.child.exitCode === null && worker.child.pid !== undefined) {
        process.kill(worker.child.pid, 'SIGKILL');
      }
      const exit = await worker.exited;
      if (exit.signal === 'SIGKILL') killed += 1;
      else if (exit.code !== 0) throw new Error(`${role} trial failed: ${worker.stderr.join('')}`);
      log.push(...worker.lines);
    }
    return killed;
  }

  describe.concurrent('SIGKILL chaos (real processes)', () => {
    it(
      `kills ${3 * 2 * Math.ceil(trialsPerRole / 2)} senders, ackers and claimers at random moments: nothing lost, torn or double-owned`,
      async () => {
        const tasks = createTaskList({
          store: createFileStore({ root: fixture.home }),
          home: fixture.home,
          runId: fixture.runId,
          lock: LOCK,
        });
        for (let i = 0; i < TASKS; i += 1)
          await tasks.createTask('lead', { subject: `task ${i + 1}` });

        const sentLog: string[] = [];
        const ackLog: string[] = [];
        const claimLog: string[] = [];
        // Two lanes per role overlap the start-up of one child with the work of others.
        const perLane = Math.ceil(trialsPerRole / 2);
        const killed = await Promise.all(
          [0, 1].flatMap((index) => [
            lane('sender', index, perLane, sentLog),
            lane('acker', index, perLane, ackLog),
            lane('claimer', index, perLane, claimLog),
          ]),
        );
        // most trials must really have been cut short, or the test proves little
        expect(killed.reduce((a, b) => a + b, 0)).toBeGreaterThan(trialsPerRole);

        const mailbox = createMailbox({
          store: createFileStore({ root: fixture.home }),
          home: fixture.home,
          runId: fixture.runId,
          lock: LOCK,
        });
        await mailbox.reclaimStaleReservations(0);

        const sent = new Map<string, string[]>(RECIPIENTS.map((member) => [member, []]));
        for (const line of sentLog) {
          const [, to, id] = line.split(' ');
          sent.get(to as string)?.push(id as string);
        }
        expect(sentLog.length).toBeGreaterThan(0);
        for (const member of RECIPIENTS) {
          const contents = await inboxContents(fixture.paths.inbox(member));
          expect(contents.reserved).toEqual([]);
          expect(contents.temp).toEqual([]);
          const all = [...contents.unread, ...contents.processed];
          expect(new Set(all).size, `duplicate message on disk for ${member}`).toBe(all.length);
          const present = new Set(all);
          for (const id of sent.get(member) ?? []) expect(present.has(id), `lost ${id}`).toBe(true);
          const { messages, problems } = await mailbox.listUnread(member);
          expect(problems).toEqual([]);
          expect(messages.map((m) => m.messageId).sort()).toEqual([...contents.unread].sort());
        }

        const claimedBy = new Map<string, number>();
        for (const line of claimLog) {
          const id = line.split(' ')[1] as string;
          claimedBy.set(id, (claimedBy.get(id) ?? 0) + 1);
        }
        expect(
          [...claimedBy.values()].every((count) => count === 1),
          'a task was claimed twice',
        ).toBe(true);
        for (const name of await readdir(fixture.paths.tasks)) {
          if (!/^[0-9]+\.json$/.test(name)) continue;
          const task = TaskSchema.parse(
            JSON.parse(await readFile(`${fixture.paths.tasks}/${name}`, 'utf8')),
          );
          if (claimedBy.has(task.id)) expect(task.status).toBe('claimed');
          if (task.status === 'claimed') expect(CLAIMERS).toContain(task.owner);
        }
        const { problems } = await tasks.listTasks();
        expect(problems).toEqual([]);
      },
      timeoutMs,
    );
  });
}
