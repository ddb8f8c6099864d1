import {
  argumentsText,
  asRecord,
  asString,
  type FlavourAnswerContext,
  type MockApiFlavourHandler,
  type MockConversationItem,
  partsText,
  roughTokens,
  sseEvent,
} from './mock-api-flavour.js';
import type { ChatCompletionRequestBody, MockTurn } from './mock-model-script.js';

type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown; arguments: string };

function contentBlocks(turn: MockTurn, requestIndex: number): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  if (turn.text) blocks.push({ type: 'text', text: turn.text });
  (turn.toolCalls ?? []).forEach((call, position) => {
    const text = argumentsText(call.arguments);
    let input: unknown = {};
    try {
      input = JSON.parse(text);
    } catch {
      // A tool input must be an object; arguments that are not JSON are passed as text.
      input = { input: text };
    }
    blocks.push({
      type: 'tool_use',
      id: call.id ?? `toolu_mock_${requestIndex}_${position}`,
      name: call.name,
      input,
      arguments: JSON.stringify(input),
    });
  });
  return blocks;
}

function stopReason(turn: MockTurn): 'tool_use' | 'end_turn' {
  return turn.toolCalls && turn.toolCalls.length > 0 ? 'tool_use' : 'end_turn';
}

function usage(turn: MockTurn) {
  return {
    input_tokens: 1,
    output_tokens: roughTokens(turn.text ?? ''),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
}

function messageShell(context: FlavourAnswerContext) {
  return {
    id: context.id,
    type: 'message',
    role: 'assistant',
    model: context.model,
    stop_sequence: null,
  };
}

/** The server-sent events of a streamed Messages API answer, as Anthropic's SDK reads them. */
export function createMessageEvents(turn: MockTurn, context: FlavourAnswerContext): string[] {
  const events = [
    sseEvent('message_start', {
      type: 'message_start',
      message: {
        ...messageShell(context),
        content: [],
        stop_reason: null,
        usage: { ...usage(turn), output_tokens: 1 },
      },
    }),
  ];
  contentBlocks(turn, context.requestIndex).forEach((block, index) => {
    if (block.type === 'text') {
      events.push(
        sseEvent('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'text', text: '' },
        }),
        sseEvent('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'text_delta', text: block.text },
        }),
      );
    } else {
      events.push(
        sseEvent('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        }),
        sseEvent('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: block.arguments },
        }),
      );
    }
    events.push(sseEvent('content_block_stop', { type: 'content_block_stop', index }));
  });
  events.push(
    sseEvent('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason(turn), stop_sequence: null },
      usage: { output_tokens: usage(turn).output_tokens },
    }),
    sseEvent('message_stop', { type: 'message_stop' }),
  );
  return events;
}

/** A Messages API answer that is not streamed. */
export function createMessageJson(turn: MockTurn, context: FlavourAnswerContext): unknown {
  return {
    ...messageShell(context),
    content: contentBlocks(turn, context.requestIndex).map((block) =>
      block.type === 'text'
        ? block
        : { type: 'tool_use', id: block.id, name: block.name, input: block.input },
    ),
    stop_reason: stopReason(turn),
    usage: usage(turn),
  };
}

function readBlocks(
  role: 'system' | 'user' | 'assistant',
  content: unknown,
  items: MockConversationItem[],
): void {
  if (typeof content === 'string') {
    if (content !== '') items.push({ kind: 'text', role, text: content });
    return;
  }
  if (!Array.isArray(content)) return;
  let texts: string[] = [];
  const flush = () => {
    if (texts.length > 0) items.push({ kind: 'text', role, text: texts.join('\n') });
    texts = [];
  };
  for (const raw of content) {
    const block = asRecord(raw);
    if (block?.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    if (block?.type === 'tool_use') {
      flush();
      items.push({
        kind: 'tool-call',
        id: asString(block.id) ?? '',
        name: asString(block.name) ?? '',
        arguments: JSON.stringify(block.input ?? {}),
      });
    }
    if (block?.type === 'tool_result') {
      flush();
      items.push({
        kind: 'tool-result',
        toolCallId: asString(block.tool_use_id) ?? '',
        content: partsText(block.content, '\n'),
      });
    }
  }
  flush();
}

/** Reads a Messages API request (`system` and `messages` of content blocks) as a conversation. */
export function readAnthropicConversation(body: ChatCompletionRequestBody): MockConversationItem[] {
  const items: MockConversationItem[] = [];
  readBlocks('system', body.system, items);
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    const role = message.role === 'assistant' || message.role === 'system' ? message.role : 'user';
    readBlocks(role, message.content, items);
  }
  return items;
}

/** Anthropic Messages: `POST /v1/messages`, named server-sent events or one JSON message. */
export const anthropicMessagesFlavour: MockApiFlavourHandler = {
  flavour: 'anthropic-messages',
  matches: (path) => path === '/v1/messages',
  modelOf: (body) => asString(body.model),
  isStreaming: (body) => body.stream === true,
  streamEvents: createMessageEvents,
  json: createMessageJson,
  errorBody: (status, message) => ({
    type: 'error',
    error: {
      type:
        status === 529 ? 'overloaded_error' : status >= 500 ? 'api_error' : 'invalid_request_error',
      message,
    },
  }),
  readConversation: readAnthropicConversation,
};
