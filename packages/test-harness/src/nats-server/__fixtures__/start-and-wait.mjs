// Starts a private nats-server, prints its pid and port, and waits to be killed.
import { startNatsServer } from '@teamkit/test-harness';

const server = await startNatsServer();
process.stdout.write(`${JSON.stringify({ pid: server.pid, port: server.port })}\n`);
setInterval(() => {}, 1_000);
