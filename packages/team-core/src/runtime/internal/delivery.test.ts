import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readRunState } from '../../state/index.js';
import { createFileStore } from '../../storage/index.js';
import { createTeamRuntime } from '../create-team-runtime.js';
import { crewTeam, makeRuntimeHome, recordingHost } from '../test-support/recording-host.js';

let home: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ home, cleanup } = await makeRuntimeHome());
});
afterEach(async () => cleanup());

describe('delivery', () => {
  it('releases mail whose delivery failed, and stops at the turn bound leaving mail unread', async () => {
    let failNext = true;
    const host = recordingHost({
      async deliver(input) {
        if (failNext) {
          failNext = false;
          throw new Error('session went away mid-delivery');
        }
        host.delivered.push(input);
        return 'delivered';
      },
    });
    const runtime = await createTeamRuntime({ store: createFileStore({ root: home }), home, host });
    const { runId } = await runtime.startRun(crewTeam(1, { maxTurnsPerMember: 1 }), {
      leadSessionId: 'lead-session',
    });
    const lead = runtime.member(runId, 'lead');
    const first = await lead.send({ to: 'worker-1', body: 'one' });
    const failed = await runtime.deliverPending(runId, 'worker-1');
    expect(failed.stoppedBecause).toContain('session went away');
    expect((await runtime.member(runId, 'worker-1').inbox()).map((m) => m.messageId)).toEqual([
      first.messageId,
    ]);
    const events = (await runtime.status(runId)).recentEvents;
    expect(events.find((event) => event.type === 'delivery.failed')?.data).toMatchObject({
      reason: expect.stringContaining('session went away'),
    });

    const delivered = await runtime.deliverPending(runId, 'worker-1');
    expect(delivered.delivered).toEqual([first.messageId]);
    const second = await lead.send({ to: 'worker-1', body: 'two' });
    const bounded = await runtime.deliverPending(runId, 'worker-1');
    expect(bounded.delivered).toEqual([]);
    expect(bounded.stoppedBecause).toContain('maxTurnsPerMember');
    expect((await runtime.member(runId, 'worker-1').inbox()).map((m) => m.messageId)).toEqual([
      second.messageId,
    ]);
  });

  it('runs one delivery per member at a time; a call meanwhile makes it look again, so nothing waits', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const host = recordingHost({
      async deliver(input) {
        host.delivered.push(input);
        if (host.delivered.length === 1) await gate;
        return 'delivered';
      },
    });
    const runtime = await createTeamRuntime({ store: createFileStore({ root: home }), home, host });
    const { runId } = await runtime.startRun(crewTeam(1), { leadSessionId: 'lead-session' });
    const lead = runtime.member(runId, 'lead');
    const first = await lead.send({ to: 'worker-1', body: 'one' });
    const running = runtime.deliverPending(runId, 'worker-1');
    while (host.delivered.length === 0) await delay(5);
    const second = await lead.send({ to: 'worker-1', body: 'two' });
    const joined = runtime.deliverPending(runId, 'worker-1');
    release();
    const [a, b] = await Promise.all([running, joined]);
    expect(a).toBe(b);
    expect(a.delivered).toEqual([first.messageId, second.messageId]);
    expect(host.delivered.map((input) => input.messages.map((m) => m.messageId))).toEqual([
      [first.messageId],
      [second.messageId],
    ]);
    const state = await readRunState(home, runId, { store: createFileStore({ root: home }) });
    expect(state.members.find((m) => m.name === 'worker-1')).toMatchObject({
      turns: 2,
      pendingDeliveryIds: [],
    });
  });

  it('releases mail the host defers and says the session is busy', async () => {
    const host = recordingHost({ deliver: async () => 'deferred' });
    const runtime = await createTeamRuntime({ store: createFileStore({ root: home }), home, host });
    const { runId } = await runtime.startRun(crewTeam(1), { leadSessionId: 'lead-session' });
    const sent = await runtime.member(runId, 'lead').send({ to: 'worker-1', body: 'later' });
    const report = await runtime.deliverPending(runId, 'worker-1');
    expect(report).toMatchObject({ deferred: [sent.messageId], stoppedBecause: 'session busy' });
    expect((await runtime.member(runId, 'worker-1').inbox()).map((m) => m.messageId)).toEqual([
      sent.messageId,
    ]);
  });
});
