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

type OutputItem = Record<string, unknown> & { id: string; type: string };

/**
 * The request's tools that are not plain functions, by the name a script calls them with:
 * `custom` tools (free-form input, such as Codex's `apply_patch`) by their name, and a
 * client-side `tool_search` tool (Codex's search over deferred MCP tools) as `tool_search`.
 */
function specialTools(body: ChatCompletionRequestBody): Map<string, 'custom' | 'tool_search'> {
  const tools = new Map<string, 'custom' | 'tool_search'>();
  for (const raw of Array.isArray(body.tools) ? body.tools : []) {
    const tool = asRecord(raw);
    if (tool?.type === 'custom' && typeof tool.name === 'string') tools.set(tool.name, 'custom');
    if (tool?.type === 'tool_search') tools.set('tool_search', 'tool_search');
  }
  return tools;
}

function argumentsObject(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? {};
  try {
    return JSON.parse(value);
  } catch {
    return { query: value };
  }
}

/**
 * Tools grouped under a `namespace` tool (Codex puts each MCP server's tools in one, e.g.
 * namespace `mcp__echo` with function `echo`), offered in `tools` or loaded by an earlier
 * `tool_search` (its output in `input`): maps `mcp__echo__echo` to its two parts, so a
 * script can name the tool as other hosts do.
 */
function namespacedTools(
  body: ChatCompletionRequestBody,
): Map<string, { namespace: string; name: string }> {
  const names = new Map<string, { namespace: string; name: string }>();
  const searched = (Array.isArray(body.input) ? body.input : []).flatMap((raw) => {
    const item = asRecord(raw);
    return item?.type === 'tool_search_output' && Array.isArray(item.tools) ? item.tools : [];
  });
  for (const raw of [...(Array.isArray(body.tools) ? body.tools : []), ...searched]) {
    const tool = asRecord(raw);
    if (tool?.type !== 'namespace' || typeof tool.name !== 'string') continue;
    for (const inner of Array.isArray(tool.tools) ? tool.tools : []) {
      const name = asString(asRecord(inner)?.name);
      if (name) names.set(`${tool.name}__${name}`, { namespace: tool.name, name });
    }
  }
  return names;
}

function outputItems(turn: MockTurn, context: FlavourAnswerContext): OutputItem[] {
  const items: OutputItem[] = [];
  const n = context.requestIndex;
  if (turn.text) {
    items.push({
      id: `msg_mock_${n}`,
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: turn.text, annotations: [] }],
    });
  }
  const special = specialTools(context.body);
  const namespaced = namespacedTools(context.body);
  (turn.toolCalls ?? []).forEach((call, position) => {
    const callId = call.id ?? `call_${n}_${position}`;
    if (special.get(call.name) === 'tool_search') {
      items.push({
        id: `tsc_mock_${n}_${position}`,
        type: 'tool_search_call',
        status: 'completed',
        call_id: callId,
        execution: 'client',
        arguments: argumentsObject(call.arguments),
      });
      return;
    }
    if (special.get(call.name) === 'custom' && typeof call.arguments === 'string') {
      items.push({
        id: `ctc_mock_${n}_${position}`,
        type: 'custom_tool_call',
        status: 'completed',
        call_id: callId,
        name: call.name,
        input: call.arguments,
      });
      return;
    }
    const inNamespace = namespaced.get(call.name);
    items.push({
      id: `fc_mock_${n}_${position}`,
      type: 'function_call',
      status: 'completed',
      call_id: callId,
      ...(inNamespace ?? { name: call.name }),
      arguments: argumentsText(call.arguments),
    });
  });
  return items;
}

function usage(turn: MockTurn) {
  const output = roughTokens(turn.text ?? '');
  return {
    input_tokens: 1,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: output + 1,
  };
}

function responseObject(context: FlavourAnswerContext, status: string, output: OutputItem[]) {
  return {
    id: context.id,
    object: 'response',
    created_at: context.created,
    status,
    model: context.model,
    output,
  };
}

