/**
 * @teamkit/test-harness: an in-memory host with scripted agents, a team fixture and
 * (under `@teamkit/test-harness/conformance`) a host conformance suite. This entry never
 * loads vitest. Every export is listed by name; adding a name here makes it public API.
 */

// test host, fixture
export type {
  AgentScript,
  NextDeliveryOptions,
  ScriptedAgentContext,
  SettledOptions,
  TestHost,
  TestHostCall,
  TestHostCapabilities,
  TestHostOptions,
  TestHostScriptError,
} from './test-host/index.js';
export { createTestHost } from './test-host/index.js';
