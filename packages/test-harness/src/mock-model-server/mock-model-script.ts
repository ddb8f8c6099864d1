/** One tool call the scripted model makes in a turn. */
export interface MockToolCall {
  /** Tool name as the host registered it (e.g. `probe_echo`). */
  name: string;
  /** Arguments; a string is sent verbatim, anything else is JSON-encoded. */
  arguments: unknown;
  /** Tool call id; defaults to `call_<requestIndex>_<position>`. */
  id?: string;
}

/**
 * What the scripted model answers to one chat completion request: some text, some
 * tool calls, or both. With tool calls the finish reason is `tool_calls`, else `stop`.
 */
export interface MockTurn {
  text?: string;
  toolCalls?: MockToolCall[];
}

/** A tool call as the client sent it back inside an assistant message. */
export interface ChatToolCall {
  id: string;
  type?: string;
  function: { name: string; arguments: string };
}

/** One message of an OpenAI-style chat completion request, loosely typed. */
export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
  [key: string]: unknown;
}

/** The JSON body of an OpenAI-style chat completion request, loosely typed. */
export interface ChatCompletionRequestBody {
  model?: string;
  stream?: boolean;
  messages?: ChatMessage[];
  tools?: unknown[];
  [key: string]: unknown;
}

/** A chat completion request as the mock model server recorded it. */
export interface MockModelRequest {
  /** Position among the chat completion requests, from 0. */
  index: number;
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  /** Request headers, lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: ChatCompletionRequestBody;
  /** The turn that answered, after defaults (the fallback turn when the script ran out). */
  turn?: MockTurn;
  /** True when the script had no turn left and the fallback "done" turn answered. */
  exhausted: boolean;
}

/**
 * Picks the turn for a request; `undefined` means the script has nothing more to say.
 * `index` is the request's position among chat completion requests.
 */
export type MockTurnResolver = (
  request: MockModelRequest,
  index: number,
) => MockTurn | undefined | Promise<MockTurn | undefined>;

/** One step of a script: a fixed turn, or a function that looks at the request. */
export type MockScriptStep = MockTurn | MockTurnResolver;

/**
 * What the mock model says: steps consumed one per request in order, or one function
 * asked for every request (it can react to the conversation, e.g. to a tool result).
 */
export type MockModelScript = readonly MockScriptStep[] | MockTurnResolver;
