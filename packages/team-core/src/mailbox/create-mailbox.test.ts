import { randomUUID } from 'node:crypto';
import { link, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTeamkitError, type TeamkitErrorCode } from '../errors/index.js';
import { createFileStore, readRunEvents } from '../storage/index.js';
import { createRunFixture, type RunFixture } from '../test-support/run-fixture.js';
import { createMailbox } from './create-mailbox.js';

let fixture: RunFixture;
let clock: number;

beforeEach(async () => {
  fixture = await createRunFixture();
  clock = 1_000;
});
afterEach(async () => {
  await fixture.cleanup();
});

const mailboxOf = (f: RunFixture = fixture) =>
  createMailbox({
    store: createFileStore({ root: f.home }),
    home: f.home,
    runId: f.runId,
    now: () => clock++,
  });

async function expectRefusedWithoutWrites(
  code: TeamkitErrorCode,
  action: () => Promise<unknown>,
): Promise<Error> {
  const before = await fixture.snapshot();
  const error = await action().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isTeamkitError(error, code), `expected ${code}, got ${String(error)}`).toBe(true);
  expect(await fixture.snapshot()).toEqual(before);
  return error as Error;
}

describe('sendMessage', () => {
  it('writes one durable file per recipient that listUnread returns, and logs no body', async () => {
    const mailbox = mailboxOf();
    const sent = await mailbox.sendMessage({ from: 'lead', to: 'writer', body: 'secret body' });
    expect(sent.delivered).toEqual(['writer']);
    const file = path.join(fixture.paths.inbox('writer'), `${sent.messageId}.json`);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
      from: 'lead',
      to: 'writer',
      body: 'secret body',
      kind: 'message',
    });
    const { messages } = await mailbox.listUnread('writer');
    expect(messages.map((m) => m.messageId)).toEqual([sent.messageId]);
    const { events } = await readRunEvents(fixture.store, fixture.keys.events);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor: 'lead', type: 'message.sent', ids: [sent.messageId] });
    expect(await readFile(fixture.paths.events, 'utf8')).not.toContain('secret body');
  });

  it('refuses an unknown recipient, listing the valid names', async () => {
    const mailbox = mailboxOf();
    await mailbox.sendMessage({ from: 'lead', to: 'writer', body: 'first' });
    const error = await expectRefusedWithoutWrites('UNKNOWN_RECIPIENT', () =>
      mailbox.sendMessage({ from: 'lead', to: 'writr', body: 'lost?' }),
    );
    expect(error.message).toContain('lead, writer, writer-2');
  });

  it('refuses a sender that is not a member of the run', async () => {
    await expectRefusedWithoutWrites('UNKNOWN_MEMBER', () =>
      mailboxOf().sendMessage({ from: 'intruder', to: 'writer', body: 'hi' }),
    );
  });

  it('refuses a duplicate id while unread, reserved and processed', async () => {
    const mailbox = mailboxOf();
    const messageId = randomUUID();
    await mailbox.sendMessage({ from: 'lead', to: 'writer', body: 'one', messageId });
    const again = () => mailbox.sendMessage({ from: 'lead', to: 'writer', body: 'two', messageId });
    await expectRefusedWithoutWrites('DUPLICATE_MESSAGE_ID', again);
    await mailbox.reserve('writer', [messageId]);
    await expectRefusedWithoutWrites('DUPLICATE_MESSAGE_ID', again);
    await mailbox.commit('writer', [messageId]);
    await expectRefusedWithoutWrites('DUPLICATE_MESSAGE_ID', again);
  });

  it('refuses a body over the payload cap, naming the cap', async () => {
    await fixture.writeState({ policy: { payloadMaxBytes: 256 } });
    const error = await expectRefusedWithoutWrites('PAYLOAD_TOO_LARGE', () =>
      mailboxOf().sendMessage({ from: 'lead', to: 'writer', body: 'é'.repeat(129) }),
    );
    expect(error.message).toContain('256 bytes');
  });

  it('accepts a body exactly at the payload cap', async () => {
    await fixture.writeState({ policy: { payloadMaxBytes: 256 } });
    const sent = await mailboxOf().sendMessage({
      from: 'lead',
      to: 'writer',
      body: 'x'.repeat(256),
    });
    expect(sent.delivered).toEqual(['writer']);
  });

  it('keeps the unread cap exact across mailboxes of other processes, crashes and torn tokens', async () => {
    // Two mailbox instances stand for two processes: each keeps its own view of the inbox.
    const a = mailboxOf();
    const b = mailboxOf();
    const send = (mailbox: ReturnType<typeof mailboxOf>) =>
      mailbox.sendMessage({ from: 'lead', to: 'writer', body: 'z'.repeat(300) });
    const inbox = fixture.paths.inbox('writer');
    const first = await send(a);
    const size = (await stat(path.join(inbox, `${first.messageId}.json`))).size;
    await fixture.writeState({ policy: { unreadMaxBytes: 3 * size + 10 } });
    const second = await send(a);
    const third = await send(b);
    // a's view said 2 messages; b's send changed the inbox, so a must count 3 and refuse.
    await expectRefusedWithoutWrites('RECIPIENT_BACKPRESSURE', () => send(a));
    await b.acknowledge('writer', [first.messageId]);
    await send(a);
    await expectRefusedWithoutWrites('RECIPIENT_BACKPRESSURE', () => send(b));
    await a.acknowledge('writer', [second.messageId, third.messageId]);
    const fifth = await send(b);
    // A process that wrote a new token, linked a message and died: b's view is stale.
    const crashed = randomUUID();
    await writeFile(path.join(inbox, '.version'), randomUUID());
    await link(path.join(inbox, `${fifth.messageId}.json`), path.join(inbox, `${crashed}.json`));
    await expectRefusedWithoutWrites('RECIPIENT_BACKPRESSURE', () => send(b));
    // A torn token is never trusted, even by a view that was built while it was torn.
    await writeFile(path.join(inbox, '.version'), '');
    await expectRefusedWithoutWrites('RECIPIENT_BACKPRESSURE', () => send(a));
    await unlink(path.join(inbox, `${crashed}.json`));
    await send(a);
  });

  it('applies backpressure when unread bytes would pass the unread cap, and lifts it on ack', async () => {
    await fixture.writeState({ policy: { unreadMaxBytes: 2_048 } });
    const mailbox = mailboxOf();
    const ids: string[] = [];
    let refused: unknown;
    for (let i = 0; i < 20 && refused === undefined; i += 1) {
      await mailbox.sendMessage({ from: 'lead', to: 'writer', body: 'y'.repeat(300) }).then(
        (sent) => ids.push(sent.messageId),
        (error: unknown) => {
          refused = error;
        },
      );
    }
    expect(isTeamkitError(refused, 'RECIPIENT_BACKPRESSURE')).toBe(true);
    expect(ids.length).toBeGreaterThan(0);
    const error = await expectRefusedWithoutWrites('RECIPIENT_BACKPRESSURE', () =>
      mailbox.sendMessage({ from: 'lead', to: 'writer', body: 'y'.repeat(300) }),
    );
    expect(error.message).toContain('2048 bytes');
    // reserved messages still count: only processing frees room
    await mailbox.reserve('writer', ids);
    await expectRefusedWithoutWrites('RECIPIENT_BACKPRESSURE', () =>
      mailbox.sendMessage({ from: 'lead', to: 'writer', body: 'y'.repeat(300) }),
    );
    await mailbox.acknowledge('writer', ids);
    await mailbox.sendMessage({ from: 'lead', to: 'writer', body: 'y'.repeat(300) });
  });

  it('refuses writes on a run that is deleting or deleted', async () => {
    const mailbox = mailboxOf();
    const sent = await mailbox.sendMessage({ from: 'lead', to: 'writer', body: 'before' });
    for (const status of ['deleting', 'deleted', 'failed'] as const) {
      await fixture.writeState({ status });
      await expectRefusedWithoutWrites('RUN_NOT_ACTIVE', () =>
        mailbox.sendMessage({ from: 'lead', to: 'writer', body: 'after' }),
      );
      await expectRefusedWithoutWrites('RUN_NOT_ACTIVE', () =>
        mailbox.acknowledge('writer', [sent.messageId]),
      );
      await expectRefusedWithoutWrites('RUN_NOT_ACTIVE', () =>
        mailbox.reserve('writer', [sent.messageId]),
      );
    }
    // reading still works on a stopped run
    expect((await mailbox.listUnread('writer')).messages).toHaveLength(1);
  });

  it('refuses a run that does not exist', async () => {
    const other = createMailbox({
      store: createFileStore({ root: fixture.home }),
      home: fixture.home,
      runId: randomUUID(),
    });
    const error = await other
      .sendMessage({ from: 'lead', to: 'writer', body: 'x' })
      .catch((e) => e);
    expect(isTeamkitError(error, 'RUN_NOT_FOUND')).toBe(true);
  });

  it('enforces maxMessagesPerRun across mailbox instances', async () => {
    await fixture.writeState({ policy: { bounds: { maxMessagesPerRun: 3 } } });
    for (let i = 0; i < 3; i += 1) {
      await mailboxOf().sendMessage({ from: 'lead', to: 'writer', body: `n${i}` });
    }
    const error = await expectRefusedWithoutWrites('BOUND_EXCEEDED', () =>
      mailboxOf().sendMessage({ from: 'lead', to: 'writer-2', body: 'one too many' }),
    );
    expect(error.message).toContain('3 messages');
  });

  it('refuses invalid input (kind, bad ids) with INVALID_INPUT', async () => {
    const mailbox = mailboxOf();
    await expectRefusedWithoutWrites('INVALID_INPUT', () =>
      mailbox.sendMessage({
        from: 'lead',
        to: 'writer',
        body: 'x',
        kind: 'gossip' as never,
      }),
    );
    await expectRefusedWithoutWrites('INVALID_INPUT', () =>
      mailbox.acknowledge('writer', ['../../state']),
    );
  });
});

