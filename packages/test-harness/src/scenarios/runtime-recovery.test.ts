import { setTimeout as delay } from 'node:timers/promises';
import {
  createTeamRuntime,
  openRun,
  type TeamHostV1,
  type TeamRuntime,
  type TeamSpecInput,
} from '@teamkit/team-core';
import { createFileStore } from '@teamkit/team-core/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { defineAgent } from '../scripted-agents/index.js';
import { createTeamFixture, type TeamFixture } from '../team-fixture/index.js';
import { type AgentScript, createTestHost } from '../test-host/index.js';

let fixture: TeamFixture | undefined;
afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
});

const team = (workers: string[]): TeamSpecInput => ({
  id: 'pair',
  name: 'Pair',
  lead: 'lead',
  members: [
    { name: 'lead', role: 'lead', prompt: 'Plan and review.' },
    ...workers.map((name) => ({ name, role: 'implementer', prompt: 'Implement.' })),
  ],
  policy: { bounds: { maxParallelMembers: 4 } },
});

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
}

async function start(agents: Record<string, AgentScript>, workers: string[]) {
  fixture = await createTeamFixture();
  const host = createTestHost({ agents });
  const runtime = await createTeamRuntime({
    store: createFileStore({ root: fixture.home }),
    home: fixture.home,
    host,
    env: fixture.env,
  });
  host.setIdleHandler((sessionId) => runtime.onMemberIdle(sessionId));
  const { runId } = await runtime.startRun(team(workers));
  return { host, runtime, runId, home: fixture.home };
}

/** Claims whatever becomes ready, polling between messages, until it has finished `count` tasks. */
const diligentWorker = (count: number): AgentScript =>
  defineAgent(async (a) => {
    let finished = 0;
    while (finished < count) {
      const task = await a.claimNextReadyTask();
      if (task !== undefined) {
        await a.start(task.id);
        await a.complete(task.id);
        finished += 1;
        continue;
      }
      await a.waitForMail({}, { timeoutMs: 200 }).catch(() => undefined);
    }
    await a.approveShutdownWhenAsked();
  });

