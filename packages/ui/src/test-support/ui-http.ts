import { request as httpRequest } from 'node:http';

/** What one raw HTTP request got back. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One HTTP request with every header under the test's control (fetch would not send a
 * foreign Host), to 127.0.0.1 on `port`.
 */
export function rawRequest(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { Host: `127.0.0.1:${port}`, ...options.headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** Signs in with a login URL and returns the session cookie (`name=value`). */
export async function signIn(port: number, loginUrl: string): Promise<string> {
  const url = new URL(loginUrl);
  const response = await rawRequest(port, { path: `${url.pathname}${url.search}` });
  const cookie = response.headers['set-cookie']?.[0];
  if (response.status !== 303 || cookie === undefined)
    throw new Error(`sign-in failed: ${response.status} ${response.body}`);
  return cookie.split(';')[0] ?? '';
}

/** Reads server-sent events from a stream until `until` returns true for the events so far. */
export function readEvents(
  port: number,
  path: string,
  cookie: string,
  until: (events: { event: string; data: unknown }[]) => boolean,
  timeoutMs = 30_000,
): Promise<{ event: string; data: unknown }[]> {
  return new Promise((resolve, reject) => {
    const events: { event: string; data: unknown }[] = [];
    const req = httpRequest(
      { host: '127.0.0.1', port, path, headers: { Host: `127.0.0.1:${port}`, Cookie: cookie } },
      (response) => {
        let buffer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          buffer += chunk;
          for (;;) {
            const end = buffer.indexOf('\n\n');
            if (end === -1) break;
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event !== undefined && data !== undefined)
              events.push({ event, data: JSON.parse(data) });
          }
          if (until(events)) {
            clearTimeout(timer);
            req.destroy();
            resolve(events);
          }
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      reject(
        new Error(
          `stream: condition not met in ${timeoutMs} ms; got ${JSON.stringify(events).slice(0, 2000)}`,
        ),
      );
    }, timeoutMs);
    req.on('error', (error) => {
      if (!until(events)) reject(error);
    });
    req.end();
  });
}
