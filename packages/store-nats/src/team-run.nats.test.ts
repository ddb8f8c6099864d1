import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { sourceNodeArgs } from '@teamkit/repo-testing';
import { createMailbox, createTaskList } from '@teamkit/team-core';
import { RuntimeStateSchema, TeamPolicySchema } from '@teamkit/team-core/schema';
import { runKeys } from '@teamkit/team-core/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { type NatsFixture, startNatsFixture } from './test-support/nats-fixture.js';
import { natsServerMissing } from './test-support/nats-test-server.js';

// team-core's task list and mailbox on the NATS store, as a run shared by machines uses
// them: the claim race of tasklist/claim-race.test.ts with every process on NATS, and a
// server killed mid-run.
const missing = natsServerMissing();
const WORKER = fileURLToPath(new URL('./__fixtures__/task-claim-worker.mjs', import.meta.url));
const PROCESSES = 8;
const TASKS = 100;
// The home names nothing on disk here: every document of the run is in the store.
const HOME = '/nonexistent-teamkit-home';

const members = Array.from({ length: PROCESSES }, (_, i) =>
  i === 0 ? 'writer' : `writer-${i + 1}`,
);

async function writeRun(fixture: NatsFixture, runId: string): Promise<void> {
  const state = RuntimeStateSchema.parse({
    version: 1,
    runId,
    teamName: 'nats-team',
    teamSource: { scope: 'inline' },
    hostId: 'test',
    createdAt: 1,
    updatedAt: 1,
    status: 'active',
    members: [
      { name: 'lead', role: 'lead', isLead: true, status: 'running' },
      ...members.map((name) => ({ name, role: 'member', isLead: false, status: 'running' })),
    ],
    policy: TeamPolicySchema.parse({}),
  });
  await fixture.store.put(runKeys(runId).state, `${JSON.stringify(state, null, 2)}\n`);
}

interface Worker {
  lines: string[];
  stderr: string[];
  exited: Promise<number | null>;
}

function startWorker(args: string[]): Worker {
  const child = spawn(process.execPath, [...sourceNodeArgs(), WORKER, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const stderr: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  return { lines, stderr, exited: new Promise((resolve) => child.once('exit', resolve)) };
}

describe.skipIf(missing !== undefined)('a team run on the NATS store', () => {
  let fixture: NatsFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it(`${PROCESSES} processes race for each of ${TASKS} tasks: exactly one owner each`, async () => {
    fixture = await startNatsFixture();
    const runId = randomUUID();
    await writeRun(fixture, runId);
    const tasks = createTaskList({ home: HOME, runId, store: fixture.store });
    for (let i = 0; i < TASKS; i += 1) await tasks.createTask('lead', { subject: `task ${i + 1}` });
    const prefix = fixture.store.bucketPrefix;
    const workers = members.map((member) =>
      startWorker([fixture?.server.url ?? '', prefix, HOME, runId, member, String(TASKS)]),
    );
    const codes = await Promise.all(workers.map((worker) => worker.exited));
    for (const [index, code] of codes.entries())
      expect(code, workers[index]?.stderr.join('')).toBe(0);
    const results = workers.map(
      (worker) => JSON.parse(worker.lines.at(-1) ?? '{}') as { member: string; won: string[] },
    );
    const winnerOf = new Map<string, string>();
    let doubleClaims = 0;
    for (const result of results) {
      for (const id of result.won) {
        if (winnerOf.has(id)) doubleClaims += 1;
        winnerOf.set(id, result.member);
      }
    }
    expect(doubleClaims).toBe(0);
    expect(winnerOf.size).toBe(TASKS);
    const { tasks: stored, problems } = await tasks.listTasks();
    expect(problems).toEqual([]);
    for (const task of stored) {
      expect(task.status).toBe('claimed');
      expect(task.owner).toBe(winnerOf.get(task.id));
    }
  }, 300_000);

  it('loses no acknowledged message or task when the server is killed and restarted mid-run', async () => {
    fixture = await startNatsFixture();
    const runId = randomUUID();
    await writeRun(fixture, runId);
    const { store, server } = fixture;
    const mailbox = createMailbox({ home: HOME, runId, store });
    const tasks = createTaskList({ home: HOME, runId, store });
    const sent: string[] = [];
    const created: string[] = [];
    const total = 40;
    const writing = (async () => {
      for (let i = 0; i < total; i += 1) {
        const message = await mailbox.sendMessage({
          from: 'writer',
          to: 'lead',
          body: `note ${i}`,
        });
        sent.push(message.messageId);
        const task = await tasks.createTask('lead', { subject: `step ${i}` });
        created.push(task.id);
      }
    })();
    while (sent.length < total / 3) await delay(20);
    await server.kill();
    await server.restart();
    await writing;
    const unread = await mailbox.listUnread('lead');
    expect(new Set(unread.messages.map((message) => message.messageId))).toEqual(new Set(sent));
    const { tasks: stored } = await tasks.listTasks();
    expect(stored.map((task) => task.id).sort()).toEqual([...created].sort());
    // Ids never repeat across the restart.
    expect(new Set(created).size).toBe(total);
  }, 300_000);
});
