/** One server-sent event: its `event:` name (if any) and its parsed `data:` JSON. */
export interface ServerSentEvent {
  event?: string;
  data: Record<string, unknown>;
}

/** Reads a whole `text/event-stream` body the way SDK clients split it: blank-line blocks. */
export async function readServerSentEvents(response: Response): Promise<ServerSentEvent[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      let event: string | undefined;
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice('event: '.length);
        if (line.startsWith('data: ')) data += line.slice('data: '.length);
      }
      return { ...(event !== undefined ? { event } : {}), data: JSON.parse(data) };
    });
}

/** Posts a JSON body to a mock model server path. */
export function postJson(origin: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}
