import { afterEach, describe, expect, it } from 'vitest';
import { findLastToolResult, findLastUserText, findToolResults } from './find-last-tool-result.js';
import type { MockModelScript } from './mock-model-script.js';
import { type MockModelServer, startMockModelServer } from './start-mock-model-server.js';
import { postJson, readServerSentEvents } from './test-support/read-server-sent-events.js';

const servers: MockModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function start(script: MockModelScript) {
  const server = await startMockModelServer({ script });
  servers.push(server);
  return server;
}

const conversation = {
  model: 'claude-test',
  system: [{ type: 'text', text: 'be brief' }],
  messages: [
    { role: 'user', content: 'write the file' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'writing' },
        { type: 'tool_use', id: 'toolu_1', name: 'Write', input: { file_path: 'a.txt' } },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: [{ type: 'text', text: 'written' }],
        },
      ],
    },
  ],
};

describe('the Anthropic Messages API', () => {
  it('streams text and a tool call as message_start, content blocks, message_delta and message_stop', async () => {
    const server = await start([
      { text: 'calling', toolCalls: [{ name: 'Write', arguments: { file_path: 'b.txt' } }] },
    ]);
    const response = await postJson(server.origin, '/v1/messages?beta=true', {
      ...conversation,
      stream: true,
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = await readServerSentEvents(response);
    expect(events.map((event) => event.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    for (const event of events) expect(event.data.type).toBe(event.event);
    expect(events[0]?.data.message).toMatchObject({ role: 'assistant', model: 'claude-test' });
    expect(events[2]?.data.delta).toEqual({ type: 'text_delta', text: 'calling' });
    expect(events[4]?.data.content_block).toEqual({
      type: 'tool_use',
      id: 'toolu_mock_0_0',
      name: 'Write',
      input: {},
    });
    expect(events[5]?.data.delta).toEqual({
      type: 'input_json_delta',
      partial_json: '{"file_path":"b.txt"}',
    });
    expect(events[7]?.data.delta).toMatchObject({ stop_reason: 'tool_use' });

    const [request] = server.requests;
    expect(request).toMatchObject({ flavour: 'anthropic-messages', path: '/v1/messages' });
    expect(request?.model).toBe('claude-test');
    expect(request?.stream).toBe(true);
  });

  it('answers one JSON message without stream, ending the turn when no tool is called', async () => {
    const server = await start([{ text: 'hello' }]);
    const response = await postJson(server.origin, '/v1/messages', conversation);
    expect(await response.json()).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'hello' }],
      stop_reason: 'end_turn',
    });
  });

  it('reads tool results and user text from content blocks for the script', async () => {
    const server = await start([]);
    await postJson(server.origin, '/v1/messages', conversation);
    const [request] = server.requests;
    if (!request) throw new Error('no request recorded');
    expect(findLastToolResult(request)).toEqual({
      toolCallId: 'toolu_1',
      content: 'written',
      toolName: 'Write',
      arguments: '{"file_path":"a.txt"}',
    });
    expect(findLastUserText(request)).toBe('write the file');
    // A raw body is recognised as Anthropic's by its blocks.
    expect(findToolResults(conversation)).toHaveLength(1);
  });

  it('answers a scripted failure with its status and an Anthropic error body', async () => {
    const server = await start([{ error: { status: 529, message: 'busy', retryAfterMs: 5 } }]);
    const response = await postJson(server.origin, '/v1/messages', {
      ...conversation,
      stream: true,
    });
    expect(response.status).toBe(529);
    expect(response.headers.get('retry-after-ms')).toBe('5');
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'busy' },
    });
  });

  it('counts tokens and answers connectivity probes without using the script', async () => {
    const server = await start([{ text: 'unused' }]);
    const count = await postJson(server.origin, '/v1/messages/count_tokens', conversation);
    expect(((await count.json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(0);
    const probe = await fetch(`${server.origin}/api/hello`, { method: 'HEAD' });
    expect(probe.status).toBe(200);
    expect(server.requests).toHaveLength(0);
  });
});
