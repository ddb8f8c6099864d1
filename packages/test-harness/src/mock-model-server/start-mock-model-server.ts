import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FlavourAnswerContext, MockApiFlavourHandler } from './mock-api-flavour.js';
import type {
  ChatCompletionRequestBody,
  MockModelRequest,
  MockModelScript,
  MockTurn,
} from './mock-model-script.js';
import { MOCK_API_FLAVOURS } from './read-conversation.js';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Options of {@link startMockModelServer}. */
export interface MockModelServerOptions {
  /** What the model answers, turn by turn. */
  script: MockModelScript;
  /** Port to listen on; `0` (the default) picks a free one. */
  port?: number;
  /** Loopback address to listen on; `127.0.0.1` by default. Other addresses are refused. */
  host?: string;
  /** Model ids listed by `GET /v1/models`; `["mock-model"]` by default. */
  models?: string[];
  /** Text of the turn sent once the script has run out; `"done"` by default. */
  fallbackText?: string;
  /**
   * Closes the server after this many milliseconds without a request, so a test that
   * forgets `close()` cannot leave it listening. Off by default.
   */
  idleTimeoutMs?: number;
}

/** A running mock model server. */
export interface MockModelServer {
  /** Base URL ending in `/v1`, as OpenAI-compatible clients expect in `baseURL` (Codex's `base_url` too). */
  readonly url: string;
  /**
   * `http://127.0.0.1:<port>` without a path, as Anthropic clients expect in
   * `ANTHROPIC_BASE_URL` and Gemini clients in `GOOGLE_GEMINI_BASE_URL`.
   */
  readonly origin: string;
  readonly port: number;
  readonly host: string;
  /** Every model request received (of every API flavour), in order of arrival. */
  readonly requests: readonly MockModelRequest[];
  /** True once at least one request was answered by the fallback turn. */
  readonly exhausted: boolean;
  /** True once the server stopped listening (by `close()` or the idle timeout). */
  readonly closed: boolean;
  /** Stops listening and drops open connections; safe to call more than once. */
  close(): Promise<void>;
}

