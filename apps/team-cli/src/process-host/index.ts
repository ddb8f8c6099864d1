export type { WaitingMarker } from '@teamkit/team-core';
export { markWaiting, readWaitingMarker, waitingMarkerPath } from '@teamkit/team-core';
export type { AgentCommandValues } from './agent-command.js';
export {
  DEFAULT_AGENT_COMMAND,
  expandAgentCommand,
  parseAgentCommand,
  resolveScriptedAgent,
  SCRIPTED_AGENT_NAME,
  scriptedAgentPath,
} from './agent-command.js';
export type { ProcessHost, ProcessHostOptions, ProcessMember } from './create-process-host.js';
export { createProcessHost, PROCESS_HOST_ID } from './create-process-host.js';
export type { Handoff, TakenHandoffs } from './member-presence.js';
export {
  dropHandoff,
  handoffFolder,
  takeHandoffs,
  takenHandoffPath,
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
