export { createTestHost } from './create-test-host.js';
export type { AgentScript, NextDeliveryOptions, ScriptedAgentContext } from './scripted-agent.js';
export type {
  IdleHandler,
  SettledOptions,
  TestHost,
  TestHostCall,
  TestHostCapabilities,
  TestHostOptions,
  TestHostScriptError,
} from './test-host-types.js';
