import {
  argumentsText,
  asRecord,
  asString,
  type FlavourAnswerContext,
  type MockApiFlavourHandler,
  type MockConversationItem,
  partsText,
  roughTokens,
} from './mock-api-flavour.js';
import type { ChatMessage, MockTurn } from './mock-model-script.js';

interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

function wireToolCalls(turn: MockTurn, requestIndex: number): WireToolCall[] {
  return (turn.toolCalls ?? []).map((call, position) => ({
    id: call.id ?? `call_${requestIndex}_${position}`,
    type: 'function',
    function: { name: call.name, arguments: argumentsText(call.arguments) },
  }));
}

function finishReason(turn: MockTurn): 'tool_calls' | 'stop' {
  return turn.toolCalls && turn.toolCalls.length > 0 ? 'tool_calls' : 'stop';
}

function usage(turn: MockTurn) {
  const completion = roughTokens(turn.text ?? '');
  return { prompt_tokens: 1, completion_tokens: completion, total_tokens: completion + 1 };
}

/** Builds the `data:` payloads of a streamed answer, `[DONE]` last. */
export function createCompletionChunks(turn: MockTurn, context: FlavourAnswerContext): string[] {
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
export function createCompletionJson(turn: MockTurn, context: FlavourAnswerContext): unknown {
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

function textRole(role: string): 'system' | 'user' | 'assistant' | undefined {
  if (role === 'system' || role === 'developer') return 'system';
  if (role === 'user' || role === 'assistant') return role;
  return undefined;
}

/** Reads the messages of a chat completions request as a neutral conversation. */
export function readChatConversation(messages: readonly ChatMessage[]): MockConversationItem[] {
  const items: MockConversationItem[] = [];
  for (const message of messages) {
    if (message.role === 'tool') {
      const toolCallId = asString(message.tool_call_id);
      if (toolCallId !== undefined) {
        items.push({ kind: 'tool-result', toolCallId, content: partsText(message.content) });
      }
      continue;
    }
    const role = textRole(message.role);
    const text = partsText(message.content);
    if (role && text !== '') items.push({ kind: 'text', role, text });
    for (const call of message.tool_calls ?? []) {
      const fn = asRecord(call.function);
      items.push({
        kind: 'tool-call',
        id: call.id,
        name: asString(fn?.name) ?? '',
        arguments: asString(fn?.arguments) ?? '',
      });
    }
  }
  return items;
}

/** OpenAI chat completions: `POST /v1/chat/completions`, `data:` chunks ending in `[DONE]`. */
export const chatCompletionsFlavour: MockApiFlavourHandler = {
  flavour: 'chat-completions',
  matches: (path) => path === '/v1/chat/completions',
  modelOf: (body) => asString(body.model),
  isStreaming: (body) => body.stream === true,
  streamEvents: (turn, context) =>
    createCompletionChunks(turn, context).map((data) => `data: ${data}\n\n`),
  json: createCompletionJson,
  errorBody: (status, message) => ({
    error: {
      message,
      type: status >= 500 ? 'server_error' : 'invalid_request_error',
      code: status,
    },
  }),
  readConversation: (body) =>
    readChatConversation(Array.isArray(body.messages) ? body.messages : []),
};
