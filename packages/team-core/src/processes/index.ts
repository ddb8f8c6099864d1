// Operating-system processes Teamkit starts: facts, verification before any signal,
// ancestry. Also the `@teamkit/team-core/processes` entry point, which loads nothing else
// of team-core, so a command can ask "is this process a member?" cheaply.
export type {
  ExpectedVariable,
  ProcessCheck,
  ProcessExpectation,
  RecordedProcess,
} from './check-recorded-process.js';
export { checkRecordedProcess } from './check-recorded-process.js';
export type { MemberAncestor } from './member-ancestors.js';
export { findMemberAncestors, MEMBER_VARIABLES } from './member-ancestors.js';
export type { ProcessFacts } from './process-facts.js';
export { readProcessEnvironment, readProcessFacts } from './process-facts.js';
export type { ProcessSession } from './process-session-id.js';
export { parseProcessSessionId, processSessionId } from './process-session-id.js';
export type { SignalOptions, SignalOutcome } from './signal-recorded-process.js';
export { signalRecordedProcess } from './signal-recorded-process.js';
