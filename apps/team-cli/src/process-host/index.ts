export type { AgentCommandValues } from './agent-command.js';
export {
  DEFAULT_AGENT_COMMAND,
  expandAgentCommand,
  parseAgentCommand,
  resolveScriptedAgent,
  SCRIPTED_AGENT_NAME,
  SCRIPTED_AGENT_PACKAGE,
  scriptedAgentPath,
} from './agent-command.js';
export type { ProcessHost, ProcessHostOptions, ProcessMember } from './create-process-host.js';
export { createProcessHost, PROCESS_HOST_ID } from './create-process-host.js';
export type { TakenHandoffs, WaitingMarker } from './member-presence.js';
export {
  awaitHandoff,
  dropHandoff,
  markWaiting,
  readWaitingMarker,
  takeHandoffs,
} from './member-presence.js';
export type { SessionCheck } from './member-signals.js';
export {
  inspectProcessSession,
  memberProcessExpectation,
  signalProcessSession,
  stopProcessSession,
} from './member-signals.js';
export type { ProcessSession } from './process-session.js';
export {
  isProcessSessionAlive,
  parseProcessSessionId,
  processSessionId,
} from './process-session.js';
