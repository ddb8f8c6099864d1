import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { collectRunStatus } from '../runtime/run-status.js';
import { createFileStore } from '../storage/index.js';
import { createRunFixture, type RunFixture } from '../test-support/run-fixture.js';
import { createMailbox } from './create-mailbox.js';

let fixture: RunFixture;
beforeEach(async () => {
  fixture = await createRunFixture({ policy: { bounds: { maxMessagesPerRun: 4 } } });
});
afterEach(async () => {
  await fixture.cleanup();
});

describe('the run message count', () => {
  it('counts every stored copy where users see it, and stops at maxMessagesPerRun', async () => {
    const seen = async () =>
      (
        await collectRunStatus({
          store: createFileStore({ root: fixture.home }),
          home: fixture.home,
          runId: fixture.runId,
        })
      ).counters.messagesSent;
    const mailbox = createMailbox({
      store: createFileStore({ root: fixture.home }),
      home: fixture.home,
      runId: fixture.runId,
    });
    expect(await seen()).toBe(0);
    await mailbox.sendMessage({ from: 'lead', to: 'writer', body: 'one' });
    // A broadcast to writer and writer-2 stores two copies.
    await mailbox.sendMessage({ from: 'lead', to: '*', body: 'everyone' });
    expect(await seen()).toBe(3);
    await mailbox.sendMessage({ from: 'writer', to: 'lead', body: 'four' });
    const refused = await createMailbox({
      store: createFileStore({ root: fixture.home }),
      home: fixture.home,
      runId: fixture.runId,
    })
      .sendMessage({ from: 'lead', to: 'writer', body: 'five' })
      .catch((error: unknown) => error);
    expect(isTeamkitError(refused, 'BOUND_EXCEEDED')).toBe(true);
    expect(await seen()).toBe(4);
    // Another mailbox (another process) counts the same.
    expect(
      await createMailbox({
        store: createFileStore({ root: fixture.home }),
        home: fixture.home,
        runId: fixture.runId,
      }).countMessagesSent(),
    ).toBe(4);
  });
});
