export type { FindNatsServerOptions, NatsServerLocation } from './find-nats-server.js';
export { findNatsServer } from './find-nats-server.js';
export { freeLoopbackPort } from './free-port.js';
export type { NatsServerProcess, StartNatsServerOptions } from './start-nats-server.js';
export { startNatsServer } from './start-nats-server.js';
