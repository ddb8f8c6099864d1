import net from 'node:net';

/** What the proxy does with traffic: pass it, drop the server's answers, or drop everything. */
export type ProxyMode = 'pass' | 'drop-replies' | 'silent';

/** A TCP proxy to a local server whose links can be made to fail on purpose. */
export interface FlakyProxy {
  readonly port: number;
  /** `nats://127.0.0.1:<port>`. */
  readonly url: string;
  /** Changes what happens to traffic on every link, open or future. */
  setMode(mode: ProxyMode): void;
  /** Ends every open link at once, as a network failure would; new links get the current mode. */
  cut(): void;
  close(): Promise<void>;
}

/**
 * Starts a proxy on a free 127.0.0.1 port in front of `targetPort`. Bytes dropped on a link
 * are never resumed on that link (the stream would be torn), so a test drops, then cuts.
 */
export async function startFlakyProxy(targetPort: number): Promise<FlakyProxy> {
  let mode: ProxyMode = 'pass';
  const links = new Set<{ client: net.Socket; server: net.Socket }>();
  const proxy = net.createServer((client) => {
    const server = net.connect({ host: '127.0.0.1', port: targetPort });
    const link = { client, server };
    links.add(link);
    let torn = false;
    const end = () => {
      links.delete(link);
      client.destroy();
      server.destroy();
    };
    client.on('data', (chunk) => {
      if (mode === 'silent') torn = true;
      if (!torn) server.write(chunk);
    });
    server.on('data', (chunk) => {
      if (mode !== 'pass') torn = true;
      if (!torn) client.write(chunk);
    });
    client.on('error', end).on('close', end);
    server.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const address = proxy.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const cut = () => {
    for (const { client, server } of links) {
      client.destroy();
      server.destroy();
    }
    links.clear();
  };
  return {
    port,
    url: `nats://127.0.0.1:${port}`,
    setMode(next) {
      mode = next;
    },
    cut,
    async close() {
      cut();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
