import { partsText } from './mock-api-flavour.js';
import type { ChatCompletionRequestBody, MockModelRequest } from './mock-model-script.js';
import { readConversation } from './read-conversation.js';

/** A tool result the client sent back to the model, whatever API flavour carried it. */
export interface ToolResultMessage {
  toolCallId: string;
  /** The tool's output as text (array content parts are joined). */
  content: string;
  /** The name of the tool, from the assistant turn that made the call, when present. */
  toolName?: string;
  /** The call's arguments as JSON text (or free-form input), from the same turn, when present. */
  arguments?: string;
}

/** Turns message content (a string or an array of `{ text }` parts) into plain text. */
export function messageText(content: unknown): string {
  return partsText(content);
}

/**
 * Finds every tool result in a request, oldest first, each joined with the call that
 * asked for it, so a script can answer a tool's output. Works for every API flavour.
 */
export function findToolResults(
  request: MockModelRequest | ChatCompletionRequestBody,
): ToolResultMessage[] {
  const calls = new Map<string, { name: string; arguments: string }>();
  const results: ToolResultMessage[] = [];
  for (const item of readConversation(request)) {
    if (item.kind === 'tool-call')
      calls.set(item.id, { name: item.name, arguments: item.arguments });
    if (item.kind !== 'tool-result') continue;
    const call = calls.get(item.toolCallId);
    const toolName = call?.name ?? item.toolName;
    results.push({
      toolCallId: item.toolCallId,
      content: item.content,
      ...(toolName !== undefined ? { toolName } : {}),
      ...(call ? { arguments: call.arguments } : {}),
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

/**
 * Finds the text of the last user message in a request that has text, or `undefined`.
 * Hosts often add context of their own to user messages (Claude Code's system reminders,
 * Codex's environment context), so match the part you sent with `toContain`.
 */
export function findLastUserText(
  request: MockModelRequest | ChatCompletionRequestBody,
): string | undefined {
  const last = readConversation(request).findLast(
    (item) => item.kind === 'text' && item.role === 'user',
  );
  return last?.kind === 'text' ? last.text : undefined;
}

/** Every user text in a request, oldest first: shows what earlier turns a resumed session carried. */
export function findUserTexts(request: MockModelRequest | ChatCompletionRequestBody): string[] {
  return readConversation(request).flatMap((item) =>
    item.kind === 'text' && item.role === 'user' ? [item.text] : [],
  );
}
