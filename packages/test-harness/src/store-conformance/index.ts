/**
 * @teamkit/test-harness/store-conformance: the store conformance suite every
 * `TeamkitStore` passes (file, memory, NATS). It imports vitest, so it lives on its own
 * subpath and the package's root entry stays free of it.
 */
export type {
  StoreConformanceOptions,
  StoreProcessOptions,
} from './run-store-conformance.js';
export { runStoreConformance } from './run-store-conformance.js';
export type { StoreProcess } from './store-process.js';
export { startStoreProcess } from './store-process.js';
export type { WorkerReply, WorkerRequest } from './worker-protocol.js';
