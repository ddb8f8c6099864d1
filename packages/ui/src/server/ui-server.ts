import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorMessage } from '@teamkit/team-core/errors';
import type { TeamkitStore } from '@teamkit/team-core/storage';
import type { ActionResponse, RunDelta } from '../protocol.js';
import { type AnyRunSource, isLiveRunSource } from './live-run-source.js';
import { type RunActionContext, runAction } from './run-actions.js';
import { createRunHub, type RunHub } from './run-hub.js';
import { allowedHosts, createUiAuth, isOwnOrigin } from './ui-auth.js';

/** Options for {@link startUiServer}. */
export interface UiServerOptions {
  /** Where runs are read from: Teamkit's own runs, Claude Code's teams. */
  sources: readonly AnyRunSource[];
  /** The Teamkit home, for actions. */
  home: string;
  /** The store holding the home's runs, for actions. */
  store: TeamkitStore;
  /** 0 (default) picks a free port. */
  port?: number;
  env?: NodeJS.ProcessEnv;
  stopRun: RunActionContext['stopRun'];
  /** Where the built page lives; default the package's `dist/web/`. */
  assetsFolder?: string;
  reconcileMs?: number;
  idleCloseMs?: number;
  onError?: (error: unknown) => void;
}

/** A running UI server. */
export interface UiServer {
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** A login URL with a fresh one-time token; `hash` opens a view, e.g. `#/run/teamkit/<id>`. */
  loginUrl(hash?: string): string;
  readonly hub: RunHub;
  close(): Promise<void>;
}

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Teamkit</title>
<link rel="stylesheet" href="/assets/app.css">
<script type="module" src="/assets/app.js"></script>
</head>
<body><div id="app"></div></body>
</html>
`;

const SIGNED_OUT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Teamkit: sign in</title>
<link rel="stylesheet" href="/assets/app.css"></head>
<body><main class="signed-out"><h1>Open the link <code>team ui</code> printed</h1>
<p>This page needs the one-time link from <code>team ui</code>. Each link works once;
run <code>team ui</code> again for a new one.</p></main></body></html>
`;

const ASSETS: Record<string, { file: string; type: string }> = {
  '/assets/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/assets/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};

const MAX_BODY = 256 * 1024;

/** The bundled page: beside the built server, or in `dist/` when the server runs from source. */
function defaultAssetsFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, '..', 'web'), path.join(here, '..', '..', 'dist', 'web')];
  return (
    candidates.find((folder) => existsSync(path.join(folder, 'app.js'))) ?? candidates[0] ?? here
  );
}

