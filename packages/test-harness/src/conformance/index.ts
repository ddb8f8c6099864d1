/**
 * @teamkit/test-harness/conformance: the host conformance suite. It imports vitest, so
 * it lives on its own subpath and the package's root entry stays free of it.
 */
export type { HostConformanceDriver, HostConformanceOptions } from './run-host-conformance.js';
export { runHostConformance } from './run-host-conformance.js';
