import { anthropicMessagesFlavour } from './anthropic-messages-flavour.js';
import { chatCompletionsFlavour } from './chat-completion-response.js';
import { geminiFlavour } from './gemini-flavour.js';
import {
  asRecord,
  type MockApiFlavourHandler,
  type MockConversationItem,
} from './mock-api-flavour.js';
import type {
  ChatCompletionRequestBody,
  MockApiFlavour,
  MockModelRequest,
} from './mock-model-script.js';
import { openaiResponsesFlavour } from './openai-responses-flavour.js';

/** Every API flavour the mock model server speaks, in the order routes are tried. */
export const MOCK_API_FLAVOURS: readonly MockApiFlavourHandler[] = [
  chatCompletionsFlavour,
  anthropicMessagesFlavour,
  openaiResponsesFlavour,
  geminiFlavour,
];

function handlerOf(flavour: MockApiFlavour): MockApiFlavourHandler {
  return MOCK_API_FLAVOURS.find((handler) => handler.flavour === flavour) ?? chatCompletionsFlavour;
}

/** Tells a body's flavour from its shape, for raw bodies that were not recorded by the server. */
function guessFlavour(body: ChatCompletionRequestBody): MockApiFlavour {
  if (Array.isArray(body.contents)) return 'gemini';
  if (body.input !== undefined) return 'openai-responses';
  const blocks = (body.messages ?? []).flatMap((message) =>
    Array.isArray(message.content) ? message.content : [],
  );
  const anthropic = blocks.some((block) => {
    const type = asRecord(block)?.type;
    return type === 'tool_use' || type === 'tool_result';
  });
  return anthropic || body.system !== undefined ? 'anthropic-messages' : 'chat-completions';
}

function isRecorded(
  request: MockModelRequest | ChatCompletionRequestBody,
): request is MockModelRequest {
  return (
    'flavour' in request &&
    typeof request.flavour === 'string' &&
    'body' in request &&
    typeof request.body === 'object' &&
    request.body !== null
  );
}

/**
 * The conversation a model request carries, oldest first, in one shape whatever API it
 * spoke (chat completions, Anthropic Messages, OpenAI Responses, Gemini): text by role,
 * tool calls and tool results. Accepts a recorded request or a raw request body (whose
 * flavour is then told from its shape).
 */
export function readConversation(
  request: MockModelRequest | ChatCompletionRequestBody,
): MockConversationItem[] {
  if (isRecorded(request)) return handlerOf(request.flavour).readConversation(request.body);
  return handlerOf(guessFlavour(request)).readConversation(request);
}
