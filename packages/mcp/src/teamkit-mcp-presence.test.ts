import { setTimeout as delay } from 'node:timers/promises';
import { readWaitingMarker } from '@teamkit/team-core';
import { createFileStore } from '@teamkit/team-core/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpRunFixture, type McpRunFixture } from './test-support/mcp-run-fixture.js';

// A member blocked in `wait_for_mail` is present and idle, as one blocked in
// `team inbox --wait` is: the core's waiting marker names the server's process while the
// wait lasts, and is gone when it ends.

let run: McpRunFixture;

beforeAll(async () => {
  run = await createMcpRunFixture();
});

afterAll(async () => {
  await run.cleanup();
});

async function until<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(50);
  }
}

describe('wait_for_mail and presence', () => {
  it('marks the member waiting while it waits, and clears the mark when mail comes', async () => {
    const writer = await run.connect(run.memberEnv('writer'));
    const lead = await run.connect(run.memberEnv('lead'));
    expect(
      await readWaitingMarker(run.runId, 'writer', createFileStore({ root: run.home })),
    ).toBeUndefined();

    const waiting = writer.client.callTool({
      name: 'wait_for_mail',
      arguments: { timeoutSeconds: 45, ack: true },
    });
    const marker = await until(
      () => readWaitingMarker(run.runId, 'writer', createFileStore({ root: run.home })),
      'the waiting marker',
    );
    expect(marker).toMatchObject({ version: 1, handoff: false, pid: writer.transport.pid });

    const sent = await lead.client.callTool({
      name: 'send_message',
      arguments: { to: 'writer', message: 'your turn' },
    });
    expect(sent.isError).not.toBe(true);
    const answer = await waiting;
    expect(answer.isError).not.toBe(true);
    expect(answer.structuredContent).toMatchObject({
      timedOut: false,
      messages: [expect.objectContaining({ from: 'lead' })],
    });
    expect(
      await readWaitingMarker(run.runId, 'writer', createFileStore({ root: run.home })),
    ).toBeUndefined();
  }, 60_000);

  it('clears the mark when the wait times out, and marks nobody for the user', async () => {
    const writer = await run.connect(run.memberEnv('writer'));
    const ended = await writer.client.callTool({
      name: 'wait_for_mail',
      arguments: { timeoutSeconds: 1 },
    });
    expect(ended.structuredContent).toMatchObject({ timedOut: true, messages: [] });
    expect(
      await readWaitingMarker(run.runId, 'writer', createFileStore({ root: run.home })),
    ).toBeUndefined();

    const user = await run.connect({ TEAMKIT_RUN: run.runId }, ['--as', 'user']);
    const waiting = user.client.callTool({
      name: 'wait_for_mail',
      arguments: { timeoutSeconds: 2 },
    });
    await delay(500);
    expect(
      await readWaitingMarker(run.runId, 'user', createFileStore({ root: run.home })),
    ).toBeUndefined();
    expect((await waiting).structuredContent).toMatchObject({ timedOut: true });
  }, 60_000);
});
