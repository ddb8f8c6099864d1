import { issueMemberCredential } from '@teamkit/team-core';
import { createFileStore } from '@teamkit/team-core/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpRunFixture, type McpRunFixture } from './test-support/mcp-run-fixture.js';

// The run's status, board and the caller's inbox as MCP resources, read through the SDK's
// own client: read-only (the run's files are byte-for-byte the same after every read),
// shown to the identities the shared tools allow.

let run: McpRunFixture;

beforeAll(async () => {
  run = await createMcpRunFixture();
});

afterAll(async () => {
  await run.cleanup();
});

function jsonOf(result: { contents: { uri: string; text?: string; mimeType?: string }[] }) {
  const [content] = result.contents;
  expect(content?.mimeType).toBe('application/json');
  return JSON.parse(content?.text ?? 'null');
}

describe('resources', () => {
  it("shows a member the run's status, board and its own inbox, writing nothing", async () => {
    const lead = await run.connect(run.memberEnv('lead'));
    const writer = await run.connect(run.memberEnv('writer'));
    await lead.client.callTool({ name: 'task_create', arguments: { subject: 'Draft the spec' } });
    await lead.client.callTool({
      name: 'send_message',
      arguments: { to: 'writer', message: 'start with the spec' },
    });

    const listed = (await writer.client.listResources()).resources.map((entry) => entry.uri);
    expect(listed.sort()).toEqual([
      'teamkit://run/board',
      'teamkit://run/inbox',
      'teamkit://run/status',
    ]);

    const before = await run.snapshot();
    const status = jsonOf(await writer.client.readResource({ uri: 'teamkit://run/status' }));
    expect(status.runId).toBe(run.runId);
    expect(status.members.map((member: { name: string }) => member.name).sort()).toEqual([
      'lead',
      'reviewer',
      'writer',
    ]);
    const board = jsonOf(await writer.client.readResource({ uri: 'teamkit://run/board' }));
    const pending = board.columns.find((column: { status: string }) => column.status === 'pending');
    expect(pending.tasks).toEqual([expect.objectContaining({ subject: 'Draft the spec' })]);
    for (let read = 0; read < 2; read += 1) {
      // Reading is not acknowledging: the message is there on every read.
      const inbox = jsonOf(await writer.client.readResource({ uri: 'teamkit://run/inbox' }));
      expect(inbox.messages).toEqual([
        expect.objectContaining({ from: 'lead', body: 'start with the spec' }),
      ]);
    }
    expect(await run.snapshot()).toEqual(before);
    expect(await run.unread('writer')).toHaveLength(1);
  }, 60_000);

  it('shows an observer the status and board only, and refuses a stale member', async () => {
    const observer = await run.connect({ TEAMKIT_RUN: run.runId });
    const listed = (await observer.client.listResources()).resources.map((entry) => entry.uri);
    expect(listed.sort()).toEqual(['teamkit://run/board', 'teamkit://run/status']);
    const refused = await observer.client.readResource({ uri: 'teamkit://run/inbox' }).then(
      () => 'read',
      (error: Error) => error.message,
    );
    expect(refused).not.toBe('read');

    // The reviewer's server started with its secret; the run then gave it a new one.
    const reviewer = await run.connect(run.memberEnv('reviewer'));
    const before = await run.snapshot();
    await issueMemberCredential(run.home, run.runId, 'reviewer', {
      store: createFileStore({ root: run.home }),
    });
    const stale = await reviewer.client.readResource({ uri: 'teamkit://run/inbox' }).then(
      () => 'read',
      (error: Error) => error.message,
    );
    expect(stale).toContain('IDENTITY_MISMATCH');
    const after = await run.snapshot();
    // Only the new secret changed the run (its state, with the revision link every state
    // update leaves); the refused read wrote nothing.
    const files = (snapshot: Map<string, unknown>) =>
      [...snapshot.keys()].filter((file) => !file.includes('/.rev/')).sort();
    expect(files(after)).toEqual(files(before));
  }, 60_000);
});
