import type {
  ClientResult,
  ModelRef,
  OpenCodeClient,
  SessionHistoryEntry,
} from '../opencode-client.js';

/** One recorded client call. */
export interface FakeClientCall {
  method: string;
  options: unknown;
}

/** A session of the fake client. */
export interface FakeSession {
  id: string;
  parentID?: string;
  title?: string;
  busy: boolean;
  deleted: boolean;
  history: SessionHistoryEntry[];
}

/** A recorded, in-memory stand-in for OpenCode's plugin client. */
export interface FakeOpenCodeClient extends OpenCodeClient {
  calls: FakeClientCall[];
  logs: { level: string; message: string; extra?: Record<string, unknown> }[];
  /** Adds a session as if the user had opened it (e.g. the lead's session). */
  addSession(id: string, options?: { agent?: string; model?: ModelRef }): void;
  setBusy(id: string, busy: boolean): void;
  /** Deletes the session: `get` answers 404 and prompts fail. */
  deleteSession(id: string): void;
  /** Prompts to this session are accepted but never show in its history. */
  dropPrompts(id: string): void;
  /** The texts of the user messages the session received. */
  received(id: string): string[];
  /** The fake session's record (parent, title, history). */
  sessionInfo(id: string): FakeSession | undefined;
}

const notFound = <T>(id: string): ClientResult<T> => ({
  error: { name: 'NotFoundError', data: { message: `Session not found: ${id}` } },
  response: { status: 404 },
});

/** Creates the fake; `agents` are the names `app.agents` lists. */
export function createFakeOpenCodeClient(agents: readonly string[] = []): FakeOpenCodeClient {
  const sessions = new Map<string, FakeSession>();
  const dropped = new Set<string>();
  const calls: FakeClientCall[] = [];
  const logs: FakeOpenCodeClient['logs'] = [];
  let next = 0;
  const record = (method: string, options: unknown) => calls.push({ method, options });
  const live = (id: string) => {
    const session = sessions.get(id);
    return session === undefined || session.deleted ? undefined : session;
  };

  const client: FakeOpenCodeClient = {
    calls,
    logs,
    session: {
      async create(options) {
        record('session.create', options);
        next += 1;
        const id = `ses_fake${String(next).padStart(4, '0')}`;
        sessions.set(id, {
          id,
          ...(options.body.parentID === undefined ? {} : { parentID: options.body.parentID }),
          ...(options.body.title === undefined ? {} : { title: options.body.title }),
          busy: false,
          deleted: false,
          history: [],
        });
        return {
          data: {
            id,
            ...(options.body.parentID === undefined ? {} : { parentID: options.body.parentID }),
          },
        };
      },
      async get(options) {
        record('session.get', options);
        return live(options.path.id) === undefined
          ? notFound(options.path.id)
          : { data: { id: options.path.id } };
      },
      async status(options) {
        record('session.status', options);
        const map: Record<string, { type: string }> = {};
        for (const session of sessions.values()) {
          if (session.busy && !session.deleted) map[session.id] = { type: 'busy' };
        }
        return { data: map };
      },
      async messages(options) {
        record('session.messages', options);
        const session = live(options.path.id);
        return session === undefined
          ? notFound(options.path.id)
          : { data: structuredClone(session.history) };
      },
      async promptAsync(options) {
        record('session.promptAsync', options);
        const session = live(options.path.id);
        if (session === undefined) return notFound(options.path.id);
        if (!dropped.has(session.id)) {
          session.history.push({
            info: {
              role: 'user',
              ...(options.body.agent === undefined ? {} : { agent: options.body.agent }),
              ...(options.body.model === undefined ? {} : { model: options.body.model }),
            },
            parts: options.body.parts.map((part) => ({ type: 'text', text: part.text })),
          });
        }
        return { data: {} };
      },
      async abort(options) {
        record('session.abort', options);
        const session = live(options.path.id);
        if (session === undefined) return notFound(options.path.id);
        session.busy = false;
        return { data: true };
      },
    },
    app: {
      async agents(options) {
        record('app.agents', options);
        return { data: agents.map((name) => ({ name })) };
      },
      async log(options) {
        logs.push({
          level: options.body.level,
          message: options.body.message,
          ...(options.body.extra === undefined ? {} : { extra: options.body.extra }),
        });
        return { data: true };
      },
    },
    addSession(id, options = {}) {
      sessions.set(id, {
        id,
        busy: false,
        deleted: false,
        history: [
          {
            info: {
              role: 'user',
              agent: options.agent ?? 'build',
              model: options.model ?? { providerID: 'mock', modelID: 'mock-model' },
            },
            parts: [{ type: 'text', text: 'hello' }],
          },
        ],
      });
    },
    setBusy(id, busy) {
      const session = sessions.get(id);
      if (session === undefined) throw new Error(`no fake session ${id}`);
      session.busy = busy;
    },
    deleteSession(id) {
      const session = sessions.get(id);
      if (session !== undefined) session.deleted = true;
    },
    dropPrompts(id) {
      dropped.add(id);
    },
    received(id) {
      return (sessions.get(id)?.history ?? [])
        .filter((entry) => entry.info.role === 'user')
        .flatMap((entry) => entry.parts.map((part) => part.text ?? ''));
    },
    sessionInfo: (id) => sessions.get(id),
  };
  return client;
}