describe('broadcast', () => {
  it('is refused for a non-lead under the lead-only policy', async () => {
    const error = await expectRefusedWithoutWrites('BROADCAST_NOT_PERMITTED', () =>
      mailboxOf().sendMessage({ from: 'writer', to: '*', body: 'hello all' }),
    );
    expect(error.message).toContain('lead only');
  });

  it('is allowed for everyone when the policy says so', async () => {
    await fixture.writeState({ policy: { broadcast: 'everyone' } });
    const sent = await mailboxOf().sendMessage({ from: 'writer', to: '*', body: 'hello all' });
    expect(sent.delivered).toEqual(['lead', 'writer-2']);
  });

  it('writes one copy per other active member and reports each recipient', async () => {
    await fixture.writeState({
      members: [
        { name: 'lead', isLead: true },
        { name: 'writer' },
        { name: 'writer-2' },
        { name: 'gone', status: 'terminated' },
        { name: 'done', status: 'shutdown_approved' },
      ],
      policy: { unreadMaxBytes: 1_024 },
    });
    const mailbox = mailboxOf();
    // fill writer-2 so its copy is refused by backpressure
    await mailbox.sendMessage({ from: 'lead', to: 'writer-2', body: 'z'.repeat(600) });
    const sent = await mailbox.sendMessage({ from: 'lead', to: '*', body: 'q'.repeat(200) });
    expect(sent.delivered).toEqual(['writer']);
    expect(sent.refused).toEqual([
      expect.objectContaining({ member: 'writer-2', code: 'RECIPIENT_BACKPRESSURE' }),
    ]);
    const copy = (await mailbox.listUnread('writer')).messages[0];
    expect(copy).toMatchObject({ messageId: sent.messageId, broadcast: true, to: 'writer' });
    expect((await mailbox.listUnread('gone')).messages).toEqual([]);
    const { events } = await readRunEvents(fixture.store, fixture.keys.events);
    expect(events.at(-1)?.data).toMatchObject({
      delivered: ['writer'],
      refused: [{ member: 'writer-2', code: 'RECIPIENT_BACKPRESSURE' }],
    });
  });

  it('refuses a direct message to a terminated member', async () => {
    await fixture.writeState({
      members: [
        { name: 'lead', isLead: true },
        { name: 'gone', status: 'terminated' },
      ],
    });
    await expectRefusedWithoutWrites('UNKNOWN_RECIPIENT', () =>
      mailboxOf().sendMessage({ from: 'lead', to: 'gone', body: 'x' }),
    );
  });
});

