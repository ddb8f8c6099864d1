import type {
  ChatCompletionRequestBody,
  ChatMessage,
  MockModelRequest,
} from './mock-model-script.js';

/** A tool result the client sent back to the model (an OpenAI `role: "tool"` message). */
export interface ToolResultMessage {
  toolCallId: string;
  /** The tool's output as text (array content parts are joined). */
  content: string;
  /** The name of the tool, from the assistant message that made the call, when present. */
  toolName?: string;
  /** The call's arguments as JSON text, from the same assistant message, when present. */
  arguments?: string;
}

function bodyOf(request: MockModelRequest | ChatCompletionRequestBody): ChatCompletionRequestBody {
  return 'body' in request && typeof request.body === 'object' && request.body !== null
    ? (request.body as ChatCompletionRequestBody)
    : (request as ChatCompletionRequestBody);
}

function messagesOf(request: MockModelRequest | ChatCompletionRequestBody): ChatMessage[] {
  const messages = bodyOf(request).messages;
  return Array.isArray(messages) ? messages : [];
}

/** Turns OpenAI message content (a string or an array of parts) into plain text. */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      typeof part === 'object' && part !== null && 'text' in part && typeof part.text === 'string'
        ? part.text
        : '',
    )
    .join('');
}

/**
 * Finds every tool result in a request, oldest first, each joined with the call that
 * asked for it, so a script can answer a tool's output.
 */
export function findToolResults(
  request: MockModelRequest | ChatCompletionRequestBody,
): ToolResultMessage[] {
  const messages = messagesOf(request);
  const calls = new Map<string, { name: string; arguments: string }>();
  const results: ToolResultMessage[] = [];
  for (const message of messages) {
    for (const call of message.tool_calls ?? []) {
      calls.set(call.id, { name: call.function.name, arguments: call.function.arguments });
    }
    if (message.role !== 'tool' || typeof message.tool_call_id !== 'string') continue;
    const call = calls.get(message.tool_call_id);
    results.push({
      toolCallId: message.tool_call_id,
      content: messageText(message.content),
      ...(call ? { toolName: call.name, arguments: call.arguments } : {}),
    });
  }
  return results;
}

/**
 * Finds the last tool result in a request, or `undefined` when the conversation has none.
 * Accepts a recorded request or a raw request body.
 */
export function findLastToolResult(
  request: MockModelRequest | ChatCompletionRequestBody,
): ToolResultMessage | undefined {
  return findToolResults(request).at(-1);
}

/** Finds the text of the last user message in a request, or `undefined`. */
export function findLastUserText(
  request: MockModelRequest | ChatCompletionRequestBody,
): string | undefined {
  const last = messagesOf(request).findLast((message) => message.role === 'user');
  return last ? messageText(last.content) : undefined;
}
