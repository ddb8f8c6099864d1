import type { MockTurn } from './mock-model-script.js';

interface ResponseContext {
  id: string;
  model: string;
  created: number;
  requestIndex: number;
}

interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

function wireToolCalls(turn: MockTurn, requestIndex: number): WireToolCall[] {
  return (turn.toolCalls ?? []).map((call, position) => ({
    id: call.id ?? `call_${requestIndex}_${position}`,
    type: 'function',
    function: {
      name: call.name,
      arguments:
        typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
    },
  }));
}

function finishReason(turn: MockTurn): 'tool_calls' | 'stop' {
  return turn.toolCalls && turn.toolCalls.length > 0 ? 'tool_calls' : 'stop';
}

function usage(turn: MockTurn) {
  const completion = Math.max(1, Math.ceil((turn.text ?? '').length / 4));
  return { prompt_tokens: 1, completion_tokens: completion, total_tokens: completion + 1 };
}

/** Builds the `data:` payloads of a streamed answer, `[DONE]` last. */
export function createCompletionChunks(turn: MockTurn, context: ResponseContext): string[] {
  const base = {
    id: context.id,
    object: 'chat.completion.chunk',
    created: context.created,
    model: context.model,
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null, extra = {}) =>
    JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }], ...extra });

  const chunks = [chunk({ role: 'assistant', content: '' }, null)];
  if (turn.text) chunks.push(chunk({ content: turn.text }, null));
  wireToolCalls(turn, context.requestIndex).forEach((call, index) => {
    chunks.push(chunk({ tool_calls: [{ index, ...call }] }, null));
  });
  chunks.push(chunk({}, finishReason(turn), { usage: usage(turn) }));
  chunks.push('[DONE]');
  return chunks;
}

/** Builds a non-streamed `chat.completion` answer. */
export function createCompletionJson(turn: MockTurn, context: ResponseContext): unknown {
  const toolCalls = wireToolCalls(turn, context.requestIndex);
  return {
    id: context.id,
    object: 'chat.completion',
    created: context.created,
    model: context.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: turn.text ?? null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: finishReason(turn),
      },
    ],
    usage: usage(turn),
  };
}
