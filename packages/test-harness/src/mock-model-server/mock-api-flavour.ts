import type { ChatCompletionRequestBody, MockApiFlavour, MockTurn } from './mock-model-script.js';

/**
 * One step of a conversation as a model request carried it, the same whatever API the
 * request spoke: text from the system, the user or the assistant, a tool call the
 * assistant made, or a tool's result.
 */
export type MockConversationItem =
  | { kind: 'text'; role: 'system' | 'user' | 'assistant'; text: string }
  | { kind: 'tool-call'; id: string; name: string; arguments: string }
  | { kind: 'tool-result'; toolCallId: string; content: string; toolName?: string };

/** What a flavour needs to know to answer one request. */
export interface FlavourAnswerContext {
  /** Response id, unique per request. */
  id: string;
  model: string;
  /** Seconds since the epoch. */
  created: number;
  requestIndex: number;
  body: ChatCompletionRequestBody;
}

/** How the mock model server speaks one model API. Internal to the server. */
export interface MockApiFlavourHandler {
  readonly flavour: MockApiFlavour;
  /** Whether a `POST` to this path (no query string) is a model request of this flavour. */
  matches(path: string): boolean;
  /** The model id asked for, from the body or the path. */
  modelOf(body: ChatCompletionRequestBody, path: string): string | undefined;
  /** Whether the client wants server-sent events. */
  isStreaming(body: ChatCompletionRequestBody, path: string): boolean;
  /** The server-sent events of a streamed answer, each a complete `event:`/`data:` block. */
  streamEvents(turn: MockTurn, context: FlavourAnswerContext): string[];
  /** The JSON document of an answer that is not streamed. */
  json(turn: MockTurn, context: FlavourAnswerContext): unknown;
  /** The JSON body of an error answer in this API's shape. */
  errorBody(status: number, message: string): unknown;
  /** The conversation the request carries, oldest first. */
  readConversation(body: ChatCompletionRequestBody): MockConversationItem[];
}

/** Encodes tool call arguments as the JSON text every API carries. */
export function argumentsText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? {});
}

/** A rough token count for usage fields: a quarter of the characters, at least 1. */
export function roughTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Joins the text of content parts (`{ text }` objects or strings); other parts are skipped. */
export function partsText(content: unknown, separator = ''): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => {
      if (typeof part === 'string') return part;
      if (typeof part === 'object' && part !== null && 'text' in part) {
        return typeof part.text === 'string' ? part.text : '';
      }
      return '';
    })
    .filter((text) => text !== '')
    .join(separator);
}

/** A value as a plain object, or `undefined`. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** A value as a string, or `undefined`. */
export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** One server-sent event block with an event name. */
export function sseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