/** The events of one output item, from `output_item.added` to `output_item.done`. */
function itemEvents(item: OutputItem, outputIndex: number): [string, Record<string, unknown>][] {
  const at = { item_id: item.id, output_index: outputIndex };
  const events: [string, Record<string, unknown>][] = [];
  if (item.type === 'message') {
    const text = partsText(item.content);
    const part = { type: 'output_text', text, annotations: [] };
    events.push(
      [
        'response.output_item.added',
        { output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } },
      ],
      ['response.content_part.added', { ...at, content_index: 0, part: { ...part, text: '' } }],
      ['response.output_text.delta', { ...at, content_index: 0, delta: text }],
      ['response.output_text.done', { ...at, content_index: 0, text }],
      ['response.content_part.done', { ...at, content_index: 0, part }],
    );
  } else if (item.type === 'custom_tool_call') {
    const input = asString(item.input) ?? '';
    events.push(
      [
        'response.output_item.added',
        { output_index: outputIndex, item: { ...item, status: 'in_progress', input: '' } },
      ],
      ['response.custom_tool_call_input.delta', { ...at, delta: input }],
      ['response.custom_tool_call_input.done', { ...at, input }],
    );
  } else if (item.type === 'tool_search_call') {
    events.push([
      'response.output_item.added',
      { output_index: outputIndex, item: { ...item, status: 'in_progress' } },
    ]);
  } else {
    const args = asString(item.arguments) ?? '';
    events.push(
      [
        'response.output_item.added',
        { output_index: outputIndex, item: { ...item, status: 'in_progress', arguments: '' } },
      ],
      ['response.function_call_arguments.delta', { ...at, delta: args }],
      ['response.function_call_arguments.done', { ...at, arguments: args }],
    );
  }
  events.push(['response.output_item.done', { output_index: outputIndex, item }]);
  return events;
}

/** The server-sent events of a streamed Responses API answer, as Codex reads them. */
export function createResponseEvents(turn: MockTurn, context: FlavourAnswerContext): string[] {
  const items = outputItems(turn, context);
  const events: [string, Record<string, unknown>][] = [
    ['response.created', { response: responseObject(context, 'in_progress', []) }],
    ['response.in_progress', { response: responseObject(context, 'in_progress', []) }],
    ...items.flatMap((item, index) => itemEvents(item, index)),
    [
      'response.completed',
      { response: { ...responseObject(context, 'completed', items), usage: usage(turn) } },
    ],
  ];
  return events.map(([type, data], sequence) =>
    sseEvent(type, { type, sequence_number: sequence, ...data }),
  );
}

/** A Responses API answer that is not streamed. */
export function createResponseJson(turn: MockTurn, context: FlavourAnswerContext): unknown {
  return {
    ...responseObject(context, 'completed', outputItems(turn, context)),
    usage: usage(turn),
  };
}

function roleOf(role: unknown): 'system' | 'user' | 'assistant' {
  if (role === 'system' || role === 'developer') return 'system';
  return role === 'assistant' ? 'assistant' : 'user';
}

/** Reads a Responses API request (`instructions` and `input` items) as a conversation. */
export function readResponsesConversation(body: ChatCompletionRequestBody): MockConversationItem[] {
  const items: MockConversationItem[] = [];
  const instructions = asString(body.instructions);
  if (instructions) items.push({ kind: 'text', role: 'system', text: instructions });
  if (typeof body.input === 'string') {
    items.push({ kind: 'text', role: 'user', text: body.input });
    return items;
  }
  for (const raw of Array.isArray(body.input) ? body.input : []) {
    const item = asRecord(raw);
    if (!item) continue;
    const type = item.type ?? 'message';
    const callId = asString(item.call_id) ?? '';
    if (type === 'message') {
      const text = partsText(item.content, '\n');
      if (text !== '') items.push({ kind: 'text', role: roleOf(item.role), text });
    } else if (type === 'function_call' || type === 'custom_tool_call') {
      const args = type === 'function_call' ? item.arguments : item.input;
      const namespace = asString(item.namespace);
      const name = asString(item.name) ?? '';
      items.push({
        kind: 'tool-call',
        id: callId,
        name: namespace ? `${namespace}__${name}` : name,
        arguments: asString(args) ?? '',
      });
    } else if (type === 'tool_search_call') {
      items.push({
        kind: 'tool-call',
        id: callId,
        name: 'tool_search',
        arguments: JSON.stringify(item.arguments ?? {}),
      });
    } else if (type === 'tool_search_output') {
      items.push({
        kind: 'tool-result',
        toolCallId: callId,
        content: JSON.stringify(item.tools ?? []),
      });
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      const output = item.output;
      const content = typeof output === 'string' ? output : partsText(output, '\n');
      items.push({ kind: 'tool-result', toolCallId: callId, content });
    }
  }
  return items;
}

/** OpenAI Responses: `POST /v1/responses`, typed server-sent events or one response object. */
export const openaiResponsesFlavour: MockApiFlavourHandler = {
  flavour: 'openai-responses',
  matches: (path) => path === '/v1/responses',
  modelOf: (body) => asString(body.model),
  isStreaming: (body) => body.stream === true,
  streamEvents: createResponseEvents,
  json: createResponseJson,
  errorBody: (status, message) => ({
    error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null },
  }),
  readConversation: readResponsesConversation,
};
