import type { ActionName, ActionResponse, RunDelta, RunSnapshot, RunSummary } from '../protocol.js';

/** An error the server answered with: the TeamkitError code and message. */
export class ActionError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function answer<T>(response: Response): Promise<T> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ActionError('INTERNAL', `The server answered ${response.status} without JSON.`);
  }
  const parsed = body as ActionResponse & Record<string, unknown>;
  if (parsed.ok === false) throw new ActionError(parsed.error.code, parsed.error.message);
  return parsed as T;
}

/** The runs of every source, and a line for each source that could not be listed. */
export async function fetchRuns(): Promise<{ runs: RunSummary[]; problems: string[] }> {
  const response = await fetch('/api/runs', { credentials: 'same-origin' });
  const { runs, problems } = await answer<{ runs: RunSummary[]; problems?: string[] }>(response);
  return { runs, problems: problems ?? [] };
}

/** Takes an action on a run as the user; throws {@link ActionError} with the core's message. */
export async function postAction(
  source: string,
  runId: string,
  action: ActionName,
  input: Record<string, unknown>,
): Promise<unknown> {
  const response = await fetch(
    `/api/runs/${encodeURIComponent(source)}/${encodeURIComponent(runId)}/actions/${action}`,
    {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(input),
    },
  );
  return (await answer<{ result?: unknown }>(response)).result;
}

/** Callbacks of a run's live stream. */
export interface RunStreamHandlers {
  snapshot(snapshot: RunSnapshot): void;
  delta(delta: RunDelta): void;
  status(state: 'live' | 'reconnecting' | { error: string }): void;
}

/**
 * Follows a run over server-sent events: a snapshot on every (re)connect, then deltas.
 * Returns a function that closes the stream.
 */
export function openRunStream(source: string, runId: string, on: RunStreamHandlers): () => void {
  const url = `/api/runs/${encodeURIComponent(source)}/${encodeURIComponent(runId)}/stream`;
  const events = new EventSource(url);
  events.addEventListener('snapshot', (event) => {
    // Marks for measuring the page (tests and the benchmark read them).
    performance.mark('teamkit:snapshot');
    on.snapshot(JSON.parse((event as MessageEvent<string>).data) as RunSnapshot);
    on.status('live');
  });
  events.addEventListener('delta', (event) => {
    on.delta(JSON.parse((event as MessageEvent<string>).data) as RunDelta);
  });
  events.addEventListener('error', () => {
    if (events.readyState === EventSource.CONNECTING) {
      on.status('reconnecting');
      return;
    }
    // Closed for good: the server answered with an error instead of a stream; show it.
    fetch(url, { credentials: 'same-origin' })
      .then((response) => answer(response))
      .then(
        () => on.status({ error: 'The live stream closed.' }),
        (error: unknown) =>
          on.status({
            error: error instanceof ActionError ? `${error.code}: ${error.message}` : String(error),
          }),
      );
  });
  return () => events.close();
}
