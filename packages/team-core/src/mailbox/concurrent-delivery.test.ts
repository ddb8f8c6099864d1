import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStore } from '../storage/index.js';
import { inboxContents } from '../test-support/inbox-contents.js';
import { createRunFixture, type RunFixture } from '../test-support/run-fixture.js';
import { killAllWorkers, startWorker } from '../test-support/worker-process.js';
import { createMailbox } from './create-mailbox.js';

const WORKER = fileURLToPath(new URL('./__fixtures__/send-worker.mjs', import.meta.url));
const FILL_WORKER = fileURLToPath(new URL('./__fixtures__/fill-worker.mjs', import.meta.url));
const RECIPIENTS = ['writer', 'reviewer', 'tester'];
const SENDERS = ['lead', 'sender-1', 'sender-2', 'sender-3'];
const TOTAL = 1_000;

const MEMBERS = [
  { name: 'lead', isLead: true },
  ...SENDERS.slice(1).map((name) => ({ name })),
  ...RECIPIENTS.map((name) => ({ name })),
];

let fixture: RunFixture;
beforeEach(async () => {
  fixture = await createRunFixture({
    members: MEMBERS,
    policy: { unreadMaxBytes: 64 * 1024 * 1024 },
  });
});
afterEach(async () => {
  killAllWorkers();
  await fixture.cleanup();
});

describe('concurrent delivery (real processes)', () => {
  it('4 senders, 1,000 messages to 3 members, a consumer reserving and acking: each message in exactly one place', async () => {
    const perSender = TOTAL / SENDERS.length;
    const workers = SENDERS.map((from) =>
      startWorker(WORKER, [fixture.home, fixture.runId, from, String(perSender), ...RECIPIENTS]),
    );
    const mailbox = createMailbox({
      store: createFileStore({ root: fixture.home }),
      home: fixture.home,
      runId: fixture.runId,
      lock: { timeoutMs: 60_000 },
    });
    let sendersDone = false;
    const allExited = Promise.all(workers.map((worker) => worker.exited)).then((exits) => {
      sendersDone = true;
      return exits;
    });
    let round = 0;
    for (; round < 10_000 && !sendersDone; round += 1) {
      const member = RECIPIENTS[round % RECIPIENTS.length] as string;
      const { messages } = await mailbox.listUnread(member);
      const ids = messages.slice(0, 5).map((message) => message.messageId);
      const { reserved } = await mailbox.reserve(member, ids);
      const reservedIds = reserved.map((message) => message.messageId);
      if (round % 3 === 0) await mailbox.release(member, reservedIds);
      else if (round % 3 === 1) await mailbox.commit(member, reservedIds);
      else await mailbox.acknowledge(member, [...reservedIds, ...reservedIds]);
    }
    const exits = await allExited;
    for (const [index, exit] of exits.entries()) {
      expect(exit.code, workers[index]?.stderr.join('')).toBe(0);
    }
    const sent = new Map<string, string[]>(RECIPIENTS.map((member) => [member, []]));
    for (const worker of workers) {
      for (const line of worker.lines) {
        const [to, id] = line.split(' ');
        sent.get(to as string)?.push(id as string);
      }
    }
    expect([...sent.values()].flat()).toHaveLength(TOTAL);
    let processedTotal = 0;
    for (const member of RECIPIENTS) {
      const contents = await inboxContents(fixture.paths.inbox(member));
      expect(contents.reserved).toEqual([]);
      expect(contents.temp).toEqual([]);
      const all = [...contents.unread, ...contents.processed];
      expect(new Set(all).size).toBe(all.length);
      expect(all.sort()).toEqual([...(sent.get(member) ?? [])].sort());
      processedTotal += contents.processed.length;
    }
    // the consumer really ran concurrently with the senders
    expect(round).toBeGreaterThan(3);
    expect(processedTotal).toBeGreaterThan(0);
  });

  it('4 processes racing to fill one inbox stop exactly at the unread cap', async () => {
    const fillers = ['sender-1', 'sender-2', 'sender-3'];
    const mailbox = createMailbox({
      store: createFileStore({ root: fixture.home }),
      home: fixture.home,
      runId: fixture.runId,
    });
    const inbox = fixture.paths.inbox('writer');
    // Every filler's message has the same size: same-length names, ids and bodies.
    const probe = await mailbox.sendMessage({
      from: 'sender-1',
      to: 'writer',
      body: 'x'.repeat(200),
    });
    const size = (await stat(path.join(inbox, `${probe.messageId}.json`))).size;
    await fixture.writeState({
      members: MEMBERS,
      policy: { unreadMaxBytes: 31 * size + size / 2 },
    });
    const workers = [...fillers, 'sender-1'].map((from) =>
      startWorker(FILL_WORKER, [fixture.home, fixture.runId, from, 'writer', '20']),
    );
    const exits = await Promise.all(workers.map((worker) => worker.exited));
    for (const [index, exit] of exits.entries()) {
      expect(exit.code, workers[index]?.stderr.join('')).toBe(0);
    }
    const lines = workers.flatMap((worker) => worker.lines);
    expect(lines.filter((line) => line.startsWith('sent '))).toHaveLength(30);
    expect(lines.filter((line) => line === 'refused')).toHaveLength(50);
    const contents = await inboxContents(inbox);
    expect(contents.unread).toHaveLength(31);
  });
});
