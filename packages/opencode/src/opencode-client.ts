/** What an SDK call resolves to: `data` on success, `error` otherwise (the SDK does not throw). */
export interface ClientResult<T> {
  data?: T;
  error?: unknown;
  response?: { status: number };
}

/** A model as OpenCode names it in prompts. */
export interface ModelRef {
  providerID: string;
  modelID: string;
}

/** One message of a session's history, as far as Teamkit reads it. */
export interface SessionHistoryEntry {
  info: { id?: string; role: string; agent?: string; model?: ModelRef };
  parts: { type: string; text?: string }[];
}

/**
 * The part of OpenCode's plugin client (the v1 SDK, `input.client`) that Teamkit uses.
 * Kept structural so tests can hand in a recorded fake.
 */
export interface OpenCodeClient {
  session: {
    create(options: {
      body: { parentID?: string; title?: string };
    }): Promise<ClientResult<{ id: string; parentID?: string }>>;
    get(options: { path: { id: string } }): Promise<ClientResult<{ id: string }>>;
    status(
      options?: Record<string, never>,
    ): Promise<ClientResult<Record<string, { type: string }>>>;
    messages(options: { path: { id: string } }): Promise<ClientResult<SessionHistoryEntry[]>>;
    promptAsync(options: {
      path: { id: string };
      body: { agent?: string; model?: ModelRef; parts: { type: 'text'; text: string }[] };
    }): Promise<ClientResult<unknown>>;
    abort(options: { path: { id: string } }): Promise<ClientResult<unknown>>;
  };
  app: {
    agents(options?: Record<string, never>): Promise<ClientResult<{ name: string }[]>>;
    log(options: {
      body: {
        service: string;
        level: 'debug' | 'info' | 'warn' | 'error';
        message: string;
        extra?: Record<string, unknown>;
      };
    }): Promise<unknown>;
  };
}

/** Writes one line to the host's log; never throws and never waits. */
export type PluginLog = (
  level: 'debug' | 'info' | 'warn' | 'error',
  message: string,
  extra?: Record<string, unknown>,
) => void;

/** A {@link PluginLog} over the client's `app.log`, with the service name `teamkit`. */
export function createClientLog(client: Pick<OpenCodeClient, 'app'>): PluginLog {
  return (level, message, extra) => {
    try {
      void client.app
        .log({ body: { service: 'teamkit', level, message, ...(extra ? { extra } : {}) } })
        .catch(() => {});
    } catch {
      // Logging must never break the host.
    }
  };
}

/** Describes an SDK error value for a log line or an error message. */
export function describeClientError(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null) {
    const record = error as { data?: { message?: unknown }; message?: unknown; name?: unknown };
    const message = record.data?.message ?? record.message ?? record.name;
    if (typeof message === 'string') return message;
    try {
      return JSON.stringify(error);
    } catch {
      return String(error);
    }
  }
  return String(error);
}