function send(
  response: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  extra: Record<string, string> = {},
): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': type, ...extra });
  response.end(body);
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  send(response, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

function refuse(response: ServerResponse, status: number, code: string, message: string): void {
  sendJson(response, status, { ok: false, error: { code, message } } satisfies ActionResponse);
}

function errorResponse(error: unknown): { status: number; body: ActionResponse } {
  const shape = error as { code?: unknown; message?: unknown; kind?: unknown };
  if (typeof shape?.code === 'string' && typeof shape.message === 'string' && shape.kind) {
    const status =
      shape.kind === 'not_found'
        ? 404
        : shape.kind === 'conflict'
          ? 409
          : shape.kind === 'refused'
            ? 403
            : shape.kind === 'usage'
              ? 400
              : 500;
    return { status, body: { ok: false, error: { code: shape.code, message: shape.message } } };
  }
  return {
    status: 500,
    body: {
      ok: false,
      error: { code: 'INTERNAL', message: errorMessage(error) },
    },
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error('too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A link that opens one run: `#/run/<source>/<run>[/<tab>]`. */
const RUN_HASH = /^#\/run\/([a-z-]{1,32})\/([^/]{1,200})(?:\/[a-z]*)?$/;

const RUN_ROUTE =
  /^\/api\/runs\/([a-z-]{1,32})\/([^/]{1,200})\/(stream|actions\/([A-Za-z]{1,40}))$/;

/**
 * Starts the `team ui` server on 127.0.0.1. Every request must name the server as its
 * Host (DNS rebinding); every page and API call needs the session cookie that a
 * one-time login token opens; every action must come from the server's own Origin.
 */
export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const auth = createUiAuth();
  const env = options.env ?? process.env;
  const assets = options.assetsFolder ?? defaultAssetsFolder();
  const hub = createRunHub({
    sources: options.sources,
    ...(options.reconcileMs === undefined ? {} : { reconcileMs: options.reconcileMs }),
    ...(options.idleCloseMs === undefined ? {} : { idleCloseMs: options.idleCloseMs }),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  });
  const streams = new Set<ServerResponse>();
  let port = 0;

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const host = request.headers.host ?? '';
    if (!allowedHosts(port).includes(host)) {
      refuse(response, 421, 'BAD_HOST', `This server answers only to 127.0.0.1:${port}.`);
      return;
    }
    const url = new URL(request.url ?? '/', `http://${host}`);
    const method = request.method ?? 'GET';
    const asset = ASSETS[url.pathname];
    if (asset !== undefined && method === 'GET') {
      // The page's own script and style carry no secrets; the sign-in page needs the style.
      try {
        send(response, 200, asset.type, await readFile(path.join(assets, asset.file)));
      } catch {
        refuse(response, 500, 'INTERNAL', 'The page is not built; run the package build.');
      }
      return;
    }
    if (url.pathname === '/favicon.ico') {
      send(response, 204, 'text/plain', '');
      return;
    }
    if (url.pathname === '/' && method === 'GET' && url.searchParams.has('token')) {
      const session = auth.redeem(url.searchParams.get('token') ?? '');
      if (session === undefined) {
        send(response, 401, 'text/html; charset=utf-8', SIGNED_OUT);
        return;
      }
      // The redirect drops the token from the address bar and the history.
      send(response, 303, 'text/plain; charset=utf-8', 'Signed in.', {
        Location: '/',
        'Set-Cookie': auth.sessionCookie(session),
      });
      return;
    }
    if (!auth.hasSession(request)) {
      if (url.pathname === '/') send(response, 401, 'text/html; charset=utf-8', SIGNED_OUT);
      else refuse(response, 401, 'UNAUTHORIZED', 'Open the link `team ui` printed to sign in.');
      return;
    }
    if (url.pathname === '/' && method === 'GET') {
      send(response, 200, 'text/html; charset=utf-8', PAGE);
      return;
    }
    if (url.pathname === '/api/runs' && method === 'GET') {
      const runs = [];
      // One source that cannot be read (a config folder it may not open) hides no other.
      const problems: string[] = [];
      for (const source of options.sources) {
        try {
          runs.push(...(await source.listRuns()));
        } catch (error) {
          options.onError?.(error);
          problems.push(`${source.label}: ${errorMessage(error)}`);
        }
      }
      sendJson(response, 200, { ok: true, runs, problems });
      return;
    }
    const route = RUN_ROUTE.exec(url.pathname);
    if (route === null) {
      refuse(response, 404, 'NOT_FOUND', `Nothing at ${url.pathname}.`);
      return;
    }
    const [, sourceId = '', runId = '', kind, action] = route;
    const source = hub.source(sourceId);
    if (source === undefined) {
      refuse(response, 404, 'NOT_FOUND', `No run source "${sourceId}".`);
      return;
    }
    if (kind === 'stream' && method === 'GET') {
      await stream(sourceId, decodeURIComponent(runId), request, response);
      return;
    }
    if (action !== undefined && method === 'POST') {
      if (!isOwnOrigin(request, port) || request.headers['sec-fetch-site'] === 'cross-site') {
        refuse(response, 403, 'FORBIDDEN_ORIGIN', 'Actions are taken only from this page.');
        return;
      }
      if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
        refuse(response, 415, 'INVALID_INPUT', 'Actions are sent as application/json.');
        return;
      }
      let input: unknown;
      try {
        input = JSON.parse(await readBody(request));
      } catch {
        refuse(response, 400, 'INVALID_INPUT', 'The action body is not JSON (or too large).');
        return;
      }
      try {
        const id = decodeURIComponent(runId);
        const result = isLiveRunSource(source)
          ? await source.runAction(id, action, input)
          : await runAction(
              {
                home: options.home,
                store: options.store,
                runId: id,
                env,
                stopRun: options.stopRun,
              },
              action,
              input,
            );
        sendJson(response, 200, { ok: true, result } satisfies ActionResponse);
      } catch (error) {
        const { status, body } = errorResponse(error);
        sendJson(response, status, body);
      }
      return;
    }
    refuse(response, 405, 'METHOD_NOT_ALLOWED', `${method} is not allowed here.`);
  };

  const stream = async (
    sourceId: string,
    runId: string,
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> => {
    let live: Awaited<ReturnType<RunHub['live']>>;
    try {
      live = await hub.live(sourceId, runId);
    } catch (error) {
      const { status, body } = errorResponse(error);
      sendJson(response, status, body);
      return;
    }
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      Connection: 'keep-alive',
    });
    streams.add(response);
    const write = (event: string, data: unknown) =>
      response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    write('snapshot', live.snapshot());
    const unsubscribe = live.subscribe((delta: RunDelta) => write('delta', delta));
    const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), 15_000);
    heartbeat.unref();
    const done = () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(response);
      hub.release(sourceId, runId, live);
    };
    request.on('close', done);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      options.onError?.(error);
      if (!response.headersSent) refuse(response, 500, 'INTERNAL', 'The server failed.');
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    port,
    origin,
    hub,
    loginUrl(hash = '') {
      const run = RUN_HASH.exec(hash);
      if (run !== null) hub.prewarm(run[1] ?? '', decodeURIComponent(run[2] ?? ''));
      return `${origin}/?token=${auth.issueLoginToken()}${hash}`;
    },
    async close() {
      for (const response of streams) response.end();
      streams.clear();
      await hub.close();
      for (const source of options.sources)
        if (isLiveRunSource(source)) await source.close?.().catch(() => {});
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
