import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { findLastToolResult } from './find-last-tool-result.js';
import type { MockModelScript } from './mock-model-script.js';
import { type MockModelServer, startMockModelServer } from './start-mock-model-server.js';

const servers: MockModelServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(script: MockModelScript, extra: { idleTimeoutMs?: number } = {}) {
  const server = await startMockModelServer({ script, ...extra });
  servers.push(server);
  return server;
}

async function postCompletion(server: MockModelServer, body: Record<string, unknown>) {
  return fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer test-key' },
    body: JSON.stringify({
      model: 'mock-model',
      messages: [{ role: 'user', content: 'hi' }],
      ...body,
    }),
  });
}

interface StreamChunk {
  object: string;
  choices: {
    delta: {
      content?: string;
      tool_calls?: {
        index: number;
        id?: string;
        function?: { name?: string; arguments?: string };
      }[];
    };
    finish_reason: string | null;
  }[];
}

/** Parses a server-sent event stream the way OpenAI clients do: `data:` lines, `[DONE]` last. */
async function readStream(response: Response) {
  const text = await response.text();
  const events = text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      expect(block.startsWith('data: ')).toBe(true);
      return block.slice('data: '.length);
    });
  expect(events.at(-1)).toBe('[DONE]');
  const chunks = events.slice(0, -1).map((data) => JSON.parse(data) as StreamChunk);
  let content = '';
  const calls: { id: string; name: string; arguments: string }[] = [];
  let finishReason: string | null = null;
  for (const chunk of chunks) {
    expect(chunk.object).toBe('chat.completion.chunk');
    const choice = chunk.choices[0];
    if (!choice) continue;
    content += choice.delta.content ?? '';
    for (const call of choice.delta.tool_calls ?? []) {
      const existing = calls[call.index];
      if (existing) existing.arguments += call.function?.arguments ?? '';
      else {
        calls[call.index] = {
          id: call.id ?? '',
          name: call.function?.name ?? '',
          arguments: call.function?.arguments ?? '',
        };
      }
    }
    finishReason = choice.finish_reason ?? finishReason;
  }
  return { content, calls, finishReason };
}

