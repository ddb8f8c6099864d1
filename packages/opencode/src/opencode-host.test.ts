import { randomUUID } from 'node:crypto';
import type { DeliverInput, Message } from '@teamkit/team-core';
import { describe, expect, it } from 'vitest';
import { createOpenCodeHost } from './opencode-host.js';
import { createFakeOpenCodeClient } from './test-support/fake-opencode-client.js';

function deliveryFor(sessionId: string): DeliverInput {
  const message: Message = {
    version: 1,
    messageId: randomUUID(),
    runId: randomUUID(),
    from: 'lead',
    to: 'writer',
    kind: 'message',
    body: 'hello',
    timestamp: Date.now(),
  };
  return {
    runId: message.runId,
    member: 'writer',
    sessionId,
    messages: [message],
    text: `<team_message id="${message.messageId}">hello</team_message>`,
  };
}

describe('the OpenCode host', () => {
  it('answers deferred when the session history never shows the delivery', async () => {
    const client = createFakeOpenCodeClient();
    client.addSession('ses_a');
    client.dropPrompts('ses_a');
    const host = createOpenCodeHost({ client, confirmTimeoutMs: 50, confirmIntervalMs: 5 });
    expect(await host.deliver(deliveryFor('ses_a'))).toBe('deferred');
    expect(client.calls.filter((call) => call.method === 'session.promptAsync')).toHaveLength(1);
  });

  it('never prompts a busy session', async () => {
    const client = createFakeOpenCodeClient();
    client.addSession('ses_a');
    client.setBusy('ses_a', true);
    const host = createOpenCodeHost({ client });
    expect(await host.deliver(deliveryFor('ses_a'))).toBe('deferred');
    expect(client.calls.some((call) => call.method === 'session.promptAsync')).toBe(false);
  });

  it('prompts the lead session with the agent and model it last used', async () => {
    const client = createFakeOpenCodeClient();
    client.addSession('ses_lead', {
      agent: 'pair-lead',
      model: { providerID: 'p', modelID: 'm' },
    });
    const host = createOpenCodeHost({ client });
    expect(await host.deliver(deliveryFor('ses_lead'))).toBe('delivered');
    const prompt = client.calls.find((call) => call.method === 'session.promptAsync')?.options;
    expect(prompt).toMatchObject({
      path: { id: 'ses_lead' },
      body: { agent: 'pair-lead', model: { providerID: 'p', modelID: 'm' } },
    });
  });

  it('interrupts only busy sessions, with session.abort', async () => {
    const client = createFakeOpenCodeClient();
    client.addSession('ses_a');
    const host = createOpenCodeHost({ client });
    expect(await host.interrupt?.('ses_a')).toBe('idle');
    client.setBusy('ses_a', true);
    expect(await host.interrupt?.('ses_a')).toBe('interrupted');
    expect(client.calls.filter((call) => call.method === 'session.abort')).toHaveLength(1);
    expect(await host.interrupt?.('ses_missing')).toBe('unknown');
  });

  it('offers no attach command until a real server answers on the server URL', async () => {
    const client = createFakeOpenCodeClient();
    client.addSession('ses_a');
    const refused = createOpenCodeHost({
      client,
      serverUrl: () => new URL('http://localhost:4096'),
      fetch: async () => {
        throw new Error('connect ECONNREFUSED');
      },
    });
    const check = await refused.checkAttach();
    expect(check).toMatchObject({ usable: false });
    expect(check.usable ? '' : check.reason).toMatch(
      /nothing listens on http:\/\/localhost:4096\//,
    );
    expect(refused.attachCommand?.('ses_a')).toBeUndefined();

    const served = createOpenCodeHost({
      client,
      serverUrl: () => new URL('http://127.0.0.1:5123/'),
      fetch: async () => new Response('{}', { status: 200 }),
    });
    expect(await served.checkAttach()).toEqual({ usable: true, url: 'http://127.0.0.1:5123' });
    expect(served.attachCommand?.('ses_a')).toEqual([
      'opencode',
      'attach',
      'http://127.0.0.1:5123',
      '--session',
      'ses_a',
    ]);
  });

  it('refuses a server URL that is not http', async () => {
    const host = createOpenCodeHost({
      client: createFakeOpenCodeClient(),
      serverUrl: () => 'file:///tmp/socket',
    });
    expect(await host.checkAttach()).toMatchObject({ usable: false });
  });
});
