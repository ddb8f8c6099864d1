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

const tools = [
  { type: 'function', name: 'exec_command', parameters: { type: 'object' } },
  { type: 'custom', name: 'apply_patch', format: { type: 'grammar' } },
  {
    type: 'namespace',
    name: 'mcp__echo',
    tools: [{ type: 'function', name: 'echo', parameters: { type: 'object' } }],
  },
];

describe('the OpenAI Responses API', () => {
  it('streams a message and function calls as typed events ending in response.completed', async () => {
    const server = await start([
      {
        text: 'on it',
        toolCalls: [
          { name: 'exec_command', arguments: { cmd: 'ls' } },
          { name: 'apply_patch', arguments: '*** Begin Patch\n*** End Patch\n' },
          { name: 'mcp__echo__echo', arguments: { text: 'hi' } },
        ],
      },
    ]);
    const response = await postJson(server.origin, '/v1/responses', {
      model: 'codex-test',
      stream: true,
      tools,
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] }],
    });
    const events = await readServerSentEvents(response);
    for (const [index, event] of events.entries()) {
      expect(event.data.type).toBe(event.event);
      expect(event.data.sequence_number).toBe(index);
    }
    expect(events[0]?.event).toBe('response.created');
    expect(events.at(-1)?.event).toBe('response.completed');
    const deltas = events.filter((event) => event.event === 'response.output_text.delta');
    expect(deltas.map((event) => event.data.delta)).toEqual(['on it']);
    const done = events
      .filter((event) => event.event === 'response.output_item.done')
      .map((event) => event.data.item);
    expect(done).toEqual([
      expect.objectContaining({ type: 'message', role: 'assistant' }),
      expect.objectContaining({
        type: 'function_call',
        name: 'exec_command',
        call_id: 'call_0_0',
        arguments: '{"cmd":"ls"}',
      }),
      expect.objectContaining({
        type: 'custom_tool_call',
        name: 'apply_patch',
        input: '*** Begin Patch\n*** End Patch\n',
      }),
      // A tool inside a namespace is called by its own name within the namespace.
      expect.objectContaining({ type: 'function_call', namespace: 'mcp__echo', name: 'echo' }),
    ]);
    const argumentDeltas = events.filter(
      (event) => event.event === 'response.function_call_arguments.delta',
    );
    expect(argumentDeltas.map((event) => event.data.delta)).toEqual([
      '{"cmd":"ls"}',
      '{"text":"hi"}',
    ]);
    const completed = events.at(-1)?.data.response as { status: string; output: unknown[] };
    expect(completed.status).toBe('completed');
    expect(completed.output).toHaveLength(4);
    expect(server.requests[0]).toMatchObject({ flavour: 'openai-responses', model: 'codex-test' });
  });

  it('answers one response object without stream', async () => {
    const server = await start([{ text: 'plain' }]);
    const response = await postJson(server.origin, '/v1/responses', { model: 'm', input: 'hi' });
    expect(await response.json()).toMatchObject({
      object: 'response',
      status: 'completed',
      output: [{ type: 'message', content: [{ type: 'output_text', text: 'plain' }] }],
    });
    expect(findLastUserText(server.requests[0] ?? {})).toBe('hi');
  });

  it('reads function call outputs, joined with their calls and namespaces, for the script', () => {
    const body = {
      instructions: 'be brief',
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'rules' }] },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'call echo' }] },
        {
          type: 'function_call',
          call_id: 'c1',
          namespace: 'mcp__echo',
          name: 'echo',
          arguments: '{"text":"x"}',
        },
        {
          type: 'function_call_output',
          call_id: 'c1',
          output: [
            { type: 'input_text', text: 'Wall time: 0 seconds' },
            { type: 'input_text', text: 'echo: x' },
          ],
        },
      ],
    };
    expect(findLastToolResult(body)).toEqual({
      toolCallId: 'c1',
      content: 'Wall time: 0 seconds\necho: x',
      toolName: 'mcp__echo__echo',
      arguments: '{"text":"x"}',
    });
    expect(findLastUserText(body)).toBe('call echo');
  });

  it('answers a scripted failure with its status and an OpenAI error body', async () => {
    const server = await start(() => ({ error: { status: 503 } }));
    const response = await postJson(server.origin, '/v1/responses', { input: 'x', stream: true });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      error: { message: 'scripted failure', type: 'server_error', code: null },
    });
  });

  it('answers tool_search with a client tool_search_call and maps tools it loaded to their namespace', async () => {
    const server = await start([
      { toolCalls: [{ name: 'tool_search', arguments: { query: 'echo' } }] },
      { toolCalls: [{ name: 'mcp__echo__echo', arguments: { text: 'hi' } }] },
    ]);
    const first = await postJson(server.origin, '/v1/responses', {
      stream: true,
      tools: [{ type: 'tool_search', execution: 'client' }],
      input: 'find echo',
    });
    const searchCall = (await readServerSentEvents(first)).find(
      (event) => event.event === 'response.output_item.done',
    )?.data.item;
    expect(searchCall).toEqual({
      id: 'tsc_mock_0_0',
      type: 'tool_search_call',
      status: 'completed',
      call_id: 'call_0_0',
      execution: 'client',
      arguments: { query: 'echo' },
    });
    const loaded = {
      type: 'namespace',
      name: 'mcp__echo',
      tools: [{ type: 'function', name: 'echo' }],
    };
    const body = {
      stream: true,
      tools: [{ type: 'tool_search', execution: 'client' }],
      input: [
        { type: 'message', role: 'user', content: 'find echo' },
        searchCall,
        { type: 'tool_search_output', call_id: 'call_0_0', execution: 'client', tools: [loaded] },
      ],
    };
    const second = await postJson(server.origin, '/v1/responses', body);
    const echoCall = (await readServerSentEvents(second)).find(
      (event) => event.event === 'response.output_item.done',
    )?.data.item;
    expect(echoCall).toMatchObject({ type: 'function_call', namespace: 'mcp__echo', name: 'echo' });
    expect(findLastToolResult(body)).toMatchObject({
      toolName: 'tool_search',
      arguments: '{"query":"echo"}',
      content: JSON.stringify([loaded]),
    });
  });
});
