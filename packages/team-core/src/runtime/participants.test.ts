import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { TeamSpecSchema } from '../schema/index.js';
import { addMember, readRunState } from '../state/index.js';
import { createFileStore } from '../storage/index.js';
import { createRunFixture, type RunFixture } from '../test-support/run-fixture.js';
import { createMemberClient } from './member-client.js';

let fixture: RunFixture;
beforeEach(async () => {
  fixture = await createRunFixture();
});
afterEach(async () => {
  await fixture.cleanup();
});

const client = (member: string) =>
  createMemberClient({
    store: createFileStore({ root: fixture.home }),
    home: fixture.home,
    runId: fixture.runId,
    member,
  });

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isTeamkitError(error)) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('the user as a participant', () => {
  it('has an inbox of its own, apart from the lead’s, that members write to by name', async () => {
    const user = client('user');
    const writer = client('writer');
    await writer.send({ to: 'user', body: 'I need the API key location' });
    await writer.send({ to: 'lead', body: 'status: working' });
    expect((await user.inbox()).map((message) => [message.from, message.body])).toEqual([
      ['writer', 'I need the API key location'],
    ]);
    expect((await client('lead').inbox()).map((message) => message.body)).toEqual([
      'status: working',
    ]);
    // The lead acknowledging its own mail leaves the user's untouched.
    const leadMail = await client('lead').inbox();
    await client('lead').acknowledge(leadMail.map((message) => message.messageId));
    expect(await user.inbox()).toHaveLength(1);

    const sent = await user.send({ to: 'writer', body: 'It is in the vault.' });
    expect(sent.delivered).toEqual(['writer']);
    expect((await writer.inbox()).map((message) => message.from)).toEqual(['user']);
  });

  it('gets no copy of a broadcast, and a broadcast from the user reaches every member', async () => {
    const lead = client('lead');
    const fromLead = await lead.send({ to: '*', body: 'plan ready' });
    expect(fromLead.delivered.sort()).toEqual(['writer', 'writer-2']);
    expect(await client('user').inbox()).toEqual([]);
    const fromUser = await client('user').send({ to: '*', body: 'stop for lunch' });
    expect(fromUser.delivered.sort()).toEqual(['lead', 'writer', 'writer-2']);
  });

  it('has the lead’s rights over tasks and permissions', async () => {
    const user = client('user');
    const writer = client('writer');
    const task = await user.createTask({ subject: 'Write the docs' });
    await writer.claimTask(task.id);
    await writer.startTask(task.id);
    await writer.completeTask(task.id);
    await writer.submitForReview(task.id);
    expect(await refusal(writer.approveTask(task.id))).toBe('NOT_LEAD');
    expect((await user.approveTask(task.id)).status).toBe('approved');

    const request = await writer.requestPermission({ action: 'write', path: '/srv/shared' });
    expect(
      await refusal(client('writer-2').decidePermission(request.id, { decision: 'approved' })),
    ).toBe('PERMISSION_DENIED');
    const decided = await user.decidePermission(request.id, {
      decision: 'approved',
      remember: true,
    });
    expect(decided).toMatchObject({ status: 'approved', decidedBy: 'user' });
    expect(
      await refusal(
        user.decidePermission('00000000-0000-4000-8000-000000000000', { decision: 'denied' }),
      ),
    ).toBe('UNKNOWN_REQUEST');
  });

  it('is never a roster member: not spawned, counted, or nameable by a team', async () => {
    const state = await readRunState(fixture.home, fixture.runId, {
      store: createFileStore({ root: fixture.home }),
    });
    expect(state.members.map((member) => member.name)).not.toContain('user');
    expect(
      await refusal(
        addMember(
          fixture.home,
          fixture.runId,
          { name: 'user', role: 'x' },
          { store: createFileStore({ root: fixture.home }) },
        ),
      ),
    ).toBe('INVALID_INPUT');
    for (const reserved of ['user', 'teamkit']) {
      const parsed = TeamSpecSchema.safeParse({
        id: 'team',
        name: 'team',
        lead: 'lead',
        members: [
          { name: 'lead', role: 'lead', prompt: 'lead' },
          { name: reserved, role: 'worker', prompt: 'x' },
        ],
      });
      expect(parsed.success, reserved).toBe(false);
    }
    // Teamkit's own notices come from `teamkit`, which nobody can write to.
    await client('lead').mailbox.sendMessage({ from: 'teamkit', to: 'user', body: 'notice' });
    expect((await client('user').inbox()).map((message) => message.from)).toEqual(['teamkit']);
    expect(await refusal(client('lead').send({ to: 'teamkit', body: 'hi' }))).toBe(
      'UNKNOWN_RECIPIENT',
    );
  });
});

describe('shutdown requests', () => {
  it('asks every working member with "*", carrying each request id, and takes answers by id', async () => {
    const user = client('user');
    expect(await refusal(client('writer').requestShutdown('*'))).toBe('NOT_LEAD');
    const asked = await user.requestShutdown('*', 'The goal is met.');
    expect(asked.requests.map((request) => request.member).sort()).toEqual(['writer', 'writer-2']);
    const writerRequest = asked.requests.find((request) => request.member === 'writer');
    const mail = await client('writer').inbox();
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({
      kind: 'shutdown_request',
      from: 'user',
      correlationId: writerRequest?.id,
    });

    // Asking again sends nothing new: each already has an open request.
    const again = await user.requestShutdown('*');
    expect(again.requests.map((request) => request.id).sort()).toEqual(
      asked.requests.map((request) => request.id).sort(),
    );
    expect(await client('writer').inbox()).toHaveLength(1);

    expect(await refusal(client('writer').approveShutdown('ffffffff'))).toBe('UNKNOWN_REQUEST');
    const answered = await client('writer').approveShutdown(writerRequest?.id?.slice(0, 8));
    expect(answered.id).toBe(writerRequest?.id);
    await client('writer-2').rejectShutdown('still testing');
    const replies = await user.inbox();
    expect(replies.map((message) => [message.from, message.kind, message.correlationId])).toEqual(
      expect.arrayContaining([
        ['writer', 'shutdown_approved', writerRequest?.id],
        ['writer-2', 'shutdown_rejected', expect.any(String)],
      ]),
    );
    const state = await readRunState(fixture.home, fixture.runId, {
      store: createFileStore({ root: fixture.home }),
    });
    expect(state.members.find((member) => member.name === 'writer')?.status).toBe(
      'shutdown_approved',
    );
    expect(await refusal(client('writer').approveShutdown())).toBe('INVALID_TRANSITION');
    // `*` passes over members that already approved.
    const third = await user.requestShutdown('*');
    expect(third.requests.map((request) => request.member)).toEqual(['writer-2']);
  });
});
