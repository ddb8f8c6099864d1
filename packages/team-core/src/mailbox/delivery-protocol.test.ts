import { readdir, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStore, readRunEvents } from '../storage/index.js';
import { createRunFixture, type RunFixture } from '../test-support/run-fixture.js';
import { createMailbox, type Mailbox } from './create-mailbox.js';

let fixture: RunFixture;
let clock: number;
let mailbox: Mailbox;

beforeEach(async () => {
  fixture = await createRunFixture();
  clock = Date.now();
  mailbox = createMailbox({
    store: createFileStore({ root: fixture.home }),
    home: fixture.home,
    runId: fixture.runId,
    now: () => clock,
  });
});
afterEach(async () => {
  await fixture.cleanup();
});

const send = async (body = 'hello') =>
  (await mailbox.sendMessage({ from: 'lead', to: 'writer', body })).messageId;
const unreadIds = async () => (await mailbox.listUnread('writer')).messages.map((m) => m.messageId);
const inbox = () => fixture.paths.inbox('writer');

describe('delivery protocol', () => {
  it('reserve hides a message, release shows it again, commit moves it to processed', async () => {
    const id = await send();
    const { reserved, missing } = await mailbox.reserve('writer', [id]);
    expect(reserved.map((m) => m.messageId)).toEqual([id]);
    expect(missing).toEqual([]);
    expect(await unreadIds()).toEqual([]);
    expect(await readdir(inbox())).toContain(`.delivering-${id}.json`);
    // a second reserve of the same id finds nothing to reserve
    expect((await mailbox.reserve('writer', [id])).missing).toEqual([id]);

    expect((await mailbox.release('writer', [id])).moved).toEqual([id]);
    expect(await unreadIds()).toEqual([id]);

    await mailbox.reserve('writer', [id]);
    expect((await mailbox.commit('writer', [id])).moved).toEqual([id]);
    expect(await unreadIds()).toEqual([]);
    expect(await readdir(path.join(inbox(), 'processed'))).toEqual([`${id}.json`]);
    expect((await mailbox.commit('writer', [id])).missing).toEqual([id]);
  });

  it('acknowledge is idempotent and works from unread and reserved', async () => {
    const a = await send('a');
    const b = await send('b');
    await mailbox.reserve('writer', [b]);
    const first = await mailbox.acknowledge('writer', [a, b]);
    expect(first.acknowledged.sort()).toEqual([a, b].sort());
    const second = await mailbox.acknowledge('writer', [a, b]);
    expect(second).toEqual({ acknowledged: [], alreadyProcessed: [a, b], missing: [] });
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await mailbox.acknowledge('writer', [unknown])).missing).toEqual([unknown]);
    expect(await unreadIds()).toEqual([]);
    const { events } = await readRunEvents(fixture.store, fixture.keys.events);
    const acks = events.filter((event) => event.type === 'message.acknowledged');
    expect(acks).toHaveLength(1);
    expect(acks[0]?.actor).toBe('writer');
  });

  it('reclaimStaleReservations returns only old reservations and removes old temp files', async () => {
    const old = await send('old');
    const fresh = await send('fresh');
    await mailbox.reserve('writer', [old]);
    clock += 60_000;
    await mailbox.reserve('writer', [fresh]);
    const leftover = path.join(inbox(), '.tmp-crashed-sender');
    await writeFile(leftover, '{"half');
    const past = (Date.now() - 120_000) / 1000;
    await utimes(leftover, past, past);
    const youngTemp = path.join(inbox(), '.tmp-live-sender');
    await writeFile(youngTemp, 'in flight');

    const outcome = await mailbox.reclaimStaleReservations(30_000);
    expect(outcome.reclaimed).toEqual([{ member: 'writer', messageId: old }]);
    expect(outcome.removedTempFiles).toBe(1);
    expect(await unreadIds()).toEqual([old]);
    await expect(stat(leftover)).rejects.toThrow();
    await expect(stat(youngTemp)).resolves.toBeDefined();
    expect(await readdir(inbox())).toContain(`.delivering-${fresh}.json`);
  });

  it('measures reservation age from the reservation, not from the send', async () => {
    const id = await send();
    clock += 3_600_000;
    await mailbox.reserve('writer', [id]);
    expect((await mailbox.reclaimStaleReservations(60_000)).reclaimed).toEqual([]);
  });
});
