export type { AgentActions, AgentEnvironment, MailFilter } from './agent-actions.js';
export {
  createAgentActions,
  defineAgent,
  inboxPollingEnvironment,
  testHostEnvironment,
} from './agent-actions.js';
export type { LeadOutcome, PlannedTask } from './coding-team-scripts.js';
export {
  CODING_TEAM_PLAN,
  codingTeamScripts,
  playLead,
  playWorker,
} from './coding-team-scripts.js';
