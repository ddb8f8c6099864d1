import { afterEach, describe, expect, it } from 'vitest';
import { findLastToolResult, findLastUserText } from './find-last-tool-result.js';
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

const contents = [
  { role: 'user', parts: [{ text: 'context' }, { text: 'write it' }] },
  {
    role: 'model',
    parts: [
      { text: 'thinking', thought: true },
      { functionCall: { name: 'write_file', args: { file_path: 'a.txt' } } },
    ],
  },
  {
    role: 'user',
    parts: [{ functionResponse: { name: 'write_file', response: { output: 'written' } } }],
  },
];

describe('the Gemini API', () => {
  it('streams a candidate with text and function calls on streamGenerateContent', async () => {
    const server = await start([
      { text: 'sure', toolCalls: [{ name: 'write_file', arguments: { file_path: 'b.txt' } }] },
    ]);
    const response = await postJson(
      server.origin,
      '/v1beta/models/gemini-test:streamGenerateContent?alt=sse',
      { contents },
    );
    const events = await readServerSentEvents(response);
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'sure' },
              {
                functionCall: { id: 'call_0_0', name: 'write_file', args: { file_path: 'b.txt' } },
              },
            ],
          },
          finishReason: 'STOP',
        },
      ],
    });
    expect(server.requests[0]).toMatchObject({
      flavour: 'gemini',
      model: 'gemini-test',
      stream: true,
      path: '/v1beta/models/gemini-test:streamGenerateContent',
    });
  });

  it('answers generateContent with one JSON document and countTokens without the script', async () => {
    const server = await start([{ text: '{"score":1}' }]);
    const response = await postJson(server.origin, '/v1beta/models/g:generateContent', {
      contents,
    });
    expect(await response.json()).toMatchObject({
      candidates: [{ content: { parts: [{ text: '{"score":1}' }] } }],
    });
    const count = await postJson(server.origin, '/v1beta/models/g:countTokens', { contents });
    expect(((await count.json()) as { totalTokens: number }).totalTokens).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.stream).toBe(false);
  });

  it('joins a function response to its call by name when the call has no id', () => {
    expect(findLastToolResult({ contents })).toEqual({
      toolCallId: 'write_file#1',
      content: 'written',
      toolName: 'write_file',
      arguments: '{"file_path":"a.txt"}',
    });
    expect(findLastUserText({ contents })).toBe('context\nwrite it');
  });

  it('answers a scripted failure with a Google error body', async () => {
    const server = await start(() => ({ error: { status: 500, message: 'down' } }));
    const response = await postJson(server.origin, '/v1beta/models/g:generateContent', {
      contents,
    });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: { code: 500, message: 'down', status: 'INTERNAL' },
    });
  });
});
