export type { FindNatsServerOptions, NatsServerLocation } from './find-nats-server.js';
export { findNatsServer } from './find-nats-server.js';
export type { NatsServerProcess, StartNatsServerOptions } from './start-nats-server.js';
export { startNatsServer } from './start-nats-server.js';