describe('runtime recovery on the test host', () => {
  it('returns a crashed member’s task to pending, and another member finishes it', async () => {
    let crashedHolding: string | undefined;
    const agents: Record<string, AgentScript> = {
      lead: defineAgent(async (a) => {
        await a.client.createTask({ subject: 'the one task' });
      }),
      // Claims and starts the task, then its session dies mid-task.
      flaky: defineAgent(async (a) => {
        const task = await waitFor('a ready task', () => a.claimNextReadyTask());
        await a.start(task.id);
        crashedHolding = task.id;
        throw new Error('simulated crash mid-task');
      }),
      steady: async (agent) => {
        // Wait until the flaky member holds the task, so the steady one cannot take it first.
        await waitFor('the flaky member to hold the task', () => crashedHolding);
        await diligentWorker(1)(agent);
      },
    };
    const { host, runtime, runId } = await start(agents, ['flaky', 'steady']);
    const taskId = await waitFor('the crash', () => crashedHolding);
    await waitFor(
      'the flaky session to die',
      async () => !(await host.isAlive(host.sessionOf('flaky') ?? '')),
    );
    expect((await runtime.member(runId, 'lead').getTask(taskId)).owner).toBe('flaky');

    const report = await runtime.resumeRun(runId);
    const flaky = report.members.find((member) => member.member === 'flaky');
    expect(flaky?.liveness).toBe('dead');
    expect(flaky?.releasedTasks).toEqual([taskId]);

    const done = await waitFor('the steady member to finish the task', async () => {
      const task = await runtime.member(runId, 'lead').getTask(taskId);
      return task.status === 'completed' ? task : undefined;
    });
    expect(done.owner).toBe('steady');
    const state = await openRun({
      home: fixture?.home ?? '',
      runId: runId,
      store: createFileStore({ root: fixture?.home ?? '' }),
    }).state.read();
    expect(state.members.find((member) => member.name === 'flaky')?.status).toBe('errored');
    expect(state.status).toBe('active');
  }, 60_000);

  it('delivers to a busy member once it is idle, exactly once', async () => {
    const agents: Record<string, AgentScript> = {
      lead: defineAgent(async () => {}),
      worker: defineAgent(async (a) => {
        await a.waitForMail({ kind: 'message' }, { timeoutMs: 20_000 });
      }),
    };
    const { host, runtime, runId } = await start(agents, ['worker']);
    await waitFor('the worker to wait for mail', async () => {
      const state = await openRun({
        home: fixture?.home ?? '',
        runId: runId,
        store: createFileStore({ root: fixture?.home ?? '' }),
      }).state.read();
      return state.members.find((member) => member.name === 'worker')?.status === 'idle';
    });
    host.setBusy('worker', true);
    const { messageId } = await runtime.member(runId, 'lead').send({ to: 'worker', body: 'hello' });
    const busyReport = await runtime.deliverPending(runId, 'worker');
    expect(busyReport.deferred).toEqual([messageId]);
    expect(busyReport.delivered).toEqual([]);
    expect(host.deliveriesOf('worker')).toHaveLength(0);
    expect((await runtime.member(runId, 'worker').inbox()).map((m) => m.messageId)).toEqual([
      messageId,
    ]);

    host.setBusy('worker', false);
    const idleReport = await runtime.onMemberIdle(host.sessionOf('worker') ?? '');
    expect(idleReport?.delivered).toEqual([messageId]);
    // Further idle reports find nothing more to deliver.
    await runtime.onMemberIdle(host.sessionOf('worker') ?? '');
    await host.settled({ timeoutMs: 10_000 });
    const handed = host
      .deliveriesOf('worker')
      .flatMap((delivery) => delivery.messages.map((m) => m.messageId));
    expect(handed).toEqual([messageId]);
    expect(await runtime.member(runId, 'worker').inbox()).toEqual([]);
  }, 60_000);

  it('resumes in a new runtime after the old one died mid-delivery, and the run completes', async () => {
    fixture = await createTeamFixture();
    const results: string[] = [];
    const host = createTestHost({
      agents: {
        lead: defineAgent(async (a) => {
          await a.client.createTask({ subject: 'first' });
          await a.client.createTask({ subject: 'second' });
          await a.send('worker', 'two tasks are ready');
          for (let approved = 0; approved < 2; ) {
            const mail = await a.waitForMail({ kind: 'task_update' }, { timeoutMs: 20_000 });
            const id = /done (\d+)/.exec(mail.body)?.[1];
            if (id === undefined || (await a.client.getTask(id)).status !== 'completed') continue;
            await a.approve(id);
            results.push(id);
            approved += 1;
          }
        }),
        worker: defineAgent(async (a) => {
          await a.waitForMail({ kind: 'message' }, { timeoutMs: 20_000 });
          for (;;) {
            const task = await a.claimNextReadyTask();
            if (task === undefined) break;
            await a.start(task.id);
            await a.complete(task.id);
            await a.send('lead', `done ${task.id}`, { kind: 'task_update' });
          }
        }),
      },
    });
    // The first runtime's host freezes on its first delivery to the worker: like a killed
    // process, that runtime never runs another line for this run.
    let frozen = false;
    const frozenHost: TeamHostV1 = {
      ...host,
      specificationVersion: host.specificationVersion,
      hostId: host.hostId,
      spawnMember: (input) => host.spawnMember(input),
      isAlive: (id) => host.isAlive(id),
      stopMember: (id) => host.stopMember?.(id) ?? Promise.resolve(),
      deliver: (input) => {
        if (input.member === 'worker' && !frozen) {
          frozen = true;
          return new Promise(() => {});
        }
        return host.deliver(input);
      },
    };
    const first: TeamRuntime = await createTeamRuntime({
      store: createFileStore({ root: fixture.home }),
      home: fixture.home,
      host: frozenHost,
      env: fixture.env,
    });
    host.setIdleHandler((id) => first.onMemberIdle(id));
    const { runId } = await first.startRun(team(['worker']));
    await waitFor('the frozen delivery', () => frozen);
    const stuck = await openRun({
      home: fixture.home,
      runId: runId,
      store: createFileStore({ root: fixture.home }),
    }).state.read();
    expect(
      stuck.members.find((member) => member.name === 'worker')?.pendingDeliveryIds,
    ).toHaveLength(1);
    expect(await first.member(runId, 'worker').inbox()).toEqual([]);

    const second = await createTeamRuntime({
      store: createFileStore({ root: fixture.home }),
      home: fixture.home,
      host,
      env: fixture.env,
    });
    host.setIdleHandler((id) => second.onMemberIdle(id));
    const resumed = await openRun({
      home: fixture.home,
      runId: runId,
      store: createFileStore({ root: fixture.home }),
    }).state.read();
    expect(resumed.members.find((member) => member.name === 'worker')?.pendingDeliveryIds).toEqual(
      [],
    );
    expect(await second.member(runId, 'worker').inbox()).toHaveLength(1);

    await second.onMemberIdle(host.sessionOf('worker') ?? '');
    await waitFor('both tasks approved', () => (results.length === 2 ? results : undefined));
    const tasks = (await second.member(runId, 'lead').listTasks()).tasks;
    expect(tasks.map((task) => task.status)).toEqual(['approved', 'approved']);
    expect(host.scriptErrors).toEqual([]);
  }, 60_000);
});
