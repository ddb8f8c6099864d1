import net from 'node:net';

/**
 * A TCP port on 127.0.0.1 that nothing listens on right now (the kernel picks it), for a
 * server a test starts. Another process may take it before the server binds; servers the
 * harness starts report that as a failed start rather than sharing the port.
 */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
