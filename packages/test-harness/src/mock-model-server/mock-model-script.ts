/**
 * The model API a request spoke: OpenAI chat completions (`POST /v1/chat/completions`),
 * Anthropic Messages (`POST /v1/messages`), OpenAI Responses (`POST /v1/responses`) or
 * Gemini (`POST /v1beta/models/<model>:generateContent` and `:streamGenerateContent`).
 */
export type MockApiFlavour =
  | 'chat-completions'
  | 'anthropic-messages'
  | 'openai-responses'
  | 'gemini';

/** One tool call the scripted model makes in a turn. */
export interface MockToolCall {
  /** Tool name as the host registered it (e.g. `probe_echo`, `Write`, `exec_command`). */
  name: string;
  /**
   * Arguments; a string is sent verbatim, anything else is JSON-encoded. For an OpenAI
   * Responses tool of type `custom` (free-form input, such as Codex's `apply_patch`), a
   * string is sent as the call's `input`.
   */
  arguments: unknown;
  /**
   * Tool call id; defaults to `call_<requestIndex>_<position>` (`toolu_mock_<requestIndex>_<position>`
   * for the Anthropic Messages API).
   */
  id?: string;
}

/**
 * A failed model call: the server answers with this HTTP status and an error body in the
 * request's API flavour, so a test can see how a host handles an API outage.
 */
export interface MockTurnError {
  /** HTTP status, e.g. 500 or 529. */
  status: number;
  /** Error message; `"scripted failure"` by default. */
  message?: string;
  /**
   * Sent as `retry-after-ms` (and `retry-after` in whole seconds), which clients that retry
   * (OpenCode's, Anthropic's and OpenAI's SDKs) use as their wait, so a test of an outage
   * does not sit through their default backoff.
   */
  retryAfterMs?: number;
}

/**
 * What the scripted model answers to one model request: some text, some tool calls, or
 * both (the stop reason says "tool use" when it calls tools, else "end of turn"), or an
 * error instead of an answer.
 */
export interface MockTurn {
  text?: string;
  toolCalls?: MockToolCall[];
  /** Answer with an HTTP error instead of a turn; `text` and `toolCalls` are then ignored. */
  error?: MockTurnError;
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

/**
 * The JSON body of a model request, loosely typed. Chat completions and Anthropic Messages
 * requests carry `messages`; Responses requests carry `input`; Gemini requests `contents`.
 */
export interface ChatCompletionRequestBody {
  model?: string;
  stream?: boolean;
  messages?: ChatMessage[];
  tools?: unknown[];
  [key: string]: unknown;
}

/** A model request as the mock model server recorded it. */
export interface MockModelRequest {
  /** Position among the model requests of every flavour, from 0. */
  index: number;
  /** The API the request spoke. */
  flavour: MockApiFlavour;
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  /** The model id the client asked for (from the body, or from the path for Gemini). */
  model?: string;
  /** Whether the client asked for a streamed answer. */
  stream: boolean;
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
 * `index` is the request's position among model requests.
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
