/**
 * @teamkit/store-nats: a `TeamkitStore` on NATS JetStream, so a team's run can be shared
 * by members on several machines. Every export is listed by name.
 */
export type { NatsCredentials, NatsTlsOptions } from './connect-link.js';
export type { NatsStore, NatsStoreOptions } from './create-nats-store.js';
export { createNatsStore } from './create-nats-store.js';
export type { StreamReplicas } from './stream-replicas.js';