function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new Error(`request body exceeds ${MAX_BODY_BYTES} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

function sendError(response: ServerResponse, status: number, message: string, type: string) {
  sendJson(response, status, { error: { message, type, code: status } });
}

function roughInputTokens(body: unknown): number {
  return Math.max(1, Math.ceil(JSON.stringify(body ?? null).length / 4));
}

/**
 * Starts a scripted model server on loopback that speaks four model APIs: OpenAI chat
 * completions (`POST /v1/chat/completions`), Anthropic Messages (`POST /v1/messages`),
 * OpenAI Responses (`POST /v1/responses`) and Gemini (`POST /v1beta/models/<model>:generateContent`
 * and `:streamGenerateContent`). It answers every model request from one script, streamed
 * (server-sent events) or as JSON, and records what it was asked and in which flavour.
 * Also serves `GET /v1/models` and token counts; anything else gets a JSON 404.
 * The server does not keep the process alive; call `close()` when done.
 */
export async function startMockModelServer(
  options: MockModelServerOptions,
): Promise<MockModelServer> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK_HOSTS.has(host)) {
    throw new Error(`startMockModelServer listens on loopback only, not on "${host}"`);
  }
  const models = options.models ?? ['mock-model'];
  const fallback: MockTurn = { text: options.fallbackText ?? 'done' };
  const requests: MockModelRequest[] = [];
  let nextStep = 0;
  let exhausted = false;
  let closed = false;
  let idleTimer: NodeJS.Timeout | undefined;

  const pickTurn = async (record: MockModelRequest): Promise<MockTurn | undefined> => {
    const { script } = options;
    if (typeof script === 'function') return script(record, record.index);
    const step = script[nextStep];
    if (step === undefined) return undefined;
    nextStep += 1;
    return typeof step === 'function' ? step(record, record.index) : step;
  };

  const answerModel = async (
    handler: MockApiFlavourHandler,
    request: IncomingMessage,
    response: ServerResponse,
  ) => {
    let body: ChatCompletionRequestBody;
    try {
      const parsed: unknown = JSON.parse(await readBody(request));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new Error('the body must be a JSON object');
      }
      body = parsed as ChatCompletionRequestBody;
    } catch (error) {
      sendJson(response, 400, handler.errorBody(400, `invalid request body: ${String(error)}`));
      return;
    }
    const path = (request.url ?? '').split('?')[0] ?? '';
    const model = handler.modelOf(body, path);
    const record: MockModelRequest = {
      index: requests.length,
      flavour: handler.flavour,
      method: request.method ?? 'POST',
      path,
      ...(model !== undefined ? { model } : {}),
      stream: handler.isStreaming(body, path),
      headers: headersOf(request),
      body,
      exhausted: false,
    };
    requests.push(record);

    let turn: MockTurn | undefined;
    try {
      turn = await pickTurn(record);
    } catch (error) {
      const message = `the mock model script threw: ${String(error)}`;
      sendJson(response, 500, handler.errorBody(500, message));
      return;
    }
    if (turn === undefined) {
      turn = fallback;
      record.exhausted = true;
      exhausted = true;
    }
    record.turn = turn;
    if (turn.error) {
      const { status, message = 'scripted failure', retryAfterMs } = turn.error;
      const retryHeaders: Record<string, string> =
        retryAfterMs === undefined
          ? {}
          : {
              'retry-after-ms': String(retryAfterMs),
              'retry-after': String(Math.ceil(retryAfterMs / 1000)),
            };
      sendJson(response, status, handler.errorBody(status, message), retryHeaders);
      return;
    }

    const context: FlavourAnswerContext = {
      id: `mock-${handler.flavour}-${record.index}`,
      model: model ?? models[0] ?? 'mock-model',
      created: Math.floor(Date.now() / 1000),
      requestIndex: record.index,
      body,
    };
    if (!record.stream) {
      sendJson(response, 200, handler.json(turn, context));
      return;
    }
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    for (const event of handler.streamEvents(turn, context)) response.write(event);
    response.end();
  };

  const countTokens = async (request: IncomingMessage, response: ServerResponse, key: string) => {
    let body: unknown;
    try {
      body = JSON.parse(await readBody(request));
    } catch {
      body = null;
    }
    sendJson(response, 200, { [key]: roughInputTokens(body) });
  };

  const route = async (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    const method = request.method ?? 'GET';
    const handler =
      method === 'POST' ? MOCK_API_FLAVOURS.find((flavour) => flavour.matches(path)) : undefined;
    if (handler) {
      await answerModel(handler, request, response);
    } else if (method === 'POST' && path === '/v1/messages/count_tokens') {
      await countTokens(request, response, 'input_tokens');
    } else if (
      method === 'POST' &&
      /^\/v1(?:beta|alpha)?\/models\/[^/:]+:countTokens$/.test(path)
    ) {
      await countTokens(request, response, 'totalTokens');
    } else if (method === 'GET' && path === '/v1/models') {
      sendJson(response, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'teamkit-mock' })),
      });
    } else if (method === 'HEAD') {
      // Connectivity probes (Claude Code sends `HEAD /api/hello`) only need an answer.
      request.resume();
      response.writeHead(200);
      response.end();
    } else {
      request.resume();
      sendError(response, 404, `no route for ${method} ${path}`, 'not_found_error');
    }
  };

  const server = createServer((request, response) => {
    armIdleTimer();
    route(request, response)
      .catch((error: unknown) => {
        if (!response.headersSent) sendError(response, 500, String(error), 'server_error');
        else response.destroy();
      })
      .finally(armIdleTimer);
  });

  const close = async (): Promise<void> => {
    if (idleTimer) clearTimeout(idleTimer);
    if (closed) return;
    closed = true;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  };

  function armIdleTimer(): void {
    if (options.idleTimeoutMs === undefined || closed) return;
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => void close(), options.idleTimeoutMs);
    idleTimer.unref();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.unref();
  armIdleTimer();

  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}/v1`,
    origin: `http://${urlHost}:${port}`,
    port,
    host,
    requests,
    get exhausted() {
      return exhausted;
    },
    get closed() {
      return closed;
    },
    close,
  };
}
