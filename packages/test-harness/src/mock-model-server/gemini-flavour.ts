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
import type { ChatCompletionRequestBody, MockTurn } from './mock-model-script.js';

const GENERATE_PATH =
  /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

function parts(turn: MockTurn, requestIndex: number): Record<string, unknown>[] {
  const result: Record<string, unknown>[] = [];
  if (turn.text) result.push({ text: turn.text });
  (turn.toolCalls ?? []).forEach((call, position) => {
    let args: unknown = {};
    try {
      args = JSON.parse(argumentsText(call.arguments));
    } catch {
      args = { input: argumentsText(call.arguments) };
    }
    result.push({
      functionCall: { id: call.id ?? `call_${requestIndex}_${position}`, name: call.name, args },
    });
  });
  return result;
}

/** One `GenerateContentResponse`; Gemini ends function-call turns with `STOP` too. */
function generateContentResponse(turn: MockTurn, context: FlavourAnswerContext) {
  const output = roughTokens(turn.text ?? '');
  return {
    candidates: [
      {
        content: { role: 'model', parts: parts(turn, context.requestIndex) },
        finishReason: 'STOP',
        index: 0,
      },
    ],
    usageMetadata: {
      promptTokenCount: 1,
      candidatesTokenCount: output,
      totalTokenCount: output + 1,
    },
    modelVersion: context.model,
    responseId: context.id,
  };
}

function resultText(response: unknown): string {
  const record = asRecord(response);
  if (typeof record?.output === 'string') return record.output;
  if (typeof record?.error === 'string') return record.error;
  return JSON.stringify(response ?? null);
}

/** Reads a Gemini request (`systemInstruction` and `contents` of parts) as a conversation. */
export function readGeminiConversation(body: ChatCompletionRequestBody): MockConversationItem[] {
  const items: MockConversationItem[] = [];
  const system = asRecord(body.systemInstruction);
  const systemText = partsText(system?.parts ?? body.systemInstruction, '\n');
  if (systemText !== '') items.push({ kind: 'text', role: 'system', text: systemText });
  // Gemini may leave out call ids; a response then answers the oldest open call of its name.
  const open: { id: string; name: string }[] = [];
  for (const raw of Array.isArray(body.contents) ? body.contents : []) {
    const content = asRecord(raw);
    const role = content?.role === 'model' ? 'assistant' : 'user';
    let texts: string[] = [];
    const flush = () => {
      if (texts.length > 0) items.push({ kind: 'text', role, text: texts.join('\n') });
      texts = [];
    };
    for (const rawPart of Array.isArray(content?.parts) ? content.parts : []) {
      const part = asRecord(rawPart);
      if (!part || part.thought === true) continue;
      if (typeof part.text === 'string') texts.push(part.text);
      const call = asRecord(part.functionCall);
      if (call) {
        flush();
        const name = asString(call.name) ?? '';
        const id = asString(call.id) ?? `${name}#${items.length}`;
        open.push({ id, name });
        items.push({ kind: 'tool-call', id, name, arguments: JSON.stringify(call.args ?? {}) });
      }
      const response = asRecord(part.functionResponse);
      if (response) {
        flush();
        const name = asString(response.name) ?? '';
        const given = asString(response.id);
        const index = open.findIndex((entry) => (given ? entry.id === given : entry.name === name));
        const id = index >= 0 ? (open.splice(index, 1)[0]?.id ?? '') : (given ?? '');
        items.push({
          kind: 'tool-result',
          toolCallId: id,
          content: resultText(response.response),
          toolName: name,
        });
      }
    }
    flush();
  }
  return items;
}

/**
 * Gemini API: `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` (`data:` chunks)
 * and `:generateContent` (one JSON document).
 */
export const geminiFlavour: MockApiFlavourHandler = {
  flavour: 'gemini',
  matches: (path) => GENERATE_PATH.test(path),
  modelOf: (_body, path) => GENERATE_PATH.exec(path)?.[1],
  isStreaming: (_body, path) => GENERATE_PATH.exec(path)?.[2] === 'streamGenerateContent',
  streamEvents: (turn, context) => [
    `data: ${JSON.stringify(generateContentResponse(turn, context))}\n\n`,
  ],
  json: generateContentResponse,
  errorBody: (status, message) => ({
    error: { code: status, message, status: status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT' },
  }),
  readConversation: readGeminiConversation,
};