describe('startMockModelServer', () => {
  it('listens on 127.0.0.1 and gives a base URL ending in /v1', async () => {
    const server = await start([]);
    expect(server.host).toBe('127.0.0.1');
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/v1`);
  });

  it('refuses a non-loopback host', async () => {
    await expect(startMockModelServer({ script: [], host: '0.0.0.0' })).rejects.toThrow(
      /loopback only/,
    );
  });

  it('streams a text turn as OpenAI chunks ending with stop and [DONE]', async () => {
    const server = await start([{ text: 'Hello there' }]);
    const response = await postCompletion(server, { stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const parsed = await readStream(response);
    expect(parsed).toEqual({ content: 'Hello there', calls: [], finishReason: 'stop' });
  });

  it('streams tool calls with ids, names and JSON arguments, finishing with tool_calls', async () => {
    const server = await start([
      {
        text: 'Calling.',
        toolCalls: [
          { name: 'probe_echo', arguments: { message: 'hi', n: 3 } },
          { name: 'raw_tool', arguments: '{"already":"json"}', id: 'call_fixed' },
        ],
      },
    ]);
    const parsed = await readStream(await postCompletion(server, { stream: true }));
    expect(parsed.content).toBe('Calling.');
    expect(parsed.finishReason).toBe('tool_calls');
    expect(parsed.calls).toEqual([
      { id: 'call_0_0', name: 'probe_echo', arguments: '{"message":"hi","n":3}' },
      { id: 'call_fixed', name: 'raw_tool', arguments: '{"already":"json"}' },
    ]);
  });

  it('answers without stream as a chat.completion JSON document', async () => {
    const server = await start([
      { text: 'plain' },
      { toolCalls: [{ name: 'probe_echo', arguments: { a: 1 } }] },
    ]);
    const first = (await (await postCompletion(server, {})).json()) as {
      object: string;
      choices: { message: { role: string; content: string | null }; finish_reason: string }[];
    };
    expect(first.object).toBe('chat.completion');
    expect(first.choices[0]?.message).toEqual({ role: 'assistant', content: 'plain' });
    expect(first.choices[0]?.finish_reason).toBe('stop');

    const second = (await (await postCompletion(server, { stream: false })).json()) as {
      choices: {
        message: { content: string | null; tool_calls: unknown };
        finish_reason: string;
      }[];
    };
    expect(second.choices[0]?.finish_reason).toBe('tool_calls');
    expect(second.choices[0]?.message.content).toBeNull();
    expect(second.choices[0]?.message.tool_calls).toEqual([
      { id: 'call_1_0', type: 'function', function: { name: 'probe_echo', arguments: '{"a":1}' } },
    ]);
  });

  it('records request bodies and headers in order', async () => {
    const server = await start([{ text: 'one' }, { text: 'two' }]);
    await (
      await postCompletion(server, { stream: true, messages: [{ role: 'user', content: 'a' }] })
    ).text();
    await (await postCompletion(server, { messages: [{ role: 'user', content: 'b' }] })).text();
    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests;
    expect(first?.index).toBe(0);
    expect(first?.method).toBe('POST');
    expect(first?.path).toBe('/v1/chat/completions');
    expect(first?.headers.authorization).toBe('Bearer test-key');
    expect(first?.body.messages).toEqual([{ role: 'user', content: 'a' }]);
    expect(first?.turn).toEqual({ text: 'one' });
    expect(second?.body.messages).toEqual([{ role: 'user', content: 'b' }]);
    expect(second?.exhausted).toBe(false);
  });

  it('lets a function script answer a tool result with the next turn', async () => {
    const server = await start((request) => {
      const result = findLastToolResult(request);
      if (!result) return { toolCalls: [{ name: 'probe_echo', arguments: { step: 1 } }] };
      return { text: `saw ${result.toolName}: ${result.content}` };
    });
    const first = await readStream(await postCompletion(server, { stream: true }));
    const call = first.calls[0];
    expect(call?.name).toBe('probe_echo');

    const followUp = await readStream(
      await postCompletion(server, {
        stream: true,
        messages: [
          { role: 'user', content: 'go' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: call?.id,
                type: 'function',
                function: { name: call?.name, arguments: call?.arguments },
              },
            ],
          },
          { role: 'tool', tool_call_id: call?.id, content: 'echoed step 1' },
        ],
      }),
    );
    expect(followUp).toEqual({
      content: 'saw probe_echo: echoed step 1',
      calls: [],
      finishReason: 'stop',
    });
    expect(findLastToolResult(server.requests[1] ?? {})).toEqual({
      toolCallId: 'call_0_0',
      content: 'echoed step 1',
      toolName: 'probe_echo',
      arguments: '{"step":1}',
    });
  });

  it('mixes fixed turns and functions in one array', async () => {
    const server = await start([
      { text: 'fixed' },
      (_request, index) => ({ text: `index ${index}` }),
    ]);
    expect((await readStream(await postCompletion(server, { stream: true }))).content).toBe(
      'fixed',
    );
    expect((await readStream(await postCompletion(server, { stream: true }))).content).toBe(
      'index 1',
    );
  });

  it('answers "done" with stop once the script runs out, and records it', async () => {
    const server = await start([{ text: 'only turn' }]);
    await (await postCompletion(server, { stream: true })).text();
    expect(server.exhausted).toBe(false);
    const parsed = await readStream(await postCompletion(server, { stream: true }));
    expect(parsed).toEqual({ content: 'done', calls: [], finishReason: 'stop' });
    expect(server.exhausted).toBe(true);
    expect(server.requests.map((request) => request.exhausted)).toEqual([false, true]);
  });

  it('answers 500 with the reason when a script function throws', async () => {
    const server = await start(() => {
      throw new Error('bad script');
    });
    const response = await postCompletion(server, { stream: true });
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /bad script/,
    );
  });

  it('rejects a body that is not JSON with 400', async () => {
    const server = await start([]);
    const response = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: '{' });
    expect(response.status).toBe(400);
    expect(server.requests).toHaveLength(0);
  });

  it('lists its models', async () => {
    const server = await startMockModelServer({ script: [], models: ['a', 'b'] });
    servers.push(server);
    const body = (await (await fetch(`${server.url}/models`)).json()) as {
      object: string;
      data: { id: string }[];
    };
    expect(body.object).toBe('list');
    expect(body.data.map((model) => model.id)).toEqual(['a', 'b']);
  });

  it('answers unknown routes with a JSON 404', async () => {
    const server = await start([]);
    for (const [method, path] of [
      ['GET', '/v1/nothing'],
      ['GET', '/v1/chat/completions'],
      ['POST', '/other'],
    ] as const) {
      const response = await fetch(`http://127.0.0.1:${server.port}${path}`, { method });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(((await response.json()) as { error: { type: string } }).error.type).toBe(
        'not_found_error',
      );
    }
  });

  it('frees the port on close, even with a keep-alive connection open', async () => {
    const server = await start([{ text: 'x' }]);
    await (await postCompletion(server, { stream: true })).text();
    await server.close();
    expect(server.closed).toBe(true);
    await server.close();
    await expect(fetch(`${server.url}/models`)).rejects.toThrow();
    const probe = createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(server.port, '127.0.0.1', () => resolve());
    });
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  });

  it('closes itself after the idle timeout', async () => {
    const server = await start([], { idleTimeoutMs: 50 });
    await expect.poll(() => server.closed, { timeout: 5_000, interval: 20 }).toBe(true);
  });
});
