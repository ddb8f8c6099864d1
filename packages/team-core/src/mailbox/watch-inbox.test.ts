import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../schema/index.js';
import { createFileStore } from '../storage/index.js';
import { createRunFixture, type RunFixture } from '../test-support/run-fixture.js';
import { createMailbox } from './create-mailbox.js';

let fixture: RunFixture;
beforeEach(async () => {
  fixture = await createRunFixture();
});
afterEach(async () => {
  await fixture.cleanup();
});

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i += 1) {
    await delay(25);
  }
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
}

describe('watchInbox', () => {
  it('reports existing and new messages once each, and again after a release', async () => {
    const mailbox = createMailbox({
      store: createFileStore({ root: fixture.home }),
      home: fixture.home,
      runId: fixture.runId,
    });
    const before = await mailbox.sendMessage({ from: 'lead', to: 'writer', body: 'before' });
    const seen: Message[] = [];
    const dispose = await mailbox.watchInbox(
      'writer',
      (messages) => {
        seen.push(...messages);
      },
      { reconcileIntervalMs: 100 },
    );
    try {
      await until(() => seen.length === 1, 'the existing message');
      const after = await mailbox.sendMessage({ from: 'lead', to: 'writer', body: 'after' });
      await until(() => seen.length === 2, 'the new message');
      expect(seen.map((m) => m.messageId)).toEqual([before.messageId, after.messageId]);
      await mailbox.reserve('writer', [before.messageId]);
      await delay(300);
      await mailbox.release('writer', [before.messageId]);
      await until(() => seen.length === 3, 'the released message');
      expect(seen[2]?.messageId).toBe(before.messageId);
    } finally {
      await dispose();
    }
  });

  it('reports a new message from its file event alone, once, with callbacks never overlapping', async () => {
    const mailbox = createMailbox({
      store: createFileStore({ root: fixture.home }),
      home: fixture.home,
      runId: fixture.runId,
    });
    const seen: string[] = [];
    let inside = 0;
    let mostInside = 0;
    // The timed listing is an hour away: only file events can report these messages.
    const dispose = await mailbox.watchInbox(
      'writer',
      async (messages) => {
        inside += 1;
        mostInside = Math.max(mostInside, inside);
        await delay(50);
        seen.push(...messages.map((message) => message.messageId));
        inside -= 1;
      },
      { reconcileIntervalMs: 3_600_000 },
    );
    try {
      await delay(100);
      const sent: string[] = [];
      for (let i = 0; i < 5; i += 1) {
        sent.push(
          (await mailbox.sendMessage({ from: 'lead', to: 'writer', body: `m${i}` })).messageId,
        );
      }
      await until(() => seen.length >= 5, 'five messages from file events');
      await delay(200);
      expect([...seen].sort()).toEqual([...sent].sort());
      expect(mostInside).toBe(1);
    } finally {
      await dispose();
    }
  });

  it('routes listing and callback errors to onError without crashing', async () => {
    const mailbox = createMailbox({
      store: createFileStore({ root: fixture.home }),
      home: fixture.home,
      runId: fixture.runId,
    });
    const errors: unknown[] = [];
    await mailbox.sendMessage({ from: 'lead', to: 'writer', body: 'x' });
    const dispose = await mailbox.watchInbox(
      'writer',
      () => {
        throw new Error('consumer failed');
      },
      {
        reconcileIntervalMs: 50,
        onError: (error) => {
          errors.push(error);
          throw new Error('a throwing handler is contained too');
        },
      },
    );
    try {
      await until(() => errors.length >= 2, 'repeated callback errors');
      // the unconsumed message is offered again on the next reconcile
      expect(String(errors[0])).toContain('consumer failed');
      const { writeFile } = await import('node:fs/promises');
      await writeFile(fixture.paths.state, '{"torn');
      const count = errors.length;
      await until(
        () =>
          errors
            .slice(count)
            .some((e) => String(e).includes('CORRUPT') || String(e).includes('not valid JSON')),
        'the corrupt state error',
      );
    } finally {
      await dispose();
    }
  });
});
