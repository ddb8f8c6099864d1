import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

describe('a message file whose identity is not its place', () => {
  it('is reported as a problem, never listed or delivered as mail', async () => {
    const mailbox = createMailbox({
      store: createFileStore({ root: fixture.home }),
      home: fixture.home,
      runId: fixture.runId,
    });
    const sent = await mailbox.sendMessage({ from: 'lead', to: 'writer', body: 'real' });
    const inbox = fixture.paths.inbox('writer');
    const original = JSON.parse(await readFile(path.join(inbox, `${sent.messageId}.json`), 'utf8'));
    const planted = {
      otherName: { ...original, messageId: randomUUID() },
      otherInbox: { ...original, messageId: randomUUID(), to: 'writer-2' },
      otherRun: { ...original, messageId: randomUUID(), runId: randomUUID() },
    };
    const files: string[] = [];
    for (const [kind, message] of Object.entries(planted)) {
      // The file is named after a fresh id; only `otherName` also lies about its own id.
      const name = kind === 'otherName' ? randomUUID() : message.messageId;
      const file = path.join(inbox, `${name}.json`);
      await writeFile(file, JSON.stringify(message));
      files.push(file);
    }
    const listing = await mailbox.listUnread('writer');
    expect(listing.messages.map((message) => message.messageId)).toEqual([sent.messageId]);
    expect(listing.problems.map((problem) => problem.path).sort()).toEqual(
      files.map((file) => path.relative(fixture.home, file)).sort(),
    );
    expect(new Set(listing.problems.map((problem) => problem.code))).toEqual(
      new Set(['CORRUPT_DOCUMENT']),
    );
    const ids = files.map((file) => path.basename(file, '.json'));
    const reserved = await mailbox.reserve('writer', ids);
    expect(reserved.reserved).toEqual([]);
    expect(reserved.missing.sort()).toEqual([...ids].sort());
  });
});