describe('listUnread', () => {
  it('sorts by (timestamp, messageId), ignores dot files and reports corrupt files', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID()].sort();
    const mailbox = createMailbox({
      store: createFileStore({ root: fixture.home }),
      home: fixture.home,
      runId: fixture.runId,
      now: () => 5,
    });
    for (const messageId of [ids[2], ids[0], ids[1]] as string[]) {
      await mailbox.sendMessage({ from: 'lead', to: 'writer', body: 'same time', messageId });
    }
    const earlier = await createMailbox({
      store: createFileStore({ root: fixture.home }),
      home: fixture.home,
      runId: fixture.runId,
      now: () => 1,
    }).sendMessage({ from: 'lead', to: 'writer', body: 'earlier' });
    const inbox = fixture.paths.inbox('writer');
    await writeFile(path.join(inbox, '.tmp-leftover'), '{"torn');
    const corrupt = `${randomUUID()}.json`;
    await writeFile(path.join(inbox, corrupt), '{"torn');
    const listing = await mailbox.listUnread('writer');
    expect(listing.messages.map((m) => m.messageId)).toEqual([earlier.messageId, ...ids]);
    expect(listing.problems).toEqual([
      expect.objectContaining({
        code: 'CORRUPT_DOCUMENT',
        path: `${fixture.keys.inbox('writer')}/${corrupt}`,
      }),
    ]);
    // the corrupt file is kept, never replaced
    expect(await readFile(path.join(inbox, corrupt), 'utf8')).toBe('{"torn');
  });

  it('never acknowledges: listing twice returns the same messages', async () => {
    const mailbox = mailboxOf();
    await mailbox.sendMessage({ from: 'lead', to: 'writer', body: 'a' });
    const first = await mailbox.listUnread('writer');
    const second = await mailbox.listUnread('writer');
    expect(second.messages).toEqual(first.messages);
  });

  it('refuses an unknown member', async () => {
    const error = await mailboxOf()
      .listUnread('nobody')
      .catch((e) => e);
    expect(isTeamkitError(error, 'UNKNOWN_MEMBER')).toBe(true);
  });
});
